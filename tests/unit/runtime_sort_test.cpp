// tile::rt's sorts run on the host (ProgramOnHost.h): sort_in_warp against
// sort_through_smem (the same bitonic network, so the same element in every
// register of every thread, ties and NaN included), and both against
// std::sort, on layouts that hold a line's elements in one thread's
// registers, across lanes, in repetitions of a warp's run, and across lanes
// strided by another dimension whose warps hold copies.

#include "ProgramOnHost.h"
#include <tile/rt/sort.cuh>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace rt = tile::rt;

namespace {

constexpr int Threads = 128, Lanes = 32;

template <class T> std::vector<T> randomData(int N, unsigned Seed) {
  std::mt19937 Gen(Seed);
  std::vector<T> Data(N);
  for (T &X : Data) {
    // Few distinct values, so that lines hold ties; floats also NaN.
    const int Pick = int(Gen() % 41) - 20;
    X = T(Pick);
    if constexpr (std::is_floating_point_v<T>)
      if (Pick == 20)
        X = std::numeric_limits<T>::quiet_NaN();
  }
  return Data;
}

template <class T> bool sameValue(T A, T B) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(A) || std::isnan(B))
      return std::isnan(A) && std::isnan(B);
  return A == B;
}

/// Sorts (LD == LS) or takes the top k (LD's extent along Dim) of every
/// line of a tile of layout LS both ways and checks each thread's elements.
template <class LS, class LD, int Dim, bool Descending, class T>
void checkSort(unsigned Seed) {
  constexpr int NS = LS::elems(), ND = LD::elems(), Rank = LS::rank;
  static_assert(LS::numel() / LS::shape(Dim) * LS::shape(Dim) == LS::numel());
  const std::vector<T> Data = randomData<T>(LS::numel(), Seed);
  std::vector<T> InWarp(Threads * ND), ThroughSmem(Threads * ND);
  std::vector<int> Coords(Threads * ND * Rank);
  std::vector<unsigned char> Scratch(LS::numel() * sizeof(T));
  program_on_host::run(Threads, Lanes, [&] {
    T In[NS], A[ND], B[ND];
    for (int E = 0; E < NS; ++E)
      In[E] = Data[rt::linear_index<LS>(E)];
    rt::sort_in_warp<LS, LD, Dim, Descending>(In, A);
    rt::sort_through_smem<LS, LD, Dim, Descending>(In, B, Scratch.data());
    for (int E = 0; E < ND; ++E) {
      const int At = threadIdx.x * ND + E;
      InWarp[At] = A[E];
      ThroughSmem[At] = B[E];
      for (int D = 0; D < Rank; ++D)
        Coords[At * Rank + D] = LD::coord(E, D);
    }
  });
  CHECK(std::memcmp(InWarp.data(), ThroughSmem.data(),
                    InWarp.size() * sizeof(T)) == 0);
  // The reference: each line sorted by std::sort, NaN last (first when
  // descending).
  int Stride = 1;
  for (int D = Dim + 1; D < Rank; ++D)
    Stride *= LS::shape(D);
  auto Before = [](T A, T B) { return rt::detail::sorts_before(A, B); };
  for (int At = 0; At < Threads * ND; ++At) {
    int Base = 0;
    for (int D = 0; D < Rank; ++D)
      Base = Base * LS::shape(D) + (D == Dim ? 0 : Coords[At * Rank + D]);
    std::vector<T> Line(LS::shape(Dim));
    for (int I = 0; I < LS::shape(Dim); ++I)
      Line[I] = Data[Base + I * Stride];
    std::sort(Line.begin(), Line.end(), Before);
    if (Descending)
      std::reverse(Line.begin(), Line.end());
    const T Want = Line[Coords[At * Rank + Dim]];
    if (!sameValue(InWarp[At], Want)) {
      FAIL_CHECK("thread " << At / ND << " element " << At % ND << ": "
                           << InWarp[At] << ", want " << Want);
      return;
    }
  }
}

// Gating logits of 128 experts, 16 tokens, 4 warps (the moe_routing
// sample's layout): a line is 8 registers in each of 16 lanes.
template <int Rows, int Cols>
using Routing = rt::blocked<rt::dims{Rows, Cols}, rt::dims{1, 8},
                            rt::dims{2, 16}, rt::dims{4, 1}, rt::dims{1, 0}>;
// A line in one thread's registers.
template <int Rows, int Cols>
using InThread = rt::blocked<rt::dims{Rows, Cols}, rt::dims{1, 8},
                             rt::dims{32, 1}, rt::dims{4, 1}, rt::dims{1, 0}>;
// A line that a warp's 128-element run covers twice.
template <int Rows, int Cols>
using Repeated = rt::blocked<rt::dims{Rows, Cols}, rt::dims{1, 4},
                             rt::dims{1, 32}, rt::dims{4, 1}, rt::dims{1, 0}>;
// Columns sorted: lanes along them 4 apart, repeated 4 times; the warps
// split the 8 columns 4 ways, two of them holding copies.
template <int Rows, int Cols>
using Columns = rt::blocked<rt::dims{Rows, Cols}, rt::dims{2, 1},
                            rt::dims{8, 4}, rt::dims{1, 4}, rt::dims{1, 0}>;

} // namespace

TEST_CASE("sort_in_warp: lines across 16 lanes (routing's top k)") {
  checkSort<Routing<16, 128>, Routing<16, 128>, 1, false, int>(1);
  checkSort<Routing<16, 128>, Routing<16, 128>, 1, true, float>(2);
  checkSort<Routing<16, 128>, Routing<16, 4>, 1, true, int>(3);
  checkSort<Routing<16, 128>, Routing<16, 8>, 1, true, float>(4);
  checkSort<Routing<16, 128>, Routing<16, 1>, 1, false, int>(5);
  checkSort<Routing<16, 128>, Routing<16, 32>, 1, false, float>(6);
}

TEST_CASE("sort_in_warp: lines in one thread's registers") {
  checkSort<InThread<128, 8>, InThread<128, 8>, 1, true, float>(7);
  checkSort<InThread<128, 8>, InThread<128, 4>, 1, true, int>(8);
}

TEST_CASE("sort_in_warp: lines longer than a warp's run") {
  checkSort<Repeated<4, 256>, Repeated<4, 256>, 1, false, float>(9);
  checkSort<Repeated<4, 256>, Repeated<4, 8>, 1, true, int>(10);
  checkSort<Repeated<4, 256>, Repeated<4, 128>, 1, false, int>(11);
}

TEST_CASE("sort_in_warp: columns, lanes strided, warps holding copies") {
  checkSort<Columns<64, 8>, Columns<64, 8>, 0, true, float>(12);
  checkSort<Columns<64, 8>, Columns<4, 8>, 0, false, int>(13);
  checkSort<Columns<64, 8>, Columns<32, 8>, 0, true, float>(14);
}
