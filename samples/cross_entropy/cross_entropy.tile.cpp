// Cross-entropy over a vocabulary fused with its gradient (Liger-Kernel's
// kernel, the loss of LLM training): for each token's row of V logits
// (bf16 or fp16) and its target, the mean over the tokens whose target is
// not ignore_index of
//   loss = (1 - eps) (lse - x_target) + eps (lse - mean(x)),
//   lse  = log sum exp(x),
// eps the label smoothing. The logits are read twice and never held whole:
// the first pass keeps a running maximum and sum of exponentials (online
// log-sum-exp) and the sum of the row; the second writes the gradient of
// the mean loss in place of the logits,
//   dx = (softmax(x) - eps / V - (1 - eps) [i = target]) / n,
// n the count of tokens not ignored (an ignored row's gradient is 0). Each
// row's loss share is written; their sum is the loss. Row offsets are
// 64-bit (8192 tokens x 128256 logits pass 2^31 bytes). The first pass
// runs in 3 stages (tile::range): each thread's next two chunks are on
// their way while it reduces the current one, where a plain loop waited
// for each chunk after the last one's reductions (H100, 8192 rows, best
// configuration: 32000 logits 3171 / 3233 GB/s bf16 / fp16 against 2956 /
// 3208, 128256 logits 2867 / 2869 against 2800 / 2826). The second reads
// the logits it overwrites, which tilecc does not stage.
#include <cstdint>
#include <tile/tile.hpp>

/// The number of targets that are not ignore_index, added to *count (which
/// the caller zeroes).
template <int BLOCK>
TILE_KERNEL void count_targets(const int64_t *target, int *count, int n_rows,
                               int64_t ignore_index) {
  auto rows = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto t = tile::load(target + rows, rows < n_rows, ignore_index);
  tile::atomic_add(count, tile::sum(tile::cast<int>(t != ignore_index)));
}
TILE_CONFIGS(count_targets, tile::config{.meta = {1024}, .num_warps = 4});
TILE_TUNE(count_targets)
tile::tuning count_targets_tuning(const int64_t *, int *count, int n_rows,
                                  int64_t) {
  return {.key = {n_rows}, .reset_to_zero = {tile::elements(count, 1)}};
}
template <int BLOCK>
TILE_GRID(count_targets)
tile::grid count_targets_grid(const int64_t *, int *, int n_rows, int64_t) {
  return {tile::cdiv(n_rows, BLOCK)};
}

// A row's loss share and, in place of its logits, its gradient: that of
// the mean loss, or with GRAD_SCALE > 0 that of the summed loss times
// GRAD_SCALE, for a caller that divides by GRAD_SCALE and the count in
// fp32 (fused_linear_cross_entropy): the mean's gradient, 1/count of the
// sum's, falls below fp16's normal range at thousands of tokens, where a
// product over the vocabulary sums its rounding errors.
template <class T, int BLOCK, int GRAD_SCALE = 0>
void cross_entropy_row(T *logits, const int64_t *target, float *loss,
                       const int *count, int n_vocab, int64_t stride,
                       int64_t ignore_index, float smoothing) {
  const int row = tile::program_id(0);
  T *x = logits + row * stride;
  const int64_t y = tile::load(target + row);
  auto cols = tile::arange<BLOCK>();
  if (y == ignore_index) {
    for (int v0 = 0; v0 < n_vocab; v0 += BLOCK)
      tile::store(x + v0 + cols, tile::zeros<T, BLOCK>(), v0 + cols < n_vocab);
    tile::store(loss + row, 0.0f);
    return;
  }
  tile::device_assert(y >= 0 && y < n_vocab,
                      "cross_entropy: a target outside the vocabulary");
  // Pass 1: the running maximum m, sum of exp(x - m), and the row's sum.
  float m = -INFINITY, d = 0.0f, total = 0.0f;
  for (int v0 : tile::range(0, n_vocab, BLOCK, 3)) {
    auto live = v0 + cols < n_vocab;
    auto v = tile::cast<float>(tile::load(x + v0 + cols, live, -INFINITY));
    const float m_new = tile::maximum(m, tile::max(v));
    d = d * tile::exp(m - m_new) + tile::sum(tile::exp(v - m_new));
    total += tile::sum(tile::where(live, v, 0.0f));
    m = m_new;
  }
  const float lse = m + tile::log(d);
  const float x_y = tile::cast<float>(tile::load(x + y));
  const float n = tile::cast<float>(tile::load(count));
  const float row_loss =
      (1.0f - smoothing) * (lse - x_y) + smoothing * (lse - total / n_vocab);
  tile::store(loss + row, row_loss / n);
  // Pass 2: the gradient, in place.
  const float floor = smoothing / n_vocab;
  for (int v0 = 0; v0 < n_vocab; v0 += BLOCK) {
    auto live = v0 + cols < n_vocab;
    auto v = tile::cast<float>(tile::load(x + v0 + cols, live, 0.0f));
    auto grad = tile::exp(v - lse) - floor -
                tile::where(v0 + cols == y, 1.0f - smoothing, 0.0f);
    if constexpr (GRAD_SCALE > 0)
      tile::store(x + v0 + cols, tile::cast<T>(grad * float(GRAD_SCALE)), live);
    else
      tile::store(x + v0 + cols, tile::cast<T>(grad / n), live);
  }
}

// The kernels for each type (T is not a meta-parameter): a program a row
// (n_rows is the grid rule's); the first configuration, the wrapper's
// default, the fastest measured at 32000 and 128256 logits. The gradient
// overwrites the logits, so tuning restores them after each trial.
// fused_linear_cross_entropy, which includes this file, makes its own with a
// GRAD_SCALE.
#define CROSS_ENTROPY_KERNEL(NAME, T, GRAD_SCALE)                              \
  template <int BLOCK>                                                         \
  TILE_KERNEL void NAME(T *logits, const int64_t *target, float *loss,         \
                        const int *count, [[maybe_unused]] int n_rows,         \
                        int n_vocab, int64_t stride, int64_t ignore_index,     \
                        float smoothing) {                                     \
    cross_entropy_row<T, BLOCK, GRAD_SCALE>(logits, target, loss, count,       \
                                            n_vocab, stride, ignore_index,     \
                                            smoothing);                        \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {8192}, .num_warps = 16},            \
               tile::config{.meta = {4096}, .num_warps = 8},                   \
               tile::config{.meta = {2048}, .num_warps = 4});                  \
  TILE_TUNE(NAME)                                                              \
  tile::tuning NAME##_tuning(T *logits, const int64_t *, float *, const int *, \
                             int n_rows, int n_vocab, int64_t stride, int64_t, \
                             float) {                                          \
    return {.key = {n_rows, n_vocab},                                          \
            .restore_value = {                                                 \
                tile::elements(logits, (n_rows - 1) * stride + n_vocab)}};     \
  }                                                                            \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(T *, const int64_t *, float *, const int *,           \
                         int n_rows, int, int64_t, int64_t, float) {           \
    return {n_rows};                                                           \
  }

CROSS_ENTROPY_KERNEL(cross_entropy_bf16, tile::bfloat16, 0)
CROSS_ENTROPY_KERNEL(cross_entropy_f16, tile::half, 0)
