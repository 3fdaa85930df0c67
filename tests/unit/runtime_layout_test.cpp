// Unit tests for the runtime's layout arithmetic (tile/rt/layout.cuh), run
// on the host: each simulated thread's elements, by the same functions the
// generated kernels call.

#include "RuntimeOnHost.h"
#include <tile/rt/layout.cuh>

#include <doctest/doctest.h>

#include <string>

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
