// Times softmax on the shapes of issue 3 (fp32 32768 x 4096 and 16384 x
// 8192) with the configuration the wrapper picks, and prints JSON lines for
// scripts/bench.sh. Exits 77 without a GPU.
#include "softmax.tile.cpp"
#include "softmax.tile.h"

#include "bench.hpp"
#include "reference.hpp"

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  struct Shape {
    int rows, cols;
  };
  bool ok = true;
  sample::Random rng(13);
  for (auto [rows, cols] : {Shape{32768, 4096}, Shape{16384, 8192}}) {
    std::size_t n = std::size_t(rows) * cols;
    auto x = sample::random_vector(n, rng, -8, 8);
    sample::DeviceArray dx(x, 0), dy(n, 0);
    // Only the configurations whose block holds a row can run.
    std::vector<tile::config> fitting;
    std::vector<int> index;
    for (int c = 0; c < tilecc::softmax_num_configs; ++c)
      if (cols <= softmax_tile_configs[c].meta[0]) {
        fitting.push_back(softmax_tile_configs[c]);
        index.push_back(c);
      }
    sample::Workload workload{
        "softmax", {rows, cols}, 2.0 * n * sizeof(float), {}};
    workload.tol = {0, reference::softmax_rel_tol};
    ok &= sample::bench_configs(
        workload, fitting, {"BLOCK"}, dy,
        reference::softmax(x, rows, cols, cols), [&](int c) {
          return tilecc::softmax(dx.get(), dy.get(), cols, cols, rows, cols,
                                 nullptr, index[c]);
        });
  }
  return ok ? 0 : 1;
}
