// Sorting and gathering (tile::sort, tile::topk, tile::gather). A sort runs
// a bitonic network over each line. Where a line's elements all lie in one
// warp (sort_in_warp) it runs in registers: a compare-exchange with a
// partner in the same thread reads its register, one in another lane a
// shuffle. Otherwise the tile passes through shared memory at its
// row-major positions (sort_through_smem): each compare-exchange is done
// by the thread that owns the lower element of its pair (so it needs no
// thread numbering of its own, and works for any layout and in a
// warp-specialized partition), with a barrier between steps. A gather
// always goes through shared memory.
#pragma once

#include "tile/rt/layout.cuh"
#include "tile/rt/shape.cuh"
#include "tile/rt/shuffle.cuh"
#include "tile/rt/sync.cuh"
#include "tile/rt/types.cuh"

#include <type_traits>

namespace tile::rt {

namespace detail {

/// NaN after every number, as tile::sort orders floats.
template <class T> __device__ __forceinline__ bool sorts_before(T a, T b) {
  if constexpr (is_narrow_float<T>::value || std::is_floating_point_v<T>) {
    using W = std::conditional_t<sizeof(T) == 8, double, float>;
    const W x = convert<W>(a), y = convert<W>(b);
    return (x == x && y != y) || x < y;
  } else {
    return a < b;
  }
}

/// Whether a compare-exchange of lo and hi swaps them: it puts the one
/// that goes first in the result at lo (at hi when not lo_first); equal
/// ones trade places when descending.
template <bool Descending, class T>
__device__ __forceinline__ bool swaps(T lo, T hi, bool lo_first) {
  return sorts_before(hi, lo) == (lo_first != Descending);
}

/// Whether b goes before a in the result's order (a topk's merge keeps it).
template <bool Descending, class T>
__device__ __forceinline__ bool goes_before(T b, T a) {
  return Descending ? sorts_before(a, b) : sorts_before(b, a);
}

/// Elements past dimension Dim of a tile of layout L: the stride of Dim.
template <class L, int Dim> TILE_RT_HD constexpr int inner_extent() {
  int n = 1;
  for (int d = Dim + 1; d < L::rank; ++d)
    n *= L::shape(d);
  return n;
}

/// Row-major position in a tile of layout LS's shape of this thread's
/// element e of a tile of layout LD (whose extents are at most LS's), its
/// coordinate along Dim replaced by at (-1: kept).
template <class LS, class LD, int Dim = -1>
__device__ int position_in(int e, int at = -1) {
  int idx = 0;
  for (int d = 0; d < LD::rank; ++d)
    idx = idx * LS::shape(d) + (d == Dim ? at : LD::coord(e, d));
  return idx;
}

} // namespace detail

/// sort and topk: each line of `in` (layout LS) along Dim in ascending
/// order, or descending; out (layout LD) takes the first k = LD::shape(Dim)
/// of each. A sort runs the whole bitonic network (log n (log n + 1) / 2
/// steps); a topk (k < n) sorts runs of k, then merges runs in pairs keeping
/// the better k, the other half of each pair idle from then on (Triton's
/// topk): 18 steps instead of 28 for the top 4 of 128. Sync: as
/// transpose's. sort_in_warp runs the same network, step for step.
template <class LS, class LD, int Dim, bool Descending, int Sync = 0, class T,
          int NS, int ND>
__device__ void sort_through_smem(const T (&in)[NS], T (&out)[ND],
                                  unsigned char *scratch) {
  T *const buf = reinterpret_cast<T *>(scratch);
  detail::spill<LS>(in, buf);
  constexpr int n = LS::shape(Dim), k = LD::shape(Dim),
                inner = detail::inner_extent<LS, Dim>();
  auto exchange = [](T *lo, T *hi, bool lo_first) {
    if (detail::swaps<Descending>(*lo, *hi, lo_first)) {
      const T t = *lo;
      *lo = *hi;
      *hi = t;
    }
  };
  // Runs of k (all of a line for a sort): bitonic merges of runs twice as
  // long each time, in alternating directions but for the last, whose runs
  // all come out in the result's order.
  for (int s = 2; s <= k; s *= 2)
    for (int j = s / 2; j > 0; j /= 2) {
      sync_threads<Sync>();
#pragma unroll
      for (int e = 0; e < NS; ++e) {
        const int pos = LS::coord(e, Dim);
        if (!LS::owns(e) || (pos & j))
          continue;
        T *const lo = buf + linear_index<LS>(e);
        exchange(lo, lo + j * inner, s == k || (pos & s) == 0);
      }
    }
  // Runs A (at multiples of 2m) and B (m after): A[i] becomes the better of
  // A[i] and B[k - 1 - i], the best k of both as a bitonic sequence, which
  // half-cleaners put in order.
  for (int m = k; m < n; m *= 2) {
    sync_threads<Sync>();
#pragma unroll
    for (int e = 0; e < NS; ++e) {
      const int i = LS::coord(e, Dim) % (2 * m);
      if (!LS::owns(e) || i >= k)
        continue;
      T *const a = buf + linear_index<LS>(e);
      const T b = a[(m + k - 1 - 2 * i) * inner];
      if (detail::goes_before<Descending>(b, *a))
        *a = b;
    }
    for (int j = k / 2; j > 0; j /= 2) {
      sync_threads<Sync>();
#pragma unroll
      for (int e = 0; e < NS; ++e) {
        const int pos = LS::coord(e, Dim);
        if (!LS::owns(e) || pos % (2 * m) >= k || (pos & j))
          continue;
        T *const lo = buf + linear_index<LS>(e);
        exchange(lo, lo + j * inner, true);
      }
    }
  }
  sync_threads<Sync>();
#pragma unroll
  for (int e = 0; e < ND; ++e)
    out[e] = buf[detail::position_in<LS, LD>(e)];
  sync_threads<Sync>();
}

namespace detail {

/// v moved between lanes bit for bit: a shuffle of any element type (8-bit
/// floats and bool too).
template <shfl K, class T>
__device__ __forceinline__ T shuffle_bits(T v, int delta) {
  using U = std::conditional_t<(sizeof(T) > 4), unsigned long long, unsigned>;
  static_assert(sizeof(T) <= sizeof(U), "an element fits one shuffle");
  U u = 0;
  __builtin_memcpy(&u, &v, sizeof(T));
  u = shuffle<K>(u, delta);
  __builtin_memcpy(&v, &u, sizeof(T));
  return v;
}

/// The lines along Dim of a blocked layout L when one warp holds each:
/// position p = (r * lanes + lane) * regs + s for a thread's digits s and
/// r along Dim and its lane's index along Dim, so that the element at
/// p ^ mask is the one with digits s ^ (mask's low bits) and r ^ (its high
/// bits) in the lane whose index differs by mask's middle bits.
template <class L, int Dim> struct warp_line {
  static constexpr int regs = L::size_per_thread(Dim),
                       lanes = L::threads_per_warp(Dim), run = regs * lanes;
  TILE_RT_HD static constexpr bool fits() {
    if constexpr (L::slice_dim >= 0)
      return false;
    else
      return L::warps_per_cta(Dim) == 1 && L::shape(Dim) % L::tile(Dim) == 0;
  }
  /// Lanes (an xor) from the element at p to the one at p ^ mask.
  TILE_RT_HD static constexpr int lane_xor(int mask) {
    return mask / regs % lanes * L::lane_stride(Dim);
  }
  /// Which element of its lane is at p ^ Mask for element e at p.
  template <int Mask> struct partner {
    TILE_RT_HD static constexpr int value(int e) {
      digits g = L::decompose(e);
      g.s[Dim] ^= Mask % regs;
      g.r[Dim] ^= Mask / run;
      return L::compose(g);
    }
  };
  /// Element e's position less its lane's part: (r * lanes) * regs + s.
  struct offset {
    TILE_RT_HD static constexpr int value(int e) {
      return L::element_offset(L::decompose(e), Dim);
    }
  };
};

/// Whether layouts A and B differ at most in their extent along Dim.
template <class A, class B, int Dim>
TILE_RT_HD constexpr bool same_but_extent() {
  if constexpr (A::rank != B::rank || A::slice_dim >= 0 || B::slice_dim >= 0) {
    return false;
  } else {
    for (int d = 0; d < A::rank; ++d)
      if ((d != Dim && A::shape(d) != B::shape(d)) ||
          A::size_per_thread(d) != B::size_per_thread(d) ||
          A::threads_per_warp(d) != B::threads_per_warp(d) ||
          A::warps_per_cta(d) != B::warps_per_cta(d) ||
          A::warp_reps(d) != B::warp_reps(d) || A::order(d) != B::order(d) ||
          A::warp_order(d) != B::warp_order(d))
        return false;
    return true;
  }
}

/// One step of a bitonic network over lines held as warp_line says: each
/// element whose position may lack every bit of Idle (the others are out
/// of the running) becomes combine(position, itself, the element at
/// position ^ Mask), read from a register or shuffled from another lane.
template <class L, int Dim, int Mask, int Idle, class T, int N, class F>
__device__ __forceinline__ void step_in_warp(T (&v)[N], F combine) {
  using W = warp_line<L, Dim>;
  T old[N];
#pragma unroll
  for (int e = 0; e < N; ++e)
    old[e] = v[e];
#pragma unroll
  for (int e = 0; e < N; ++e) {
    if (tabulated<typename W::offset, N>(e) & Idle)
      continue;
    T theirs = old[tabulated<typename W::template partner<Mask>, N>(e)];
    if constexpr (W::lane_xor(Mask) != 0)
      theirs = shuffle_bits<shfl::bfly>(theirs, W::lane_xor(Mask));
    v[e] = combine(L::coord(e, Dim), old[e], theirs);
  }
}

/// Bitonic merges at distances J, J / 2, ..., 1 of runs of S, then of runs
/// twice as long up to runs of K, alternating in direction but for runs of
/// K, which come out in the result's order.
template <class L, int Dim, bool Descending, int K, int Idle, int S, int J,
          class T, int N>
__device__ __forceinline__ void bitonic_in_warp(T (&v)[N]) {
  step_in_warp<L, Dim, J, Idle>(v, [](int pos, T mine, T theirs) {
    const bool lower = (pos & J) == 0;
    const T lo = lower ? mine : theirs, hi = lower ? theirs : mine;
    const bool swap = swaps<Descending>(lo, hi, S == K || (pos & S) == 0);
    return lower == swap ? hi : lo;
  });
  if constexpr (J > 1)
    bitonic_in_warp<L, Dim, Descending, K, Idle, S, J / 2>(v);
  else if constexpr (S < K)
    bitonic_in_warp<L, Dim, Descending, K, Idle, 2 * S, S>(v);
}

/// A topk's merges (sort_through_smem's second loop): runs A at multiples
/// of 2 M keep the better K of A and the run M after, then are put in
/// order; positions past the first K of each 2 M are idle from then on.
template <class L, int Dim, bool Descending, int K, int M, class T, int N>
__device__ __forceinline__ void merge_in_warp(T (&v)[N]) {
  constexpr int Idle = (2 * M - 1) & ~(K - 1);
  step_in_warp<L, Dim, M | (K - 1), Idle>(v, [](int, T mine, T theirs) {
    return goes_before<Descending>(theirs, mine) ? theirs : mine;
  });
  if constexpr (K > 1)
    bitonic_in_warp<L, Dim, Descending, K, Idle, K, K / 2>(v);
  if constexpr (2 * M < L::shape(Dim))
    merge_in_warp<L, Dim, Descending, K, 2 * M>(v);
}

/// Which element of LS (its lines sorted) holds element e of LD, the first
/// LD::shape(Dim) of each line in LS's parameters: the same position along
/// Dim, in the lane whose index along Dim keeps only the bits of the
/// thread's that kept_lanes has.
template <class LS, class LD, int Dim> struct line_head {
  using W = warp_line<LS, Dim>;
  static constexpr int k = LD::shape(Dim);
  static constexpr int kept_lanes = (k - 1) / W::regs % W::lanes;
  TILE_RT_HD static constexpr int value(int e) {
    digits g = LD::decompose(e);
    const int c = LD::element_offset(g, Dim) & (k - 1);
    g.s[Dim] = c % W::regs;
    g.r[Dim] = c / W::run;
    return LS::compose(g);
  }
};

} // namespace detail

/// sort and topk as sort_through_smem, where each line of `in` along Dim
/// lies in one warp (LS: one warp along Dim, no copies along it) and out's
/// layout LD differs from LS only in its extent along Dim: in registers,
/// a partner in another lane read by a shuffle, with no shared memory and
/// no barrier. out's elements are read from the lanes holding the line's
/// first k.
template <class LS, class LD, int Dim, bool Descending, class T, int NS, int ND>
__device__ void sort_in_warp(const T (&in)[NS], T (&out)[ND]) {
  static_assert(detail::warp_line<LS, Dim>::fits() &&
                    detail::same_but_extent<LS, LD, Dim>(),
                "sort_in_warp: a line along Dim in one warp, out's layout "
                "LS's but for its extent");
  constexpr int n = LS::shape(Dim), k = LD::shape(Dim);
  T v[NS];
#pragma unroll
  for (int e = 0; e < NS; ++e)
    v[e] = in[e];
  if constexpr (k > 1)
    detail::bitonic_in_warp<LS, Dim, Descending, k, 0, 2, 1>(v);
  if constexpr (k < n)
    detail::merge_in_warp<LS, Dim, Descending, k, k>(v);
  using H = detail::line_head<LS, LD, Dim>;
  using W = typename H::W;
  // The line's first k lie in the lanes whose index along Dim has no bits
  // above kept_lanes.
  const int from = static_cast<int>(threadIdx.x % LS::warp_threads()) -
                   (LS::lane_pos(Dim) & ~H::kept_lanes) * LS::lane_stride(Dim);
#pragma unroll
  for (int e = 0; e < ND; ++e) {
    const T head = v[tabulated<H, ND>(e)];
    if constexpr (H::kept_lanes == W::lanes - 1)
      out[e] = head;
    else
      out[e] = detail::shuffle_bits<shfl::idx>(head, from);
  }
}

/// gather: out's element e (layout LD, index's too) is src's (layout LS)
/// at e's position with its coordinate along Axis replaced by index[e],
/// taken modulo the extent (a power of two): in range unless the kernel
/// was built without TILE_DEBUG, which checks it first.
template <class LS, class LD, int Axis, int Sync = 0, class T, class I, int NS,
          int ND>
__device__ void gather_through_smem(const T (&src)[NS], const I (&index)[ND],
                                    T (&out)[ND], unsigned char *scratch) {
  T *const buf = reinterpret_cast<T *>(scratch);
  detail::spill<LS>(src, buf);
  sync_threads<Sync>();
#pragma unroll
  for (int e = 0; e < ND; ++e)
    out[e] = buf[detail::position_in<LS, LD, Axis>(
        e, static_cast<int>(index[e]) & (LS::shape(Axis) - 1))];
  sync_threads<Sync>();
}

} // namespace tile::rt
