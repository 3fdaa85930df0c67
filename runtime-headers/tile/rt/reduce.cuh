// Reductions of a distributed tile, in three steps as Triton lowers them:
// each thread combines the elements it holds along the reduced dimension,
// a warp combines across its lanes with butterfly shuffles, and the warps
// combine through shared memory. Threads that hold copies of the same
// elements (replication, or a sliced layout's removed dimension) are never
// combined with each other.
#pragma once

#include "tile/rt/layout.cuh"
#include "tile/rt/math.cuh"
#include "tile/rt/shuffle.cuh"
#include "tile/rt/sync.cuh"

namespace tile::rt {

// The built-in combines. Like a user's combine lambda, each is a function
// object called with the accumulated value and the next.
struct op_sum {
  template <class T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct op_max {
  template <class T> __device__ T operator()(T a, T b) const {
    return maximum(a, b);
  }
};
struct op_min {
  template <class T> __device__ T operator()(T a, T b) const {
    return minimum(a, b);
  }
};
struct op_xor_sum {
  template <class T> __device__ T operator()(T a, T b) const { return a ^ b; }
};

/// A value and where it came from, for argmax/argmin.
template <class T> using indexed = pack<T, int>;
/// argmax/argmin: the larger (smaller) value; on ties the lower index.
template <bool Max> struct op_arg {
  template <class T>
  __device__ indexed<T> operator()(indexed<T> a, indexed<T> b) const {
    T va = get<0>(a), vb = get<0>(b);
    bool take_b = Max ? vb > va : vb < va;
    if (vb == va)
      take_b = get<1>(b) < get<1>(a);
    return take_b ? b : a;
  }
};
using op_argmax = op_arg<true>;
using op_argmin = op_arg<false>;

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

/// Whether this thread holds the first copy of its elements along every
/// dimension of layout P but `skip`: only such threads write shared memory
/// for the others (copies would write the same values to the same places).
template <class P> __device__ bool first_copy(int skip) {
  bool first = true;
  for (int d = 0; d < P::rank; ++d)
    if (d != skip)
      first = first && P::lane_pos(d) < distinct_lanes<P>(d, P::shape(d)) &&
              P::warp_pos(d) < distinct_warps<P>(d, P::shape(d));
  return first;
}

/// Combines across the lanes of a warp that differ along parent dimension d.
template <class P, int Lanes, class V, class Op>
__device__ V warp_combine(V v, int d, Op op) {
#pragma unroll
  for (int m = 1; m < Lanes; m <<= 1)
    v = op(v, shuffle<shfl::bfly>(v, m * P::lane_stride(d)));
  return v;
}

/// Where reduce_in_thread puts element e of L: 2 r + 1 if it starts
/// out[r], 2 r if it is combined into it, -1 for a copy (the tile is
/// narrower than one thread's run along Dim).
template <int Dim, class L> struct reduction_slots {
  TILE_RT_HD static constexpr int value(int e) {
    const digits g = L::decompose(e);
    if (g.s[Dim] >= L::shape(Dim))
      return -1;
    return 2 * L::compose(g, Dim) + (g.s[Dim] == 0 && g.r[Dim] == 0);
  }
};

} // namespace detail

/// Step 1 of reduce alone: out[r] combines the elements of in that this
/// thread holds along Dim, in element order, so that the first of each
/// initializes it. The lanes' partial results stay apart.
template <int Dim, class L, class R, class V, int N, int M, class Op>
__device__ void reduce_in_thread(const V (&in)[N], V (&out)[M], Op op) {
  static_assert(N == L::elems() && M == R::elems(), "tile sizes");
#pragma unroll
  for (int e = 0; e < N; ++e) {
    const int slot = tabulated<detail::reduction_slots<Dim, L>, N>(e);
    if (slot < 0)
      continue;
    const int r = slot / 2;
    out[r] = slot % 2 ? in[e] : op(out[r], in[e]);
  }
}

/// Step 2 of reduce alone: combines the partial results of the lanes of a
/// warp that differ along Dim of L (reduce_in_thread's, or sums of them a
/// loop scaled alike in every lane).
template <int Dim, class L, class V, int M, class Op>
__device__ void combine_lanes(V (&out)[M], Op op) {
  constexpr int Lanes = detail::distinct_lanes<L>(Dim, L::shape(Dim));
#pragma unroll
  for (int r = 0; r < M; ++r)
    out[r] = detail::warp_combine<L, Lanes>(out[r], Dim, op);
}

/// The inverse of combine_lanes for a value the lanes along Dim of L hold
/// alike: the first lane of each group combine_lanes adds up keeps it, the
/// others take the combine's identity, so that adding partial results to
/// it and combining the lanes once counts it once.
template <int Dim, class L, class V, int M>
__device__ void keep_first_lane(V (&v)[M], V identity) {
  constexpr int Lanes = detail::distinct_lanes<L>(Dim, L::shape(Dim));
  if (L::lane_pos(Dim) % Lanes != 0) {
#pragma unroll
    for (int r = 0; r < M; ++r)
      v[r] = identity;
  }
}

/// out = reduction of in along dimension Dim; in has layout L (blocked), out
/// has layout R = sliced<Dim, ...> of the same parameters. The warps' partial
/// results meet at sync_threads<Sync> (every thread, or the first Sync).
template <int Dim, class L, class R, int Sync = 0, class V, int N, int M,
          class Op>
__device__ void reduce(const V (&in)[N], V (&out)[M], Op op) {
  // 1. Within the thread. 2. Across the lanes of a warp.
  reduce_in_thread<Dim, L, R>(in, out, op);
  combine_lanes<Dim, L>(out, op);
  // 3. Across warps, through shared memory.
  constexpr int W = detail::distinct_warps<L>(Dim, L::shape(Dim));
  if constexpr (W > 1) {
    __shared__ V partial[W][R::numel()];
    if (L::lane_pos(Dim) == 0 && L::warp_pos(Dim) < W &&
        detail::first_copy<L>(Dim)) {
#pragma unroll
      for (int r = 0; r < M; ++r)
        partial[L::warp_pos(Dim)][linear_index<R>(r)] = out[r];
    }
    sync_threads<Sync>();
#pragma unroll
    for (int r = 0; r < M; ++r) {
      V acc = partial[0][linear_index<R>(r)];
#pragma unroll
      for (int w = 1; w < W; ++w)
        acc = op(acc, partial[w][linear_index<R>(r)]);
      out[r] = acc;
    }
    sync_threads<Sync>();
  }
}

/// The reduction of a whole 1-D tile with layout L (blocked or sliced), the
/// same value in every thread.
template <class L, int Sync = 0, class V, int N, class Op>
__device__ V reduce_all(const V (&in)[N], Op op) {
  static_assert(L::rank == 1 && N == L::elems(), "a 1-D tile");
  using P = typename L::parent;
  constexpr int D = L::slice_dim == 0 ? 1 : 0; // the tile's dimension in P
  constexpr int Size = L::shape(0);
  V v = in[0];
#pragma unroll
  for (int e = 1; e < N; ++e)
    if (L::parent_digits(e).s[D] < Size)
      v = op(v, in[e]);
  v = detail::warp_combine<P, detail::distinct_lanes<P>(D, Size)>(v, D, op);
  constexpr int W = detail::distinct_warps<P>(D, Size);
  if constexpr (W > 1) {
    __shared__ V partial[W];
    if (P::lane_pos(D) == 0 && P::warp_pos(D) < W && detail::first_copy<P>(D))
      partial[P::warp_pos(D)] = v;
    sync_threads<Sync>();
    v = partial[0];
#pragma unroll
    for (int w = 1; w < W; ++w)
      v = op(v, partial[w]);
    sync_threads<Sync>();
  }
  return v;
}

/// argmax/argmin along Dim: the coordinate along Dim of the winning element.
template <int Dim, class L, class R, int Sync = 0, class T, int N, int M,
          class Op>
__device__ void arg_reduce(const T (&in)[N], int (&out)[M], Op op) {
  indexed<T> pairs[N], best[M];
#pragma unroll
  for (int e = 0; e < N; ++e)
    pairs[e] = make_pack(in[e], L::coord(e, Dim));
  reduce<Dim, L, R, Sync>(pairs, best, op);
#pragma unroll
  for (int r = 0; r < M; ++r)
    out[r] = get<1>(best[r]);
}

/// argmax/argmin of a whole 1-D tile.
template <class L, int Sync = 0, class T, int N, class Op>
__device__ int arg_reduce_all(const T (&in)[N], Op op) {
  indexed<T> pairs[N];
#pragma unroll
  for (int e = 0; e < N; ++e)
    pairs[e] = make_pack(in[e], L::coord(e, 0));
  return get<1>(reduce_all<L, Sync>(pairs, op));
}

} // namespace tile::rt
