// Rotary position embedding (Liger-Kernel's RoPE, the rotate-half form of
// Llama and Hugging Face), forward and backward, on the queries and keys of
// one layer in one launch, in place. q is [batch, q heads, seq, head_dim] and
// k [batch, k heads, seq, head_dim] with any batch, head and position
// strides (the last dimension contiguous); cos and sin are [seq, head_dim]
// caches. With h = head_dim / 2, x1 = x[:h], x2 = x[h:]:
//   forward   x1' = x1 cos[:h] - x2 sin[:h],  x2' = x2 cos[h:] + x1 sin[h:]
//   backward  the rotation by -theta: dx1 = dy1 cos[:h] + dy2 sin[h:],
//             dx2 = dy2 cos[h:] - dy1 sin[:h]
// computed in fp32 and rounded once. A program rotates every head of one
// position of one sequence (the cache row is read once for all heads).
#include <cstdint>
#include <tile/tile.hpp>

/// Rotates BLOCK_H heads (n_heads of them live) of one position: x at
/// base, heads head_stride apart.
template <class T, bool Backward, int BLOCK_H, int HALF>
void rotate_heads(T *x, int64_t base, int64_t head_stride, int n_heads,
                  const tile::tensor<float, HALF> &cos1,
                  const tile::tensor<float, HALF> &cos2,
                  const tile::tensor<float, HALF> &sin1,
                  const tile::tensor<float, HALF> &sin2) {
  auto heads = tile::arange<BLOCK_H>();
  auto d = tile::arange<HALF>();
  auto offs = tile::expand_dims<1>(tile::cast<int64_t>(heads)) * head_stride +
              tile::expand_dims<0>(d);
  auto live =
      tile::broadcast_to<BLOCK_H, HALF>(tile::expand_dims<1>(heads < n_heads));
  T *first = x + base, *second = x + base + HALF;
  auto x1 = tile::cast<float>(tile::load(first + offs, live, 0.0f));
  auto x2 = tile::cast<float>(tile::load(second + offs, live, 0.0f));
  auto c1 = tile::expand_dims<0>(cos1), c2 = tile::expand_dims<0>(cos2);
  auto s1 = tile::expand_dims<0>(sin1), s2 = tile::expand_dims<0>(sin2);
  if constexpr (Backward) {
    tile::store(first + offs, tile::cast<T>(x1 * c1 + x2 * s2), live);
    tile::store(second + offs, tile::cast<T>(x2 * c2 - x1 * s1), live);
  } else {
    tile::store(first + offs, tile::cast<T>(x1 * c1 - x2 * s1), live);
    tile::store(second + offs, tile::cast<T>(x2 * c2 + x1 * s2), live);
  }
}

template <class T, bool Backward, int BLOCK_Q, int BLOCK_K, int HALF>
void rope_position(T *q, T *k, const T *cos, const T *sin, int seq,
                   int n_q_heads, int n_k_heads, int64_t q_batch_stride,
                   int64_t q_head_stride, int64_t q_seq_stride,
                   int64_t k_batch_stride, int64_t k_head_stride,
                   int64_t k_seq_stride) {
  const int program = tile::program_id(0);
  const int b = program / seq, s = program % seq;
  auto d = tile::arange<HALF>();
  const int64_t row = int64_t(s) * (2 * HALF);
  auto cos1 = tile::cast<float>(tile::load(cos + row + d));
  auto cos2 = tile::cast<float>(tile::load(cos + row + HALF + d));
  auto sin1 = tile::cast<float>(tile::load(sin + row + d));
  auto sin2 = tile::cast<float>(tile::load(sin + row + HALF + d));
  rotate_heads<T, Backward, BLOCK_Q, HALF>(
      q, b * q_batch_stride + s * q_seq_stride, q_head_stride, n_q_heads, cos1,
      cos2, sin1, sin2);
  rotate_heads<T, Backward, BLOCK_K, HALF>(
      k, b * k_batch_stride + s * k_seq_stride, k_head_stride, n_k_heads, cos1,
      cos2, sin1, sin2);
}

// The kernels for each direction and type (T is not a meta-parameter);
// batch and head_dim are the rules'. They rotate q and k in place, so tuning
// restores both, from the first element to past the last, after each trial.
#define ROPE_KERNEL(NAME, BACKWARD, T)                                         \
  template <int BLOCK_Q, int BLOCK_K, int HALF>                                \
  TILE_KERNEL void NAME(                                                       \
      T *q, T *k, const T *cos, const T *sin, [[maybe_unused]] int batch,      \
      int seq, int n_q_heads, int n_k_heads, [[maybe_unused]] int head_dim,    \
      int64_t q_batch_stride, int64_t q_head_stride, int64_t q_seq_stride,     \
      int64_t k_batch_stride, int64_t k_head_stride, int64_t k_seq_stride) {   \
    rope_position<T, BACKWARD, BLOCK_Q, BLOCK_K, HALF>(                        \
        q, k, cos, sin, seq, n_q_heads, n_k_heads, q_batch_stride,             \
        q_head_stride, q_seq_stride, k_batch_stride, k_head_stride,            \
        k_seq_stride);                                                         \
  }                                                                            \
  /* Llama-style 32 query and 32 or 8 key heads, head_dim 128 or 64. */        \
  TILE_CONFIGS(NAME, tile::config{.meta = {32, 32, 64}, .num_warps = 4},       \
               tile::config{.meta = {32, 8, 64}, .num_warps = 4},              \
               tile::config{.meta = {32, 32, 32}, .num_warps = 4},             \
               tile::config{.meta = {32, 8, 32}, .num_warps = 4});             \
  template <int BLOCK_Q, int BLOCK_K, int HALF>                                \
  TILE_SELECT(NAME)                                                            \
  bool NAME##_fits(T *, T *, const T *, const T *, int, int, int n_q_heads,    \
                   int n_k_heads, int head_dim, int64_t, int64_t, int64_t,     \
                   int64_t, int64_t, int64_t) {                                \
    return n_q_heads <= BLOCK_Q && n_k_heads <= BLOCK_K &&                     \
           head_dim == 2 * HALF;                                               \
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
  template <int BLOCK_Q, int BLOCK_K, int HALF>                                \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(T *, T *, const T *, const T *, int batch, int seq,   \
                         int, int, int, int64_t, int64_t, int64_t, int64_t,    \
                         int64_t, int64_t) {                                   \
    return {batch * seq};                                                      \
  }

ROPE_KERNEL(rope_fwd_bf16, false, tile::bfloat16)
ROPE_KERNEL(rope_bwd_bf16, true, tile::bfloat16)
ROPE_KERNEL(rope_fwd_f16, false, tile::half)
ROPE_KERNEL(rope_bwd_f16, true, tile::half)
#undef ROPE_KERNEL
