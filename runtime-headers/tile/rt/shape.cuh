// Shape operations (tile::reshape, permute, join, split, cat, flip). Where
// layout assignment gave the result a layout in which each thread holds the
// elements it held (tilecc --emit=layouts says "relabeled"), the operation
// renumbers registers and the compiler keeps no copy; otherwise the
// elements pass once through shared memory at their row-major positions.
#pragma once

#include "tile/rt/layout.cuh"
#include "tile/rt/sync.cuh"

namespace tile::rt {

/// reshape and permute in registers: element e is element e.
template <class T, int N>
__device__ __forceinline__ void relabel(const T (&in)[N], T (&out)[N]) {
#pragma unroll
  for (int e = 0; e < N; ++e)
    out[e] = in[e];
}

/// join in registers: each thread holds pairs, a's element e then b's.
template <class T, int N>
__device__ __forceinline__ void join(const T (&a)[N], const T (&b)[N],
                                     T (&out)[2 * N]) {
#pragma unroll
  for (int e = 0; e < N; ++e) {
    out[2 * e] = a[e];
    out[2 * e + 1] = b[e];
  }
}

/// split in registers: join's inverse.
template <class T, int N>
__device__ __forceinline__ void split(const T (&in)[2 * N], T (&a)[N],
                                      T (&b)[N]) {
#pragma unroll
  for (int e = 0; e < N; ++e) {
    a[e] = in[2 * e];
    b[e] = in[2 * e + 1];
  }
}

/// cat in registers: dimension 0's repetitions are numbered last, so b's
/// elements follow a's.
template <class T, int N>
__device__ __forceinline__ void
cat_in_registers(const T (&a)[N], const T (&b)[N], T (&out)[2 * N]) {
#pragma unroll
  for (int e = 0; e < N; ++e) {
    out[e] = a[e];
    out[N + e] = b[e];
  }
}

namespace detail {
/// Writes the elements of `in` (layout L) this thread owns at their
/// row-major positions in buf.
template <class L, class T, int N>
__device__ void spill(const T (&in)[N], T *buf) {
#pragma unroll
  for (int e = 0; e < N; ++e)
    if (L::owns(e))
      buf[linear_index<L>(e)] = in[e];
}
} // namespace detail

/// reshape through shared memory: in (layout LS) and out (layout LD) have
/// the same row-major order. Sync: as transpose's.
template <class LS, class LD, int Sync = 0, class T, int NS, int ND>
__device__ void reshape_through_smem(const T (&in)[NS], T (&out)[ND],
                                     unsigned char *scratch) {
  T *const buf = reinterpret_cast<T *>(scratch);
  detail::spill<LS>(in, buf);
  sync_threads<Sync>();
#pragma unroll
  for (int e = 0; e < ND; ++e)
    out[e] = buf[linear_index<LD>(e)];
  sync_threads<Sync>();
}

/// cat through shared memory: b's rows after a's (both of layout LS).
template <class LS, class LD, int Sync = 0, class T, int NS, int ND>
__device__ void cat_through_smem(const T (&a)[NS], const T (&b)[NS],
                                 T (&out)[ND], unsigned char *scratch) {
  T *const buf = reinterpret_cast<T *>(scratch);
  detail::spill<LS>(a, buf);
  detail::spill<LS>(b, buf + LS::numel());
  sync_threads<Sync>();
#pragma unroll
  for (int e = 0; e < ND; ++e)
    out[e] = buf[linear_index<LD>(e)];
  sync_threads<Sync>();
}

/// flip through shared memory: out is in reversed along dimension Dim.
template <class LS, class LD, int Dim, int Sync = 0, class T, int NS, int ND>
__device__ void flip_through_smem(const T (&in)[NS], T (&out)[ND],
                                  unsigned char *scratch) {
  T *const buf = reinterpret_cast<T *>(scratch);
  detail::spill<LS>(in, buf);
  sync_threads<Sync>();
  constexpr int stride = [] {
    int s = 1;
    for (int d = Dim + 1; d < LD::rank; ++d)
      s *= LD::shape(d);
    return s;
  }();
#pragma unroll
  for (int e = 0; e < ND; ++e)
    out[e] = buf[linear_index<LD>(e) +
                 (LD::shape(Dim) - 1 - 2 * LD::coord(e, Dim)) * stride];
  sync_threads<Sync>();
}

} // namespace tile::rt
