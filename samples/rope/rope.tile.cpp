// Rotary position embedding (Liger-Kernel's RoPE, the rotate-half form of
// Llama and Hugging Face), forward and backward, on the queries and keys of
// one layer in one launch, in place. q is [batch, q heads, seq, head_dim] and
// k [batch, k heads, seq, head_dim] with any batch, head and position
// strides (the last dimension contiguous); cos and sin are [seq, head_dim]
// caches. With h = head_dim / 2, x1 = x[:h], x2 = x[h:]:
//   forward   x1' = x1 cos[:h] - x2 sin[:h],  x2' = x2 cos[h:] + x1 sin[h:]
//   backward  the rotation by -theta: dx1 = dy1 cos[:h] + dy2 sin[h:],
//             dx2 = dy2 cos[h:] - dy1 sin[:h]
// computed in fp32 and rounded once. A program rotates ROWS rows of
// head_dim elements, a row being one head at one position (ROWS consecutive
// positions of one head: a contiguous block where positions are), the
// programs of q first, then those of k. Both halves of a row are loaded as
// tiles of the same layout, so that each thread holds an element and its
// partner and the rotation moves no data between threads; all of a
// program's loads go out before its first store.
#include <cstdint>
#include <tile/tile.hpp>

/// Rotates ROWS positions, from position program_id(1) ROWS on (those below
/// seq), of head `head` of sequence `b`: x's row at position p is at
/// b batch_stride + head head_stride + p seq_stride.
template <class T, bool Backward, int ROWS, int HALF>
void rotate_rows(T *x, const T *cos, const T *sin, int b, int head, int seq,
                 int64_t batch_stride, int64_t head_stride,
                 int64_t seq_stride) {
  auto pos = tile::program_id(1) * ROWS + tile::arange<ROWS>();
  auto at = b * batch_stride + head * head_stride +
            tile::cast<int64_t>(pos) * seq_stride;
  auto d = tile::expand_dims<0>(tile::arange<HALF>());
  auto x_at = tile::expand_dims<1>(at) + d;
  auto cache_at =
      tile::expand_dims<1>(tile::cast<int64_t>(pos) * (2 * HALF)) + d;
  auto live = tile::broadcast_to<ROWS, HALF>(tile::expand_dims<1>(pos < seq));
  T *first = x, *second = x + HALF;
  auto x1 = tile::cast<float>(tile::load(first + x_at, live, 0.0f));
  auto x2 = tile::cast<float>(tile::load(second + x_at, live, 0.0f));
  auto c1 = tile::cast<float>(tile::load(cos + cache_at, live, 0.0f));
  auto c2 = tile::cast<float>(tile::load(cos + HALF + cache_at, live, 0.0f));
  auto s1 = tile::cast<float>(tile::load(sin + cache_at, live, 0.0f));
  auto s2 = tile::cast<float>(tile::load(sin + HALF + cache_at, live, 0.0f));
  if constexpr (Backward) {
    tile::store(first + x_at, tile::cast<T>(x1 * c1 + x2 * s2), live);
    tile::store(second + x_at, tile::cast<T>(x2 * c2 - x1 * s1), live);
  } else {
    tile::store(first + x_at, tile::cast<T>(x1 * c1 - x2 * s1), live);
    tile::store(second + x_at, tile::cast<T>(x2 * c2 + x1 * s2), live);
  }
}

/// program_id(0) picks a head of a sequence (q's heads, then k's),
/// program_id(1) a block of ROWS positions.
template <class T, bool Backward, int ROWS, int HALF>
void rope_rows(T *q, T *k, const T *cos, const T *sin, int batch, int seq,
               int n_q_heads, int n_k_heads, int64_t q_batch_stride,
               int64_t q_head_stride, int64_t q_seq_stride,
               int64_t k_batch_stride, int64_t k_head_stride,
               int64_t k_seq_stride) {
  const int program = tile::program_id(0);
  const int q_programs = batch * n_q_heads;
  if (program < q_programs)
    rotate_rows<T, Backward, ROWS, HALF>(
        q, cos, sin, program / n_q_heads, program % n_q_heads, seq,
        q_batch_stride, q_head_stride, q_seq_stride);
  else
    rotate_rows<T, Backward, ROWS, HALF>(
        k, cos, sin, (program - q_programs) / n_k_heads,
        (program - q_programs) % n_k_heads, seq, k_batch_stride, k_head_stride,
        k_seq_stride);
}

