// Runs cumsum_rows on the GPU through its launch wrapper: with the
// configuration the wrapper picks (the first whose block holds a row) and
// with every explicitly chosen one that holds a row, on aligned and
// unaligned rows, against the reference; a configuration too small for the
// rows must be refused. The output is poisoned first, and the columns
// between rows must keep the poison. Exits 77 without a GPU.
#include "cumsum.tile.cpp"
#include "cumsum.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

namespace {

struct Case {
  int rows, cols, stride;
  std::size_t shift;
};
// Strides of whole 16-byte vectors with aligned rows select the aligned
// variant; the others the generic one.
constexpr Case cases[] = {
    {1, 1, 1, 0},        {7, 200, 208, 0},     {1001, 37, 48, 0},
    {64, 781, 800, 0},   {33, 1000, 1001, 1},  {128, 4096, 4096, 0},
    {17, 8192, 8195, 2}, {301, 2000, 2002, 2}, {0, 100, 100, 0}};

bool check(const Case &k, sample::Random &rng, cudaStream_t stream, int &runs) {
  auto x = sample::random_vector(std::size_t(k.rows) * k.stride, rng, -1, 1);
  auto want = reference::cumsum_rows(x, k.rows, k.cols, k.stride);
  sample::Tolerance tol{reference::cumsum_abs_tol_per_col * k.cols,
                        reference::cumsum_rel_tol};
  sample::DeviceArray dx(x, k.shift), dy(x.size(), k.shift);
  std::string shape = std::to_string(k.rows) + "x" + std::to_string(k.cols) +
                      " stride=" + std::to_string(k.stride) +
                      " shift=" + std::to_string(k.shift);
  bool ok = true;
  for (int config = -1; config < tilecc::cumsum_rows_num_configs; ++config) {
    auto launch = [&] {
      return tilecc::cumsum_rows(dx.get(), dy.get(), k.stride, k.rows, k.cols,
                                 stream, config);
    };
    bool fits =
        config == -1 || k.cols <= cumsum_rows_tile_configs[config].meta[1];
    std::string what = "cumsum_rows " +
                       sample::describe_config(cumsum_rows_tile_configs, config,
                                               {"ROWS", "BLOCK"}) +
                       " " + shape;
    if (!fits) {
      if (launch() != cudaErrorInvalidValue) {
        std::printf("FAIL: %s: a block smaller than the row was accepted\n",
                    what.c_str());
        ok = false;
      }
      continue;
    }
    dy.poison();
    CUDA_CHECK(launch());
    CUDA_CHECK(cudaStreamSynchronize(stream));
    auto y = dy.download();
    ok &= dy.guards_intact(what) &&
          sample::row_gaps_intact(what, y, k.rows, k.cols, k.stride);
    ok &= sample::compare(what, sample::dense_rows(y, k.rows, k.cols, k.stride),
                          want, tol);
    ++runs;
  }
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  static_assert(std::size(cumsum_rows_tile_configs) ==
                tilecc::cumsum_rows_num_configs);
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  sample::Random rng(32);
  bool ok = true;
  int runs = 0;
  for (const Case &k : cases)
    ok &= check(k, rng, stream, runs);
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s: cumsum_rows on the GPU, %d runs\n", ok ? "PASS" : "FAIL",
              runs);
  return ok ? 0 : 1;
}
