// Runs softmax (fp32), softmax_f16, softmax_persistent and
// softmax_persistent_dynamic on the GPU through their launch wrappers: with the
// configuration the wrapper picks (the smallest block holding a row) and with
// every explicitly chosen one that holds a row; a configuration too small for
// the rows must be refused. Exits 77 without a GPU.
#include "configs.hpp"
#include "softmax.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>
#include <type_traits>

namespace tilecc_gen::softmax_persistent {
int programs_per_sm_5(); // the generated occupancy query of configuration 5
}

namespace {

template <class T, Schedule S = Schedule::one_row>
bool check(const char *name, cudaStream_t stream, sample::Tolerance tol) {
  struct Case {
    int rows, cols, stride;
    std::size_t shift;
  };
  // Strides of whole 16-byte vectors with aligned rows select the aligned
  // variant; the others the generic one.
  constexpr Case cases[] = {{1, 1, 1, 0},         {7, 200, 208, 0},
                            {64, 781, 800, 0},    {33, 1000, 1001, 1},
                            {128, 4096, 4096, 0}, {17, 8192, 8195, 2},
                            {0, 100, 100, 0}};
  sample::Random rng(12);
  bool ok = true;
  int runs = 0;
  for (auto [rows, cols, stride, shift] : cases) {
    auto xf = sample::random_vector(std::size_t(rows) * stride, rng, -8, 8);
    std::vector<T> x(xf.begin(), xf.end());
    std::vector<float> xr(x.begin(), x.end());
    auto want = reference::softmax(xr, rows, cols, stride);
    sample::DeviceArray<T> dx(x, shift), dy(want.size(), shift);
    sample::DeviceArray<int> rows_taken(std::vector<int>{0}, 0);
    std::string shape = std::to_string(rows) + "x" + std::to_string(cols) +
                        " stride=" + std::to_string(stride) +
                        " shift=" + std::to_string(shift);
    const auto &all = configs<S>();
    // Tuned too (the dynamic schedule's row counter is reset for each
    // trial by its tuning rule).
    for (int config = tile::autotuned; config < int(std::size(all)); ++config) {
      auto launch = [&] {
        if constexpr (S == Schedule::persistent)
          return tilecc::softmax_persistent(dx.get(), dy.get(), stride, cols,
                                            rows, cols, stream, config);
        else if constexpr (S == Schedule::dynamic)
          return tilecc::softmax_persistent_dynamic(
              dx.get(), dy.get(), stride, cols, rows, cols, rows_taken.get(),
              stream, config);
        else if constexpr (std::is_same_v<T, float>)
          return tilecc::softmax(dx.get(), dy.get(), stride, cols, rows, cols,
                                 stream, config);
        else
          return tilecc::softmax_f16(dx.get(), dy.get(), stride, cols, rows,
                                     cols, stream, config);
      };
      bool fits = config < 0 || cols <= all[config].meta[0];
      std::string what = std::string(name) + " " +
                         sample::describe_config(all, config, meta_names<S>) +
                         " " + shape;
      if (!fits) {
        if (launch() != cudaErrorInvalidValue) {
          std::printf("FAIL: %s: a block smaller than the row was accepted\n",
                      what.c_str());
          ok = false;
        }
        continue;
      }
      ok &= sample::check_launch(what, dy, stream, launch, want, tol);
      if (rows_taken.download() != std::vector<int>{0}) {
        std::printf("FAIL: %s: the row counter was left non-zero\n",
                    what.c_str());
        ok = false;
      }
      ++runs;
    }
  }
  std::printf("%s: %s on the GPU, %d runs\n", ok ? "PASS" : "FAIL", name, runs);
  return ok;
}

/// The persistent grid rule's tile::programs_per_sm() for a configuration
/// whose stages take more than 48 KB of shared memory, asked before the
/// kernel's first launch (as the rule is): the occupancy calculator must
/// count the programs an SM holds, not report none.
bool check_occupancy_before_launch() {
  constexpr int config = 5;
  static_assert(softmax_persistent_tile_configs[config].meta[0] == 8192 &&
                    softmax_persistent_tile_configs[config].meta[1] == 2 &&
                    softmax_persistent_tile_configs[config].num_warps == 8,
                "two 32 KB stages: 65 KB with the alignment slack");
  int per_sm = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(
      &per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  const int fit = per_sm / (66 * 1024);
  const int counted = tilecc_gen::softmax_persistent::programs_per_sm_5();
  bool ok = counted > 1 || fit < 2;
  std::printf("%s: programs per SM before the first launch: %d (%d fit in "
              "shared memory)\n",
              ok ? "PASS" : "FAIL", counted, fit);
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  bool ok = check_occupancy_before_launch();
  ok &= check<float>("softmax", stream, {0, reference::softmax_rel_tol});
  ok &= check<tile::half>(
      "softmax_f16", stream,
      {reference::softmax_f16_abs_tol, reference::softmax_f16_rel_tol});
  ok &= check<float, Schedule::persistent>("softmax_persistent", stream,
                                           {0, reference::softmax_rel_tol});
  ok &= check<float, Schedule::dynamic>("softmax_persistent_dynamic", stream,
                                        {0, reference::softmax_rel_tol});
  CUDA_CHECK(cudaStreamDestroy(stream));
  return ok ? 0 : 1;
}
