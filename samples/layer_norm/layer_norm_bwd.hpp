// The whole layer-norm backward pass as a user runs it: clear the group
// locks, then layer_norm_bwd_dx (dx and the groups' partial dw, db), then
// layer_norm_bwd_dwdb (their sums). Returns the first error.
#ifndef SAMPLES_LAYER_NORM_BWD_HPP
#define SAMPLES_LAYER_NORM_BWD_HPP

#include "layer_norm.tile.h"

#include <algorithm>

namespace sample {

/// The launch wrappers of one element type: fp16's keep tutorial 05's
/// names, bf16's end in _bf16.
template <class T> struct LayerNormKernels;
template <> struct LayerNormKernels<tile::half> {
  static constexpr auto fwd = tilecc::layer_norm_fwd;
  static constexpr auto bwd_dx = tilecc::layer_norm_bwd_dx;
  static constexpr auto bwd_dwdb = tilecc::layer_norm_bwd_dwdb;
};
template <> struct LayerNormKernels<tile::bfloat16> {
  static constexpr auto fwd = tilecc::layer_norm_fwd_bf16;
  static constexpr auto bwd_dx = tilecc::layer_norm_bwd_dx_bf16;
  static constexpr auto bwd_dwdb = tilecc::layer_norm_bwd_dwdb_bf16;
};

/// How many partial sums the programs share: as Triton's tutorial 05
/// chooses it for the configurations that lock (more groups for shorter
/// rows, so that fewer programs wait for a lock), and at least two per SM
/// of the current device, so that the persistent configurations (a program
/// per group) fill the GPU.
inline int layer_norm_groups(int n_cols) {
  const int tutorial = n_cols <= 1024   ? 256
                       : n_cols <= 4096 ? 128
                       : n_cols <= 8192 ? 96
                                        : 64;
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) !=
          cudaSuccess)
    return tutorial;
  return std::max(tutorial, 2 * sms);
}

/// Buffers the backward pass needs beside its inputs and outputs.
struct LayerNormScratch {
  float *partial_dw, *partial_db; // groups x n_cols each
  int *locks;                     // 2 x groups
  int groups;
};

template <class T>
cudaError_t layer_norm_bwd(T *dx, T *dw, T *db, const T *dy, const T *x,
                           const T *w, const float *mean, const float *rstd,
                           const LayerNormScratch &s, int stride, int n_rows,
                           int n_cols, cudaStream_t stream = nullptr,
                           int config = -1) {
  if (cudaError_t e =
          cudaMemsetAsync(s.locks, 0, 2 * s.groups * sizeof(int), stream))
    return e;
  if (cudaError_t e = LayerNormKernels<T>::bwd_dx(
          dx, dy, s.partial_dw, s.partial_db, x, w, mean, rstd, s.locks, stride,
          n_rows, n_cols, s.groups, stream, config))
    return e;
  return LayerNormKernels<T>::bwd_dwdb(s.partial_dw, s.partial_db,
                                       s.locks + s.groups, dw, db, s.groups,
                                       n_cols, stream, -1);
}

} // namespace sample

#endif // SAMPLES_LAYER_NORM_BWD_HPP
