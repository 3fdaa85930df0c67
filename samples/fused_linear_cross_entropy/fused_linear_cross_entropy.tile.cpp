// A linear layer fused with the cross-entropy over its outputs, forward and
// backward, in chunks of tokens (Liger-Kernel's fused_linear_cross_entropy,
// the last layer of LLM training): x is tokens x hidden, W vocab x hidden,
// both bf16 or fp16. For each chunk of tokens the logits x W^T exist only
// for the chunk; the cross_entropy sample's row kernel turns them into the
// tokens' loss shares and, in place, G = flce::grad_scale times the
// gradient of their summed loss (the mean's, 1/n of it for n counted
// tokens, would fall into fp16's subnormals); then, with s = grad_scale,
//   dx = (G W) / (s n)                  for the chunk's rows of x,
//   dW = dW + (G^T x) / (s n)  in fp32, across the chunks (the first
//                                 writes dW without reading it),
// the division in the products' fp32 epilogue.
// So memory holds one chunk of logits, never all of them. The three products
// are the matmul sample's block (matmul_block.hpp) with the operands as they
// lie; fused_linear_cross_entropy.hpp runs the chunks.
#include "fused_linear_cross_entropy.hpp"
#include "../cross_entropy/cross_entropy.tile.cpp"
#include "../matmul/matmul_block.hpp"

// The products' configurations: tutorial 03's largest H100 block and a
// square one with more stages, as the matmul sample measures them.
#define FLCE_CONFIGS(kernel)                                                   \
  TILE_CONFIGS(                                                                \
      kernel,                                                                  \
      tile::config{                                                            \
          .meta = {128, 256, 64, 8}, .num_warps = 8, .num_stages = 3},         \
      tile::config{                                                            \
          .meta = {128, 128, 64, 8}, .num_warps = 4, .num_stages = 4})

/// What the products multiply by: 1 / (grad_scale n) for n counted tokens.
/// With none, G is zero (so are dx and the addition to dW) and n is taken
/// as 1: the scale must not be zero (matmul_block reads dW divided by it).
inline float grad_unscale(const int *count) {
  const int n = tile::load(count);
  return 1.0f / (float(flce::grad_scale) * float(n > 0 ? n : 1));
}

// The kernels for each type (T is not a meta-parameter): logits = x W^T
// (W given as it lies, vocab x hidden), the chunk's loss shares and G,
// dx = G W / (s n), dW = G^T x / (s n) + (accumulate ? dW : 0) (G given as
// it lies, tokens x vocab; tuning restores dW after each trial).
#define FLCE_KERNELS(SUFFIX, T)                                                \
  template <int BM, int BN, int BK, int GROUP_M>                               \
  TILE_KERNEL void flce_logits_##SUFFIX(const T *x, const T *w, T *logits,     \
                                        int m, int n, int k) {                 \
    matmul_program<T, T, false, true, false, BM, BN, BK, GROUP_M, 0>(          \
        x, w, logits, m, n, k);                                                \
  }                                                                            \
  CROSS_ENTROPY_KERNEL(flce_cross_entropy_##SUFFIX, T, flce::grad_scale)       \
  template <int BM, int BN, int BK, int GROUP_M>                               \
  TILE_KERNEL void flce_grad_input_##SUFFIX(                                   \
      const T *g, const T *w, T *dx, const int *count, int m, int n, int k) {  \
    matmul_program<T, T, false, false, false, BM, BN, BK, GROUP_M, SCALED>(    \
        g, w, dx, m, n, k, grad_unscale(count));                               \
  }                                                                            \
  template <int BM, int BN, int BK, int GROUP_M>                               \
  TILE_KERNEL void flce_grad_weight_##SUFFIX(                                  \
      const T *g, const T *x, float *dw, const int *count, int m, int n,       \
      int k, int accumulate) {                                                 \
    matmul_program<T, float, true, false, true, BM, BN, BK, GROUP_M, SCALED>(  \
        g, x, dw, m, n, k, grad_unscale(count), accumulate != 0);              \
  }                                                                            \
  FLCE_CONFIGS(flce_logits_##SUFFIX);                                          \
  FLCE_CONFIGS(flce_grad_input_##SUFFIX);                                      \
  FLCE_CONFIGS(flce_grad_weight_##SUFFIX);                                     \
  template <int BM, int BN, int BK, int GROUP_M>                               \
  TILE_GRID(flce_logits_##SUFFIX)                                              \
  tile::grid flce_logits_##SUFFIX##_grid(const T *, const T *, T *, int m,     \
                                         int n, int) {                         \
    return {tile::cdiv(m, BM) * tile::cdiv(n, BN)};                            \
  }                                                                            \
  template <int BM, int BN, int BK, int GROUP_M>                               \
  TILE_GRID(flce_grad_input_##SUFFIX)                                          \
  tile::grid flce_grad_input_##SUFFIX##_grid(const T *, const T *, T *,        \
                                             const int *, int m, int n, int) { \
    return {tile::cdiv(m, BM) * tile::cdiv(n, BN)};                            \
  }                                                                            \
  TILE_TUNE(flce_grad_weight_##SUFFIX)                                         \
  tile::tuning flce_grad_weight_##SUFFIX##_tuning(const T *, const T *,        \
                                                  float *dw, const int *,      \
                                                  int m, int n, int k, int) {  \
    return {.key = {m, n, k},                                                  \
            .restore_value = {tile::elements(dw, (long long)m * n)}};          \
  }                                                                            \
  template <int BM, int BN, int BK, int GROUP_M>                               \
  TILE_GRID(flce_grad_weight_##SUFFIX)                                         \
  tile::grid flce_grad_weight_##SUFFIX##_grid(                                 \
      const T *, const T *, float *, const int *, int m, int n, int, int) {    \
    return {tile::cdiv(m, BM) * tile::cdiv(n, BN)};                            \
  }

FLCE_KERNELS(bf16, tile::bfloat16)
FLCE_KERNELS(f16, tile::half)
#undef FLCE_KERNELS
#undef FLCE_CONFIGS
#undef CROSS_ENTROPY_KERNEL
