// Fused attention, forward pass (FlashAttention-2, Triton's tutorial 06):
// O = softmax(Q K^T * sm_scale) V for each of Z * H heads, with Q, K, V and
// O of shape (Z, H, seq, D) row-major and fp16 or bf16. A program takes
// BM rows of Q of one head (a persistent one takes such tiles one after
// another) and walks the keys BN at a time with an online
// softmax: it keeps each row's running maximum m and sum l, rescales its
// accumulator when the maximum grows, and never writes the seq x seq
// scores to memory. exp2 replaces exp with the scale folded into log2(e).
// With CAUSAL, row i attends to keys 0..i. Blocks of keys that need no
// mask (left of the diagonal, or whole blocks) run in a loop without it. lse
// receives each row's log-sum-exp (natural log of the softmax's denominator,
// scores scaled) for a backward pass. attention_fp8 takes Q, K and V in
// e4m3 (tutorial 06's fp8 path) and writes O in fp16.
#include <algorithm>
#include <cmath>
#include <tile/tile.hpp>
#include <tuple>
#include <type_traits>

// 8-bit floats: V comes transposed, each head's D x seq (fp8 tensor cores
// read B only with K contiguous; tutorial 06 gives V so), and O is fp16.
template <class T> constexpr bool v_transposed = sizeof(T) == 1;
template <class T>
using out_type = std::conditional_t<sizeof(T) == 1, tile::half, T>;

// Which keys a block of attend() masks: none (every key exists and comes
// before every row), those past seq, or those past seq or after the row.
constexpr int unmasked = 0, seq_masked = 1, causal_masked = 2;

/// V's block of keys `cols` (BN x D) of a head (D x seq if v_transposed).
template <class T, int BN, int D>
tile::tensor<T, BN, D> v_block(const T *v, const tile::tensor<int, BN> &cols,
                               int seq) {
  auto rd = tile::arange<D>();
  if constexpr (v_transposed<T>)
    return tile::trans(tile::load(v + tile::expand_dims<1>(rd) * seq +
                                      tile::expand_dims<0>(cols),
                                  tile::expand_dims<0>(cols < seq)));
  else
    return tile::load(v + tile::expand_dims<1>(cols) * D +
                          tile::expand_dims<0>(rd),
                      tile::expand_dims<1>(cols < seq));
}

/// The online softmax over the keys [lo, hi) for the rows `rows` of one
/// head: updates the running maximum m_i (log2 units), the running sum l_i
/// and the accumulator acc. With CUBIC, that many of every 8 of a thread's
/// exp2s are computed by a cubic on the FMA units (tile::exp2_cubic).
template <class T, int BM, int BN, int D, int MASK, int CUBIC>
std::tuple<tile::tensor<float, BM>, tile::tensor<float, BM>,
           tile::tensor<float, BM, D>>
attend(const tile::tensor<T, BM, D> &q, tile::tensor<float, BM> m_i,
       tile::tensor<float, BM> l_i, tile::tensor<float, BM, D> acc, const T *k,
       const T *v, const tile::tensor<int, BM> &rows, int lo, int hi, int seq,
       float qk_scale) {
  auto rd = tile::arange<D>();
  for (int n0 = lo; n0 < hi; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    // K^T's block: D x BN, read from BN rows of K.
    auto kt = tile::load(k + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(cols) * D,
                         tile::expand_dims<0>(cols < seq));
    auto s = tile::dot(q, kt);
    if (MASK != unmasked) {
      auto keep = tile::broadcast_to<BM, BN>(tile::expand_dims<0>(cols < seq));
      if (MASK == causal_masked)
        keep = keep && tile::expand_dims<0>(cols) <= tile::expand_dims<1>(rows);
      s = tile::where(keep, s, -INFINITY);
    }
    auto m_new = tile::maximum(m_i, tile::max<1>(s) * qk_scale);
    auto p =
        tile::exp2_cubic<CUBIC>(s * qk_scale - tile::expand_dims<1>(m_new));
    auto alpha = tile::exp2(m_i - m_new);
    l_i = l_i * alpha + tile::sum<1>(p);
    acc = tile::dot(tile::cast<T>(p), v_block<T, BN, D>(v, cols, seq),
                    acc * tile::expand_dims<1>(alpha));
    m_i = m_new;
  }
  return std::tuple{m_i, l_i, acc};
}

