// Reductions of a distributed tile, in three steps as Triton lowers them:
// each thread combines the elements it holds along the reduced dimension,
// a warp combines across its lanes with butterfly shuffles, and the warps
// combine through shared memory. Threads that hold copies of the same
// elements (replication, or a sliced layout's removed dimension) are never
// combined with each other.
#pragma once

#include "tile/rt/layout.cuh"
#include "tile/rt/math.cuh"

namespace tile::rt {

struct op_sum {
  template <class T> __device__ static T apply(T a, T b) { return a + b; }
};
struct op_max {
  template <class T> __device__ static T apply(T a, T b) {
    return maximum(a, b);
  }
};
struct op_min {
  template <class T> __device__ static T apply(T a, T b) {
    return minimum(a, b);
  }
};
struct op_xor_sum {
  template <class T> __device__ static T apply(T a, T b) { return a ^ b; }
};

/// A value and where it came from, for argmax/argmin.
template <class T> struct indexed {
  T value;
  int index;
};
/// argmax/argmin: the larger (smaller) value; on ties the lower index.
template <bool Max> struct op_arg {
  template <class T>
  __device__ static indexed<T> apply(indexed<T> a, indexed<T> b) {
    bool take_b = Max ? b.value > a.value : b.value < a.value;
    if (b.value == a.value)
      take_b = b.index < a.index;
    return take_b ? b : a;
  }
};
using op_argmax = op_arg<true>;
using op_argmin = op_arg<false>;

template <class T> __device__ __forceinline__ T shfl_xor(T v, int mask) {
#if defined(__HIPCC__)
  return __shfl_xor(v, mask);
#else
  return __shfl_xor_sync(0xffffffffu, v, mask);
#endif
}
template <class T>
__device__ __forceinline__ indexed<T> shfl_xor(indexed<T> v, int mask) {
  return {shfl_xor(v.value, mask), shfl_xor(v.index, mask)};
}

namespace detail {

/// Along parent dimension d of layout P holding a tile of `size` elements
/// along d, how many lanes and warps hold distinct elements; the rest hold
/// copies (the layout covers more than the tile) and must not be combined.
template <class P> TILE_RT_HD constexpr int distinct_lanes(int d, int size) {
  int lanes = size / P::size_per_thread(d);
  lanes = lanes < 1 ? 1 : lanes;
  return lanes < P::threads_per_warp(d) ? lanes : P::threads_per_warp(d);
}
template <class P> TILE_RT_HD constexpr int distinct_warps(int d, int size) {
  int warps = size / (P::size_per_thread(d) * P::threads_per_warp(d));
  warps = warps < 1 ? 1 : warps;
  return warps < P::warps_per_cta(d) ? warps : P::warps_per_cta(d);
}

/// Combines across the lanes of a warp that differ along parent dimension d.
template <class Op, class P, int Lanes, class V>
__device__ V warp_combine(V v, int d) {
#pragma unroll
  for (int m = 1; m < Lanes; m <<= 1)
    v = Op::apply(v, shfl_xor(v, m * P::lane_stride(d)));
  return v;
}

} // namespace detail

/// out = reduction of in along dimension Dim; in has layout L (blocked), out
/// has layout R = sliced<Dim, ...> of the same parameters.
template <class Op, int Dim, class L, class R, class V, int N, int M>
__device__ void reduce(const V (&in)[N], V (&out)[M]) {
  static_assert(N == L::elems() && M == R::elems(), "tile sizes");
  constexpr int Size = L::shape(Dim);
  // 1. Within the thread, in element order, so that the first element of
  // each output initializes it.
#pragma unroll
  for (int e = 0; e < N; ++e) {
    digits g = L::decompose(e);
    if (g.s[Dim] >= Size)
      continue; // a copy: the tile is narrower than one thread's run
    int r = L::compose(g, Dim);
    out[r] = g.s[Dim] == 0 && g.r[Dim] == 0 ? in[e] : Op::apply(out[r], in[e]);
  }
  // 2. Across the lanes of a warp.
  constexpr int Lanes = detail::distinct_lanes<L>(Dim, Size);
#pragma unroll
  for (int r = 0; r < M; ++r)
    out[r] = detail::warp_combine<Op, L, Lanes>(out[r], Dim);
  // 3. Across warps, through shared memory.
  constexpr int W = detail::distinct_warps<L>(Dim, Size);
  if constexpr (W > 1) {
    __shared__ V partial[W][R::numel()];
    if (L::lane_pos(Dim) == 0 && L::warp_pos(Dim) < W) {
#pragma unroll
      for (int r = 0; r < M; ++r)
        partial[L::warp_pos(Dim)][linear_index<R>(r)] = out[r];
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < M; ++r) {
      V acc = partial[0][linear_index<R>(r)];
#pragma unroll
      for (int w = 1; w < W; ++w)
        acc = Op::apply(acc, partial[w][linear_index<R>(r)]);
      out[r] = acc;
    }
    __syncthreads();
  }
}

/// The reduction of a whole 1-D tile with layout L (blocked or sliced), the
/// same value in every thread.
template <class Op, class L, class V, int N>
__device__ V reduce_all(const V (&in)[N]) {
  static_assert(L::rank == 1 && N == L::elems(), "a 1-D tile");
  using P = typename L::parent;
  constexpr int D = L::slice_dim == 0 ? 1 : 0; // the tile's dimension in P
  constexpr int Size = L::shape(0);
  V v = in[0];
#pragma unroll
  for (int e = 1; e < N; ++e)
    if (L::parent_digits(e).s[D] < Size)
      v = Op::apply(v, in[e]);
  v = detail::warp_combine<Op, P, detail::distinct_lanes<P>(D, Size)>(v, D);
  constexpr int W = detail::distinct_warps<P>(D, Size);
  if constexpr (W > 1) {
    __shared__ V partial[W];
    if (P::lane_pos(D) == 0 && P::warp_pos(D) < W)
      partial[P::warp_pos(D)] = v;
    __syncthreads();
    v = partial[0];
#pragma unroll
    for (int w = 1; w < W; ++w)
      v = Op::apply(v, partial[w]);
    __syncthreads();
  }
  return v;
}

/// argmax/argmin along Dim: the coordinate along Dim of the winning element.
template <class Op, int Dim, class L, class R, class T, int N, int M>
__device__ void arg_reduce(const T (&in)[N], int (&out)[M]) {
  indexed<T> pairs[N], best[M];
#pragma unroll
  for (int e = 0; e < N; ++e)
    pairs[e] = {in[e], L::coord(e, Dim)};
  reduce<Op, Dim, L, R>(pairs, best);
#pragma unroll
  for (int r = 0; r < M; ++r)
    out[r] = best[r].index;
}

/// argmax/argmin of a whole 1-D tile.
template <class Op, class L, class T, int N>
__device__ int arg_reduce_all(const T (&in)[N]) {
  indexed<T> pairs[N];
#pragma unroll
  for (int e = 0; e < N; ++e)
    pairs[e] = {in[e], L::coord(e, 0)};
  return reduce_all<Op, L>(pairs).index;
}

} // namespace tile::rt
