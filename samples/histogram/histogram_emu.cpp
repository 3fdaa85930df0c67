// Runs every configuration of histogram that applies in emulation on sizes
// that are not multiples of the block, with one, a few and many bins (up to
// and past each configuration's BINS), and compares with the reference
// exactly; the guard zones around the bins must keep their poison.
#include "histogram.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

int main() {
  constexpr auto &configs = histogram_tile_configs;
  constexpr int sizes[] = {1, 1000, 5003};
  constexpr int bin_counts[] = {1, 7, 256, 300, 1024, 1500};
  constexpr auto guard = sample::guard_elements;
  sample::Random rng(41);
  bool ok = true;
  int runs = 0;
  for (int n : sizes)
    for (int n_bins : bin_counts) {
      auto x = sample::random_ints(n, rng, 1 << 20);
      auto want = reference::histogram_floats(reference::histogram(x, n_bins));
      sample::for_each_index<std::size(configs)>([&](auto index) {
        constexpr tile::config c = configs[decltype(index)::value];
        constexpr int block = c.meta[0], bins_max = c.meta[1];
        if (bins_max && n_bins > bins_max)
          return;
        std::string what =
            "histogram " + sample::describe(c, {"BLOCK", "BINS"}) +
            " n=" + std::to_string(n) + " n_bins=" + std::to_string(n_bins);
        // The bins start at zero, as the kernel needs, between guard zones
        // of all-ones bits.
        std::vector<int> all(n_bins + 2 * guard, -1);
        int *bins = all.data() + guard;
        std::fill_n(bins, n_bins, 0);
        tile::emulate::launch(
            histogram_grid<block, bins_max>(x.data(), bins, n, n_bins),
            histogram<block, bins_max>, x.data(), bins, n, n_bins);
        ok &= sample::guard_intact(what, all.data(), guard, sizeof(int),
                                   -std::ptrdiff_t(guard)) &&
              sample::guard_intact(what, bins + n_bins, guard, sizeof(int),
                                   n_bins);
        ok &= sample::compare(what, std::vector<float>(bins, bins + n_bins),
                              want, sample::Tolerance{});
        ++runs;
      });
    }
  std::printf("%s: histogram emulation, %d runs, exact\n", ok ? "PASS" : "FAIL",
              runs);
  return ok ? 0 : 1;
}
