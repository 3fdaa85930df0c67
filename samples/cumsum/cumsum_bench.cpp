// Times cumsum_rows on fp32 rows of softmax's benchmark shapes (32768 x
// 4096 and 16384 x 8192: 2^27 floats, 512 MiB per array, 1 GiB for x and y)
// with every configuration that holds a row, and prints JSON lines for
// scripts/bench.sh. Bytes: x read and y written once. Exits 77 without a
// GPU.
#include "cumsum.tile.cpp"
#include "cumsum.tile.h"

#include "bench.hpp"
#include "reference.hpp"

namespace {

bool bench(int rows, int cols, sample::Random &rng) {
  std::size_t n = std::size_t(rows) * cols;
  auto x = sample::random_vector(n, rng, -1, 1);
  sample::DeviceArray dx(x, 0), dy(n, 0);
  // Only the configurations whose block holds a row can run.
  std::vector<tile::config> fitting;
  std::vector<int> index;
  for (int c = 0; c < tilecc::cumsum_rows_num_configs; ++c)
    if (cols <= cumsum_rows_tile_configs[c].meta[1]) {
      fitting.push_back(cumsum_rows_tile_configs[c]);
      index.push_back(c);
    }
  sample::Workload workload{
      "cumsum",
      {rows, cols},
      2.0 * n * sizeof(float),
      {reference::cumsum_abs_tol_per_col * cols, reference::cumsum_rel_tol},
      "fp32"};
  return sample::bench_configs(
      workload, fitting, {"ROWS", "BLOCK"}, dy,
      reference::cumsum_rows(x, rows, cols, cols), [&](int c) {
        return tilecc::cumsum_rows(dx.get(), dy.get(), cols, rows, cols,
                                   nullptr, index[c]);
      });
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(33);
  bool ok = bench(32768, 4096, rng);
  ok &= bench(16384, 8192, rng);
  return ok ? 0 : 1;
}
