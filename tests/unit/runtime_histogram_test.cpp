// tile::rt's histogram of a loop runs on the host (ProgramOnHost.h): bins
// cleared in the layout of the counts, values counted block after block
// with masks and out-of-range values, the bins added to the counts, and the
// counts each bin's owner holds compared with a reference. The counts'
// layouts: several bins a thread with copies in other threads (the
// values' layout over fewer elements), one bin a thread with copies, and
// two bins a thread with none.

#include "ProgramOnHost.h"
#include <tile/rt/histogram.cuh>

#include <doctest/doctest.h>

#include <atomic>
#include <random>
#include <vector>

namespace rt = tile::rt;

namespace {

constexpr int Threads = 256, Lanes = 32, Block = 1024, Blocks = 5;

// The values: four a thread, eight warps.
using Values = rt::blocked<rt::dims{Block}, rt::dims{4}, rt::dims{32},
                           rt::dims{8}, rt::dims{0}>;

/// Counts Blocks blocks of values (some negative, some past the bins, the
/// last block's tail masked off) into counts of layout R, as the generated
/// code of a loop that sums tile::histogram does, and checks every bin's
/// count where its owner holds it.
template <class R> void checkLoopHistogram(unsigned Seed) {
  constexpr int Bins = R::shape(0), M = R::elems(), N = Values::elems();
  std::mt19937 Gen(Seed);
  std::vector<int> Data(Blocks * Block);
  for (int &X : Data)
    X = int(Gen() % (Bins + 40)) - 20;
  const int Valid = Blocks * Block - 77;
  std::vector<int> Want(Bins, 0);
  for (int I = 0; I < Valid; ++I)
    if (Data[I] >= 0 && Data[I] < Bins)
      ++Want[Data[I]];
  std::vector<int> Got(Bins, -1), Owners(Bins, 0);
  std::vector<int> Smem(rt::bins_with_discards<Bins>, 12345);
  std::atomic<int> Wrong{0};
  program_on_host::run(Threads, Lanes, [&] {
    int Counts[M] = {};
    rt::clear_bins<R>(Smem.data());
    __syncthreads();
    for (int B = 0; B < Blocks; ++B) {
      int In[N];
      bool Mask[N];
      for (int E = 0; E < N; ++E) {
        const int I = B * Block + Values::coord(E, 0);
        Mask[E] = I < Valid;
        In[E] = Data[I];
      }
      rt::count_into<Values, Bins>(In, Mask, Smem.data());
    }
    rt::add_bins<R>(Counts, Smem.data());
    for (int E = 0; E < M; ++E)
      if (R::owns(E)) {
        const int Bin = R::coord(E, 0);
        Got[Bin] = Counts[E];
        if (std::atomic_ref<int>(Owners[Bin]).fetch_add(1) != 0)
          ++Wrong; // two owners
      }
  });
  CHECK(Wrong == 0);
  CHECK(Got == Want);
}

} // namespace

TEST_CASE("histogram of a loop: counts four bins a thread, copies in other "
          "threads") {
  checkLoopHistogram<rt::blocked<rt::dims{64}, rt::dims{4}, rt::dims{32},
                                 rt::dims{8}, rt::dims{0}>>(1);
}

TEST_CASE("histogram of a loop: counts one bin a thread, copies in other "
          "threads") {
  checkLoopHistogram<rt::blocked<rt::dims{64}, rt::dims{1}, rt::dims{32},
                                 rt::dims{8}, rt::dims{0}>>(2);
}

TEST_CASE("histogram of a loop: counts two bins a thread, no copies") {
  checkLoopHistogram<rt::blocked<rt::dims{512}, rt::dims{1}, rt::dims{32},
                                 rt::dims{8}, rt::dims{0}>>(3);
}
