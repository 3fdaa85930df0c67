// fused_linear_cross_entropy's kernels on the GPU, for flce::forward_backward:
// the launch wrappers of one type, the products at configuration config
// (-1: the wrappers' default choice).
#ifndef SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_WRAPPERS_HPP
#define SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_WRAPPERS_HPP

#include "fused_linear_cross_entropy.tile.h"

#include <cstddef>
#include <cstdint>

namespace flce {

#define FLCE_WRAPPERS(SUFFIX, T)                                               \
  struct Wrappers_##SUFFIX {                                                   \
    /* The products' configurations (one list for the three). */               \
    static constexpr const tile::config *configs =                             \
        flce_logits_##SUFFIX##_tile_configs;                                   \
    static constexpr int n_configs =                                           \
        tilecc::flce_logits_##SUFFIX##_num_configs;                            \
    int config = -1;                                                           \
    static constexpr cudaError_t invalid = cudaErrorInvalidValue;              \
    cudaError_t zero(void *p, std::size_t bytes) const {                       \
      return cudaMemsetAsync(p, 0, bytes);                                     \
    }                                                                          \
    cudaError_t count_targets(const int64_t *t, int *count, int n,             \
                              int64_t ignore) const {                          \
      return tilecc::count_targets(t, count, n, ignore, nullptr, -1);          \
    }                                                                          \
    cudaError_t logits(const T *x, const T *w, T *out, int m, int n,           \
                       int k) const {                                          \
      return tilecc::flce_logits_##SUFFIX(x, w, out, m, n, k, nullptr,         \
                                          config);                             \
    }                                                                          \
    cudaError_t cross_entropy(T *l, const int64_t *t, float *loss,             \
                              const int *count, int rows, int vocab,           \
                              int64_t stride, int64_t ignore,                  \
                              float smoothing) const {                         \
      return tilecc::flce_cross_entropy_##SUFFIX(l, t, loss, count, rows,      \
                                                 vocab, stride, ignore,        \
                                                 smoothing, nullptr, -1);      \
    }                                                                          \
    cudaError_t grad_input(const T *g, const T *w, T *dx, const int *count,    \
                           int m, int n, int k) const {                        \
      return tilecc::flce_grad_input_##SUFFIX(g, w, dx, count, m, n, k,        \
                                              nullptr, config);                \
    }                                                                          \
    cudaError_t grad_weight(const T *g, const T *x, float *dw,                 \
                            const int *count, int m, int n, int k,             \
                            bool accumulate) const {                           \
      return tilecc::flce_grad_weight_##SUFFIX(g, x, dw, count, m, n, k,       \
                                               accumulate, nullptr, config);   \
    }                                                                          \
  };
FLCE_WRAPPERS(bf16, tile::bfloat16)
FLCE_WRAPPERS(f16, tile::half)
#undef FLCE_WRAPPERS

} // namespace flce

#endif // SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_WRAPPERS_HPP