/// The BM rows of Q from pid_m * BM of head `head`: the blocks of keys
/// that need no mask first (all keys before the diagonal, or all whole
/// blocks), then the masked ones (the diagonal, or the last partial block).
template <class T, int BM, int BN, int D, int CAUSAL, int CUBIC>
void attention_rows(const T *q, const T *k, const T *v, out_type<T> *o,
                    float *lse, float sm_scale, int seq, int pid_m, int head) {
  const long offset = static_cast<long>(head) * seq * D;
  const int start = pid_m * BM;
  auto rows = start + tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto in_seq = tile::expand_dims<1>(rows < seq);
  auto q_tile = tile::load(q + offset + tile::expand_dims<1>(rows) * D +
                               tile::expand_dims<0>(rd),
                           in_seq);
  const float qk_scale = sm_scale * 1.44269504f; // log2(e)
  const T *const k_head = k + offset;
  const T *const v_head = v + offset;
  auto m_i = tile::full<BM>(-INFINITY);
  auto l_i = tile::full<BM>(0.0f);
  auto acc = tile::zeros<float, BM, D>();
  // The unmasked keys end at a multiple of BN: before the block of keys
  // that holds the first row's (causal), or the last whole block.
  const int masked_from = CAUSAL ? start - start % BN : seq - seq % BN;
  {
    auto [m, l, a] = attend<T, BM, BN, D, unmasked, CUBIC>(
        q_tile, m_i, l_i, acc, k_head, v_head, rows, 0, masked_from, seq,
        qk_scale);
    m_i = m;
    l_i = l;
    acc = a;
  }
  if (CAUSAL) {
    auto [m, l, a] = attend<T, BM, BN, D, causal_masked, CUBIC>(
        q_tile, m_i, l_i, acc, k_head, v_head, rows, masked_from,
        start + BM < seq ? start + BM : seq, seq, qk_scale);
    m_i = m;
    l_i = l;
    acc = a;
  } else {
    auto [m, l, a] = attend<T, BM, BN, D, seq_masked, CUBIC>(
        q_tile, m_i, l_i, acc, k_head, v_head, rows, masked_from, seq, seq,
        qk_scale);
    m_i = m;
    l_i = l;
    acc = a;
  }
  tile::store(lse + static_cast<long>(head) * seq + rows,
              (m_i + tile::log2(l_i)) * 0.693147181f, rows < seq);
  tile::store(o + offset + tile::expand_dims<1>(rows) * D +
                  tile::expand_dims<0>(rd),
              tile::cast<out_type<T>>(acc / tile::expand_dims<1>(l_i)), in_seq);
}

/// The block of rows tile t of a head is: causal rows further down attend
/// to more keys, so they come first; then the programs that start last,
/// the ones no others overlap with, are short (FlashAttention-3 does the
/// same).
template <int CAUSAL> int row_block(int t, int blocks) {
  return CAUSAL ? blocks - 1 - t : t;
}

/// One block of rows per program, or, PERSISTENT, as many programs as the
/// GPU holds at once, each walking (head, row block) tiles, numbered head
/// by head, a grid's width apart. Causal tiles cost unlike (row block j
/// attends to j + 1 blocks of keys), so a causal program takes them in
/// pairs that cost alike, blocks j and blocks - 1 - j of a head (the middle
/// one of an odd count twice, rewriting the same rows).
template <class T, int BM, int BN, int D, int CAUSAL, int PERSISTENT,
          int CUBIC = 0>
void attention_program(const T *q, const T *k, const T *v, out_type<T> *o,
                       float *lse, float sm_scale, int seq, int heads) {
  const int blocks = tile::cdiv(seq, BM);
  if (PERSISTENT && CAUSAL) {
    const int pairs = (blocks + 1) / 2;
    for (int t = tile::program_id(0); t < pairs * heads;
         t += tile::num_programs(0)) {
      const int head = t / pairs, j = t % pairs;
      attention_rows<T, BM, BN, D, CAUSAL, CUBIC>(q, k, v, o, lse, sm_scale,
                                                  seq, blocks - 1 - j, head);
      attention_rows<T, BM, BN, D, CAUSAL, CUBIC>(q, k, v, o, lse, sm_scale,
                                                  seq, j, head);
    }
  } else if (PERSISTENT) {
    for (int t = tile::program_id(0); t < blocks * heads;
         t += tile::num_programs(0))
      attention_rows<T, BM, BN, D, CAUSAL, CUBIC>(
          q, k, v, o, lse, sm_scale, seq, row_block<CAUSAL>(t % blocks, blocks),
          t / blocks);
  } else {
    attention_rows<T, BM, BN, D, CAUSAL, CUBIC>(
        q, k, v, o, lse, sm_scale, seq,
        row_block<CAUSAL>(tile::program_id(0), blocks), tile::program_id(1));
  }
}

