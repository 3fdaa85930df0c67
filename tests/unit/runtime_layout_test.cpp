// Unit tests for the runtime's layout arithmetic (tile/rt/layout.cuh), run
// on the host: each simulated thread's elements, by the same functions the
// generated kernels call.

#include "RuntimeOnHost.h"
#include <tile/rt/layout.cuh>

#include <doctest/doctest.h>

#include <string>
#include <type_traits>

namespace rt = tile::rt;

namespace {

template <class L> constexpr int elementsOf() {
  if constexpr (L::slice_dim >= 0)
    return L::elems();
  else
    return L::elems(-1);
}

/// Checks broadcast_index<Src, Dst> in every thread of Threads: element e of
/// Dst copies an element of Src at Dst's coordinates, except along Src's
/// size-1 dimensions (broadcast) and the one it lacks (expand_dims).
template <class Src, class Dst> void checkBroadcast(int Threads) {
  constexpr bool Expands = Src::rank < Dst::rank;
  for (int T = 0; T < Threads; ++T) {
    threadIdx.x = T;
    for (int E = 0; E < elementsOf<Dst>(); ++E) {
      const int S = rt::broadcast_index<Src, Dst>(E);
      REQUIRE(S >= 0);
      REQUIRE(S < elementsOf<Src>());
      for (int D = 0, SD = 0; D < Dst::rank; ++D) {
        if (Expands && D == Src::slice_dim)
          continue;
        if (Src::shape(SD) != 1) {
          INFO("thread " << T << " element " << E << " dimension " << D);
          CHECK(Src::coord(S, SD) == Dst::coord(E, D));
        }
        ++SD;
      }
    }
  }
}

template <int D0, int D1, int D2>
using Blocked3 =
    rt::blocked<rt::dims{D0, D1, D2}, rt::dims{1, 1, 1}, rt::dims{2, 16, 1},
                rt::dims{4, 1, 1}, rt::dims{2, 1, 0}>;
template <int D0, int D1>
using Blocked2 = rt::blocked<rt::dims{D0, D1}, rt::dims{1, 2}, rt::dims{4, 8},
                             rt::dims{4, 1}, rt::dims{1, 0}>;

} // namespace

TEST_CASE("broadcast_index: expand_dims of a slice") {
  // [16] -> [16, 1] and [16] -> [1, 16] of a 2-D parent.
  checkBroadcast<rt::sliced<1, Blocked2<16, 1>>, Blocked2<16, 1>>(128);
  checkBroadcast<rt::sliced<0, Blocked2<1, 16>>, Blocked2<1, 16>>(128);
  // [16, 16] -> [16, 16, 1] and [1, 16, 16] of a 3-D parent.
  checkBroadcast<rt::sliced<2, Blocked3<16, 16, 1>>, Blocked3<16, 16, 1>>(128);
  checkBroadcast<rt::sliced<0, Blocked3<1, 16, 16>>, Blocked3<1, 16, 16>>(128);
}

TEST_CASE("broadcast_index: broadcast in one layout") {
  checkBroadcast<Blocked2<16, 1>, Blocked2<16, 16>>(128);
  checkBroadcast<Blocked2<1, 16>, Blocked2<16, 16>>(128);
  checkBroadcast<Blocked3<16, 16, 1>, Blocked3<16, 16, 16>>(128);
  checkBroadcast<Blocked3<1, 16, 16>, Blocked3<16, 16, 16>>(128);
}

TEST_CASE("broadcast_index: broadcast between slices of one parent") {
  // The 2-D tiles of a product summed along dimension 1 of a 3-D layout
  // (test_dot_mulbroadcasted): [16, 1] and [1, 16] broadcast to [16, 16],
  // all three slices of the parent along dimension 1.
  checkBroadcast<rt::sliced<1, Blocked3<16, 1, 1>>,
                 rt::sliced<1, Blocked3<16, 1, 16>>>(128);
  checkBroadcast<rt::sliced<1, Blocked3<1, 1, 16>>,
                 rt::sliced<1, Blocked3<16, 1, 16>>>(128);
  checkBroadcast<rt::sliced<0, Blocked3<1, 1, 16>>,
                 rt::sliced<0, Blocked3<1, 16, 16>>>(128);
}

TEST_CASE("transposed_t: every register holds the transposed element") {
  // A wgmma accumulator of two warpgroups that also split N (warps
  // numbered M first), and its transpose: C^T = B^T A^T's registers.
  using Acc = rt::blocked<rt::dims{128, 64}, rt::dims{1, 2}, rt::dims{8, 4},
                          rt::dims{4, 2}, rt::dims{1, 0}, rt::dims{2, 4},
                          rt::dims{0, 1}>;
  using T = rt::transposed_t<Acc>;
  static_assert(std::is_same_v<rt::transposed_t<T>, Acc>);
  static_assert(T::shape(0) == 64 && T::shape(1) == 128);
  static_assert(T::elems() == Acc::elems());
  for (int Thread = 0; Thread < 256; ++Thread) {
    threadIdx.x = Thread;
    for (int E = 0; E < Acc::elems(); ++E) {
      INFO("thread " << Thread << " element " << E);
      CHECK(T::coord(E, 0) == Acc::coord(E, 1));
      CHECK(T::coord(E, 1) == Acc::coord(E, 0));
    }
  }
}
