// Runs every configuration of histogram (and the wrapper's default) on the
// GPU through its launch wrapper, on sizes and pointer offsets that select
// both the 16-byte-aligned and the generic variant, with one to 65536 bins,
// and compares with the reference exactly; a configuration with fewer bins
// than asked for must refuse the launch. The bins are poisoned first, as
// every sample's outputs are, then cleared inside the launch, since the
// kernel only adds to them. Exits 77 without a GPU.
#include "histogram.tile.cpp"
#include "histogram.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  static_assert(std::size(histogram_tile_configs) ==
                tilecc::histogram_num_configs);
  // The aligned variant needs 16-byte-aligned pointers and n % 16 == 0; a
  // shift of one element or a ragged n selects the generic one.
  struct Case {
    int n, n_bins;
    std::size_t shift;
  };
  constexpr Case cases[] = {
      {0, 7, 0},          {1, 1, 0},           {1000, 7, 0},
      {5003, 256, 0},     {1 << 20, 1, 0},     {1 << 20, 256, 0},
      {1 << 20, 1024, 0}, {1 << 20, 65536, 0}, {65536, 7, 1},
      {100003, 1000, 3},  {100003, 257, 1},    {4096, 256, 2}};
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  sample::Random rng(42);
  bool ok = true;
  int runs = 0;
  for (auto [n, n_bins, shift] : cases) {
    auto x = sample::random_ints(n, rng, 1 << 20);
    auto want = reference::histogram_floats(reference::histogram(x, n_bins));
    sample::DeviceArray<int> dx(x, shift), dbins(n_bins, shift);
    std::string shape = "n=" + std::to_string(n) +
                        " n_bins=" + std::to_string(n_bins) +
                        " shift=" + std::to_string(shift);
    // Tuned too: measuring adds to the bins many times, which the tuning
    // rule resets.
    for (int config = tile::autotuned; config < tilecc::histogram_num_configs;
         ++config) {
      std::string what = "histogram " +
                         sample::describe_config(histogram_tile_configs, config,
                                                 {"BLOCK", "BINS"}) +
                         " " + shape;
      auto launch = [&] {
        // The bins must start at zero; the guard zones keep the poison.
        if (cudaError_t e =
                cudaMemsetAsync(dbins.get(), 0, n_bins * sizeof(int), stream))
          return e;
        return tilecc::histogram(dx.get(), dbins.get(), n, n_bins, stream,
                                 config);
      };
      const int bins_max =
          config < 0 ? 0 : histogram_tile_configs[config].meta[1];
      if (bins_max && n_bins > bins_max) {
        if (launch() != cudaErrorInvalidValue) {
          std::printf("FAIL: %s: more bins than BINS were accepted\n",
                      what.c_str());
          ok = false;
        }
        continue;
      }
      ok &= sample::check_launch(what, dbins, stream, launch, want,
                                 sample::Tolerance{});
      ++runs;
    }
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s: histogram on the GPU, %d runs, exact\n",
              ok ? "PASS" : "FAIL", runs);
  return ok ? 0 : 1;
}