// head_dim and causal pick the configuration (TILE_SELECT below); heads is
// Z * H, for the grid.
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT>
TILE_KERNEL void
attention_f16(const tile::half *q, const tile::half *k, const tile::half *v,
              tile::half *o, float *lse, float sm_scale, int seq, int heads,
              [[maybe_unused]] int head_dim, [[maybe_unused]] int causal) {
  attention_program<tile::half, BM, BN, D, CAUSAL, PERSISTENT>(
      q, k, v, o, lse, sm_scale, seq, heads);
}

template <int BM, int BN, int D, int CAUSAL, int PERSISTENT>
TILE_KERNEL void
attention_bf16(const tile::bfloat16 *q, const tile::bfloat16 *k,
               const tile::bfloat16 *v, tile::bfloat16 *o, float *lse,
               float sm_scale, int seq, int heads,
               [[maybe_unused]] int head_dim, [[maybe_unused]] int causal) {
  attention_program<tile::bfloat16, BM, BN, D, CAUSAL, PERSISTENT>(
      q, k, v, o, lse, sm_scale, seq, heads);
}

// vt: V transposed, each head's D x seq. CUBIC: how many of every 8 of a
// thread's exp2s go to the FMA units (attend).
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT, int CUBIC>
TILE_KERNEL void
attention_fp8(const tile::float8_e4m3 *q, const tile::float8_e4m3 *k,
              const tile::float8_e4m3 *vt, tile::half *o, float *lse,
              float sm_scale, int seq, int heads, [[maybe_unused]] int head_dim,
              [[maybe_unused]] int causal) {
  attention_program<tile::float8_e4m3, BM, BN, D, CAUSAL, PERSISTENT, CUBIC>(
      q, k, vt, o, lse, sm_scale, seq, heads);
}