// The kernels for each direction and type (T is not a meta-parameter);
// batch and head_dim are the rules'. They rotate q and k in place, so tuning
// restores both, from the first element to past the last, after each trial.
#define ROPE_KERNEL(NAME, BACKWARD, T)                                         \
  template <int ROWS, int HALF>                                                \
  TILE_KERNEL void NAME(                                                       \
      T *q, T *k, const T *cos, const T *sin, int batch, int seq,              \
      int n_q_heads, int n_k_heads, [[maybe_unused]] int head_dim,             \
      int64_t q_batch_stride, int64_t q_head_stride, int64_t q_seq_stride,     \
      int64_t k_batch_stride, int64_t k_head_stride, int64_t k_seq_stride) {   \
    rope_rows<T, BACKWARD, ROWS, HALF>(                                        \
        q, k, cos, sin, batch, seq, n_q_heads, n_k_heads, q_batch_stride,      \
        q_head_stride, q_seq_stride, k_batch_stride, k_head_stride,            \
        k_seq_stride);                                                         \
  }                                                                            \
  /* head_dim 128 or 64, 8 to 16 elements of each half a thread. */            \
  TILE_CONFIGS(NAME, tile::config{.meta = {16, 64}, .num_warps = 4},           \
               tile::config{.meta = {32, 64}, .num_warps = 4},                 \
               tile::config{.meta = {32, 64}, .num_warps = 8},                 \
               tile::config{.meta = {64, 64}, .num_warps = 8},                 \
               tile::config{.meta = {32, 32}, .num_warps = 4},                 \
               tile::config{.meta = {64, 32}, .num_warps = 4});                \
  template <int ROWS, int HALF>                                                \
  TILE_SELECT(NAME)                                                            \
  bool NAME##_fits(T *, T *, const T *, const T *, int batch, int seq,         \
                   int n_q_heads, int n_k_heads, int head_dim, int64_t,        \
                   int64_t, int64_t, int64_t, int64_t, int64_t) {              \
    /* The grid: a head of a sequence each along x, ROWS positions each   */   \
    /* along y (at most 65535 programs).                                  */   \
    return head_dim == 2 * HALF &&                                             \
           int64_t(batch) * (n_q_heads + n_k_heads) <= INT32_MAX &&            \
           tile::cdiv(seq, ROWS) <= 65535;                                     \
  }                                                                            \
  TILE_TUNE(NAME)                                                              \
  tile::tuning NAME##_tuning(                                                  \
      T *q, T *k, const T *, const T *, int batch, int seq, int n_q_heads,     \
      int n_k_heads, int head_dim, int64_t q_batch_stride,                     \
      int64_t q_head_stride, int64_t q_seq_stride, int64_t k_batch_stride,     \
      int64_t k_head_stride, int64_t k_seq_stride) {                           \
    return {.key = {batch, seq, n_q_heads, n_k_heads, head_dim},               \
            .restore_value = {                                                 \
                tile::elements(q, (batch - 1) * q_batch_stride +               \
                                      (n_q_heads - 1) * q_head_stride +        \
                                      (seq - 1) * q_seq_stride + head_dim),    \
                tile::elements(k, (batch - 1) * k_batch_stride +               \
                                      (n_k_heads - 1) * k_head_stride +        \
                                      (seq - 1) * k_seq_stride + head_dim)}};  \
  }                                                                            \
  template <int ROWS, int HALF>                                                \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(T *, T *, const T *, const T *, int batch, int seq,   \
                         int n_q_heads, int n_k_heads, int, int64_t, int64_t,  \
                         int64_t, int64_t, int64_t, int64_t) {                 \
    return {batch * (n_q_heads + n_k_heads), tile::cdiv(seq, ROWS)};           \
  }

ROPE_KERNEL(rope_fwd_bf16, false, tile::bfloat16)
ROPE_KERNEL(rope_bwd_bf16, true, tile::bfloat16)
ROPE_KERNEL(rope_fwd_f16, false, tile::half)
ROPE_KERNEL(rope_bwd_f16, true, tile::half)
#undef ROPE_KERNEL
