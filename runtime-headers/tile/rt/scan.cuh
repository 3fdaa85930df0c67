// Inclusive scans along one dimension of a blocked tile, in the steps
// Triton lowers them to: each thread scans its run of contiguous elements;
// a warp scans the runs' totals across its lanes with shuffles
// (Hillis-Steele); warps add the totals of the warps before them through
// shared memory; and the layout's repetitions along the dimension add the
// totals of the repetitions before them. A reverse scan runs the same steps
// from the other end. Values are always combined earlier-first (in scan
// order), so the combine need be associative but not commutative.
#pragma once

#include "tile/rt/reduce.cuh"

namespace tile::rt {

namespace detail {

/// Element of a thread's registers at line `line` (its position among the
/// elements with the Dim digits dropped), repetition `rep` and run
/// position `s` along Dim.
template <class L, int Dim>
TILE_RT_HD constexpr int scan_element(int line, int rep, int s) {
  digits g = L::decompose(line, Dim);
  g.s[Dim] = s;
  g.r[Dim] = rep;
  return L::compose(g);
}

/// Row-major position, among the tile's lines along Dim, of the line that
/// element e belongs to.
template <class L, int Dim> __device__ int line_slot(int e) {
  int slot = 0;
  for (int d = 0; d < L::rank; ++d)
    if (d != Dim)
      slot = slot * L::shape(d) + L::coord(e, d);
  return slot;
}

/// acc, or acc's combine with v when acc already holds a value.
template <class V, class Op>
__device__ void accumulate(V &acc, bool &has, const V &v, Op op) {
  acc = has ? op(acc, v) : v;
  has = true;
}

} // namespace detail

/// out = the inclusive scan of in along dimension Dim; both have the
/// blocked layout L.
template <int Dim, bool Reverse, class L, class V, int N, class Op>
__device__ void scan(const V (&in)[N], V (&out)[N], Op op) {
  static_assert(N == L::elems() && L::slice_dim == -1 && L::warp_reps(Dim) == 1,
                "a blocked tile whose repetitions along Dim are in order");
  constexpr int Size = L::shape(Dim);
  constexpr int Spt = L::size_per_thread(Dim);
  constexpr int Run = Spt < Size ? Spt : Size; // the rest of a run are copies
  constexpr int Reps = L::reps(Dim);
  constexpr int Lanes = detail::distinct_lanes<L>(Dim, Size);
  constexpr int W = detail::distinct_warps<L>(Dim, Size);
  constexpr int Lines = L::elems(Dim);
  constexpr int Stride = L::lane_stride(Dim);
  constexpr shfl Earlier = Reverse ? shfl::down : shfl::up;
  // Positions in scan order; threads past the distinct lanes and warps hold
  // copies and compute alongside the originals.
  const int lane = L::lane_pos(Dim) % Lanes;
  const int vlane = Reverse ? Lanes - 1 - lane : lane;
  const int warp = L::warp_pos(Dim) % W;
  const int vwarp = Reverse ? W - 1 - warp : warp;
  constexpr int last_lane = Reverse ? 0 : Lanes - 1;
  auto element = [](int line, int rep, int s) {
    return detail::scan_element<L, Dim>(line, rep, s);
  };

  V carry[Lines]; // totals of the repetitions scanned so far
#pragma unroll
  for (int k = 0; k < Reps; ++k) {
    const int rep = Reverse ? Reps - 1 - k : k;
    // 1. Within the thread, then 2. the threads' totals across lanes.
    V total[Lines];
#pragma unroll
    for (int l = 0; l < Lines; ++l) {
      V acc;
#pragma unroll
      for (int j = 0; j < Run; ++j) {
        int e = element(l, rep, Reverse ? Run - 1 - j : j);
        acc = j == 0 ? in[e] : op(acc, in[e]);
        out[e] = acc;
      }
#pragma unroll
      for (int m = 1; m < Lanes; m <<= 1) {
        V earlier = shuffle<Earlier>(acc, m * Stride);
        if (vlane >= m)
          acc = op(earlier, acc);
      }
      total[l] = acc;
    }
    // 3. The totals of earlier warps, and of the whole repetition.
    V warps_before[Lines], rep_total[Lines];
    if constexpr (W > 1) {
      __shared__ V totals[W][L::numel() / Size];
      if (L::lane_pos(Dim) == last_lane && L::warp_pos(Dim) < W &&
          detail::first_copy<L>(Dim)) {
#pragma unroll
        for (int l = 0; l < Lines; ++l)
          totals[warp][detail::line_slot<L, Dim>(element(l, rep, 0))] =
              total[l];
      }
      __syncthreads();
#pragma unroll
      for (int l = 0; l < Lines; ++l) {
        int slot = detail::line_slot<L, Dim>(element(l, rep, 0));
        bool has_before = false, has_total = false;
#pragma unroll
        for (int i = 0; i < W; ++i) {
          V t = totals[Reverse ? W - 1 - i : i][slot];
          if (i < vwarp)
            detail::accumulate(warps_before[l], has_before, t, op);
          detail::accumulate(rep_total[l], has_total, t, op);
        }
      }
      __syncthreads();
    } else if constexpr (Reps > 1) {
      int lane_id = threadIdx.x % L::warp_threads();
      int src = lane_id + (last_lane - lane) * Stride;
#pragma unroll
      for (int l = 0; l < Lines; ++l)
        rep_total[l] = shuffle<shfl::idx>(total[l], src);
    }
    // 4. Each element adds what comes before its run: earlier repetitions,
    // earlier warps, earlier lanes.
#pragma unroll
    for (int l = 0; l < Lines; ++l) {
      V lanes_before = shuffle<Earlier>(total[l], Stride);
      V prefix = carry[l];
      bool has = k > 0;
      if (vwarp > 0)
        detail::accumulate(prefix, has, warps_before[l], op);
      if (vlane > 0)
        detail::accumulate(prefix, has, lanes_before, op);
      if (has) {
#pragma unroll
        for (int j = 0; j < Run; ++j) {
          int e = element(l, rep, j);
          out[e] = op(prefix, out[e]);
        }
      }
      if constexpr (Reps > 1) {
        bool has_carry = k > 0;
        detail::accumulate(carry[l], has_carry, rep_total[l], op);
      }
    }
  }
  // A run longer than the tile holds copies of its first Size elements.
#pragma unroll
  for (int l = 0; l < Lines; ++l)
#pragma unroll
    for (int s = Run; s < Spt; ++s)
      out[element(l, 0, s)] = out[element(l, 0, s % Size)];
}

} // namespace tile::rt
