// Histograms (tile::histogram): the program's threads add one to a bin in
// shared memory for each value they hold, then each reads the counts it
// holds of the result. Shared-memory atomics make the bins private to the
// program: only the result, if the kernel adds it to global memory, meets
// other programs. A loop that sums a histogram of each iteration counts
// into bins that live through the loop instead (clear_bins before it,
// count_into in it, add_bins after it), so that its iterations wait at no
// barrier.
#pragma once

#include "tile/rt/layout.cuh"
#include "tile/rt/sync.cuh"

#include <type_traits>

namespace tile::rt {

/// Zeroes the bins of a histogram of layout R. R holds every bin (some in
/// more than one thread): its threads clear, and later read, them all.
template <class R, int M = R::elems()> __device__ void clear_bins(int *bins) {
#pragma unroll
  for (int r = 0; r < M; ++r)
    bins[R::coord(r, 0)] = 0;
}

/// The ints of shared memory a histogram of Bins bins takes: the bins, then
/// one slot per lane that takes what is not counted.
template <int Bins> inline constexpr int bins_with_discards = Bins + 32;

/// Adds one to bins[v] for each value v of `in` (a tile of layout L) in
/// 0 ... Bins - 1 whose element of `mask` (none: every one) is true; other
/// values are not counted. bins holds bins_with_discards<Bins> ints.
template <class L, int Bins, class V, int N, class Mask>
__device__ void count_into(const V (&in)[N], const Mask &mask, int *bins) {
  static_assert(L::rank == 1, "a 1-D tile");
  // What is not counted goes to the lane's own slot past the bins rather
  // than around the atomic: a branch per element costs more than the add,
  // and a slot per lane keeps the discards from contending.
  const unsigned discard = Bins + threadIdx.x % 32;
#pragma unroll
  for (int e = 0; e < N; ++e) {
    // A negative value converts to a large unsigned one (a narrow one
    // after its sign is extended): one comparison tests both ends.
    using U = std::conditional_t<sizeof(V) == 8, unsigned long long, unsigned>;
    const U v = static_cast<U>(in[e]);
    bool counted = L::owns(e) && v < U(Bins);
    if constexpr (!__is_same(Mask, decltype(nullptr)))
      counted = counted && mask[e];
    atomicAdd(&bins[counted ? unsigned(v) : discard], 1);
  }
}

/// Counts the values of `in` (a tile of layout L) equal to 0 ... Bins - 1,
/// where Bins is R's length, and where `mask` holds (count_into), into
/// `out` (its elements of layout R). `bins` is bins_with_discards<Bins>
/// ints of shared memory that no other thread uses until this returns.
template <class L, class R, int Sync = 0, class V, int N, class Mask, int M>
__device__ void histogram(const V (&in)[N], const Mask &mask, int (&out)[M],
                          int *bins) {
  static_assert(R::rank == 1, "a 1-D tile");
  clear_bins<R>(bins);
  sync_threads<Sync>();
  count_into<L, R::shape(0)>(in, mask, bins);
  sync_threads<Sync>();
#pragma unroll
  for (int r = 0; r < M; ++r)
    out[r] = bins[R::coord(r, 0)];
  sync_threads<Sync>();
}

/// Adds the counts in `bins`, once every thread has counted, to `acc` (its
/// elements of layout R), after which the bins may be cleared again.
template <class R, int Sync = 0, int M>
__device__ void add_bins(int (&acc)[M], const int *bins) {
  sync_threads<Sync>();
#pragma unroll
  for (int r = 0; r < M; ++r)
    acc[r] += bins[R::coord(r, 0)];
  sync_threads<Sync>();
}

} // namespace tile::rt