// Per head_dim and masking, the wrapper's default first (the fastest on an
// H100/H200 at most lengths), then others (docs/benchmarks-history.md). At
// head_dim 128 the default is a persistent program (one per SM, its producer
// warpgroup copying the next tile's Q, K and V while the consumers finish this
// one): without a mask 1.11x one program per block at seq 1024, 0.92-1.12x at
// 4096 (the length that varies most between runs), 1.01x at 8192;
// causal, taking its tiles in pairs that cost alike, 1.24x at 1024,
// 1.04-1.07x at 4096, 1.01x at 8192 (H200). At head_dim 64 it is
// tutorial 06's H100 blocks (128 x 64, 8 warps, 3 stages) with a producer
// warpgroup, two programs per SM: 1.04-1.10x the same blocks without a
// producer (the f16 alternatives below) at seq 1024 and 4096 without a
// mask, 1.05x causal at 1024, about even longer (causal 8192 0.95-1.05x);
// causal up to seq 4096, 64 x 64 blocks of 4 warps with a producer, three
// programs an SM (whose consumers have the registers for the rotated
// loop): 1.12x at 1024, 1.01-1.03x at 4096, 0.86-0.94x at 8192 (the
// select rule below); without a mask up to seq 1024, the same 128 x 64
// blocks in a persistent program (two stages, two an SM), whose producer
// copies the next tile's Q while the consumers finish this one: 1.01x at
// 1024, 0.95-1.01x at 4096 and 8192, where the rule stops it. Past seq
// 4096, 256 x 64 blocks, 16 consumer warps (four warpgroups of 64 rows)
// and a producer, one program an SM, which shares each block of keys
// among four warpgroups instead of two: without a mask 1.02-1.05x the
// 128 x 64 blocks at 8192 (0.92x at 1024, 0.94-1.05x at 4096); causal, in
// a persistent program taking its tiles in pairs, 1.02-1.10x at 8192 (one
// block a program: 0.90-1.03x).
// With a producer at head_dim 128 the key loop is rotated so that P V runs
// during the next block's softmax (1.08-1.25x without a mask, 1.04-1.13x
// causal, over the same blocks unrotated); at head_dim 64, two programs an
// SM leave too few registers for that and tilecc does not rotate
// (docs/decisions.md). The other blocks measured (128 x 128 at head_dim
// 64, 128 x 64 and 64 x 64 at 128) were never the fastest;
// bf16, which the benchmark does not time, has the defaults only (every
// configuration is another kernel to compile, for each arch).
#define ATTENTION_CONFIGS(kernel, ...)                                         \
  TILE_CONFIGS(kernel,                                                         \
               tile::config{.meta = {64, 64, 64, 1, 0},                        \
                            .num_warps = 4,                                    \
                            .num_stages = 3,                                   \
                            .min_programs_per_sm = 3,                          \
                            .warp_specialize = true},                          \
               tile::config{.meta = {128, 64, 64, 0, 1},                       \
                            .num_warps = 8,                                    \
                            .num_stages = 2,                                   \
                            .min_programs_per_sm = 2,                          \
                            .warp_specialize = true},                          \
               tile::config{.meta = {256, 64, 64, 0, 0},                       \
                            .num_warps = 16,                                   \
                            .num_stages = 3,                                   \
                            .warp_specialize = true},                          \
               tile::config{.meta = {128, 64, 64, 0, 0},                       \
                            .num_warps = 8,                                    \
                            .num_stages = 3,                                   \
                            .min_programs_per_sm = 2,                          \
                            .warp_specialize = true},                          \
               tile::config{.meta = {256, 64, 64, 1, 1},                       \
                            .num_warps = 16,                                   \
                            .num_stages = 3,                                   \
                            .warp_specialize = true},                          \
               tile::config{.meta = {128, 64, 64, 1, 0},                       \
                            .num_warps = 8,                                    \
                            .num_stages = 3,                                   \
                            .min_programs_per_sm = 2,                          \
                            .warp_specialize = true},                          \
               tile::config{.meta = {128, 128, 128, 0, 1},                     \
                            .num_warps = 8,                                    \
                            .num_stages = 2,                                   \
                            .warp_specialize = true},                          \
               tile::config{.meta = {128, 128, 128, 1, 1},                     \
                            .num_warps = 8,                                    \
                            .num_stages = 2,                                   \
                            .warp_specialize = true} __VA_OPT__(, )            \
                   __VA_ARGS__)
ATTENTION_CONFIGS(
    attention_f16,
    tile::config{.meta = {128, 64, 64, 0, 0}, .num_warps = 8, .num_stages = 3},
    tile::config{.meta = {128, 64, 64, 1, 0}, .num_warps = 8, .num_stages = 3},
    tile::config{.meta = {128, 128, 128, 0, 0},
                 .num_warps = 8,
                 .num_stages = 2,
                 .warp_specialize = true},
    tile::config{.meta = {128, 128, 128, 1, 0},
                 .num_warps = 8,
                 .num_stages = 2,
                 .warp_specialize = true});
ATTENTION_CONFIGS(attention_bf16);

// fp8, per head_dim and masking, the default first (H100;
// docs/benchmarks-history.md, session 64). Blocks of 256 keys with a producer
// warpgroup: the exchange that turns P into the second product's fragments, the
// softmax's reductions and the loop's bookkeeping are paid once for twice the
// keys (1.21-1.34x blocks of 128 at head_dim 128 without a mask, 1.12-1.18x
// causal past seq 1024; registers leave this loop unrotated). At head_dim
// 64 causal, 64-row blocks of 4 warps, three programs an SM (1.07-1.10x
// 128 x 256 blocks). The causal 128-key blocks at head_dim 128 are the
// faster at seq 1024 only (1.03-1.04x). The last three are head_dim 64's
// with 1 or 2 of every 8 exp2s on the FMA units (CUBIC, tile::exp2_cubic:
// 128 exp2s a thread a block of keys, 8 cycles each of the SM's 16-lane
// unit, are the bound there), for the benchmark only until measured.
TILE_CONFIGS(attention_fp8,
             tile::config{.meta = {128, 256, 128, 0, 1},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {128, 256, 128, 1, 1},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {128, 256, 64, 0, 1},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {64, 128, 64, 1, 0},
                          .num_warps = 4,
                          .num_stages = 3,
                          .min_programs_per_sm = 3,
                          .warp_specialize = true},
             tile::config{.meta = {128, 128, 128, 1, 1},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {128, 256, 64, 0, 1, 1},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true,
                          .autotune = false},
             tile::config{.meta = {128, 256, 64, 0, 1, 2},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true,
                          .autotune = false},
             tile::config{.meta = {64, 128, 64, 1, 0, 1},
                          .num_warps = 4,
                          .num_stages = 3,
                          .min_programs_per_sm = 3,
                          .warp_specialize = true,
                          .autotune = false});

