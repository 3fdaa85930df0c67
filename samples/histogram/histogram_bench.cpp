// Times every configuration of histogram that applies on 2^26 int32 values
// uniform in [0, 2^20) (256 MiB) into 256 bins (counted in shared memory,
// or with global atomics all contending for the same few words) and into
// 65536 bins (global atomics), and prints JSON lines for
// scripts/bench.sh. Bytes: the values read once (the bins are negligible).
// Exits 77 without a GPU.
//
// The kernel only adds to its bins, and bench_configs poisons the output
// before its check, so each timed launch clears the bins first
// (cudaMemsetAsync, 1 KiB or 256 KiB): the time includes that memset, as
// torch.histc and torch.bincount include allocating zeroed bins.
#include "histogram.tile.cpp"
#include "histogram.tile.h"

#include "bench.hpp"
#include "reference.hpp"

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  const int n = 1 << 26;
  sample::Random rng(43);
  auto x = sample::random_ints(n, rng, 1 << 20);
  sample::DeviceArray dx(x, 0);
  bool ok = true;
  for (int n_bins : {256, 65536}) {
    sample::DeviceArray<int> dbins(n_bins, 0);
    // Only the configurations with enough bins can run.
    std::vector<tile::config> fitting;
    std::vector<int> index;
    for (int c = 0; c < tilecc::histogram_num_configs; ++c)
      if (const int bins = histogram_tile_configs[c].meta[1];
          bins == 0 || n_bins <= bins) {
        fitting.push_back(histogram_tile_configs[c]);
        index.push_back(c);
      }
    sample::Workload workload{"histogram",
                              {n, n_bins},
                              1.0 * n * sizeof(int),
                              sample::Tolerance{},
                              "int32"};
    ok &= sample::bench_configs(
        workload, fitting, {"BLOCK", "BINS"}, dbins,
        reference::histogram_floats(reference::histogram(x, n_bins)),
        [&](int c) {
          if (cudaError_t e =
                  cudaMemsetAsync(dbins.get(), 0, n_bins * sizeof(int)))
            return e;
          return tilecc::histogram(dx.get(), dbins.get(), n, n_bins, nullptr,
                                   index[c]);
        });
  }
  return ok ? 0 : 1;
}
