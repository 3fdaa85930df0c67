// Sorting and gathering (tile::sort, tile::topk, tile::gather): the tile
// passes through shared memory at its row-major positions; a sort runs a
// bitonic network there, each compare-exchange done by the thread that
// owns the lower element of its pair (so it needs no thread numbering of
// its own, and works for any layout and in a warp-specialized partition),
// with a barrier between steps.
#pragma once

#include "tile/rt/layout.cuh"
#include "tile/rt/shape.cuh"
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
/// transpose's.
template <class LS, class LD, int Dim, bool Descending, int Sync = 0, class T,
          int NS, int ND>
__device__ void sort_through_smem(const T (&in)[NS], T (&out)[ND],
                                  unsigned char *scratch) {
  T *const buf = reinterpret_cast<T *>(scratch);
  detail::spill<LS>(in, buf);
  constexpr int n = LS::shape(Dim), k = LD::shape(Dim),
                inner = detail::inner_extent<LS, Dim>();
  // Puts the element that goes first in the result at lo (at hi when not
  // lo_first); equal ones trade places when descending.
  auto exchange = [](T *lo, T *hi, bool lo_first) {
    if (detail::sorts_before(*hi, *lo) == (lo_first != Descending)) {
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
      if (Descending ? detail::sorts_before(*a, b)
                     : detail::sorts_before(b, *a))
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