// 64-row blocks (causal head_dim 64) only up to seq 4096, 256-row ones
// (head_dim 64) only past it: there 128-row ones are faster. A persistent
// program of 128 rows at head_dim 64 only up to seq 1024: beyond, one
// program per block is faster.
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT>
TILE_SELECT(attention_f16)
bool attention_f16_fits(const tile::half *, const tile::half *,
                        const tile::half *, tile::half *, float *, float,
                        int seq, int, int head_dim, int causal) {
  return head_dim == D && causal == CAUSAL &&
         (BM == 64    ? seq <= 4096
          : BM == 256 ? seq > 4096
                      : D != 64 || !PERSISTENT || seq <= 1024);
}
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT>
TILE_SELECT(attention_bf16)
bool attention_bf16_fits(const tile::bfloat16 *, const tile::bfloat16 *,
                         const tile::bfloat16 *, tile::bfloat16 *, float *,
                         float, int seq, int, int head_dim, int causal) {
  return head_dim == D && causal == CAUSAL &&
         (BM == 64    ? seq <= 4096
          : BM == 256 ? seq > 4096
                      : D != 64 || !PERSISTENT || seq <= 1024);
}

// A row block of a head per program, or, PERSISTENT, as many programs as
// the GPU holds at once (no more than there are tiles).
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT>
TILE_GRID(attention_f16)
tile::grid attention_f16_grid(const tile::half *, const tile::half *,
                              const tile::half *, tile::half *, float *, float,
                              int seq, int heads, int, int) {
  if (!PERSISTENT)
    return {tile::cdiv(seq, BM), heads};
  // Causal tiles are pairs of row blocks (attention_program).
  const int blocks = tile::cdiv(seq, BM);
  return {std::min((CAUSAL ? (blocks + 1) / 2 : blocks) * heads,
                   tile::num_sms() * tile::programs_per_sm())};
}
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT>
TILE_GRID(attention_bf16)
tile::grid attention_bf16_grid(const tile::bfloat16 *, const tile::bfloat16 *,
                               const tile::bfloat16 *, tile::bfloat16 *,
                               float *, float, int seq, int heads, int, int) {
  if (!PERSISTENT)
    return {tile::cdiv(seq, BM), heads};
  // Causal tiles are pairs of row blocks (attention_program).
  const int blocks = tile::cdiv(seq, BM);
  return {std::min((CAUSAL ? (blocks + 1) / 2 : blocks) * heads,
                   tile::num_sms() * tile::programs_per_sm())};
}
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT, int CUBIC>
TILE_SELECT(attention_fp8)
bool attention_fp8_fits(const tile::float8_e4m3 *, const tile::float8_e4m3 *,
                        const tile::float8_e4m3 *, tile::half *, float *, float,
                        int, int, int head_dim, int causal) {
  return head_dim == D && causal == CAUSAL;
}
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT, int CUBIC>
TILE_GRID(attention_fp8)
tile::grid
    attention_fp8_grid(const tile::float8_e4m3 *, const tile::float8_e4m3 *,
                       const tile::float8_e4m3 *, tile::half *, float *, float,
                       int seq, int heads, int, int) {
  if (!PERSISTENT)
    return {tile::cdiv(seq, BM), heads};
  const int blocks = tile::cdiv(seq, BM);
  return {std::min((CAUSAL ? (blocks + 1) / 2 : blocks) * heads,
                   tile::num_sms() * tile::programs_per_sm())};
}
