// Times softmax (fp32), softmax_f16, softmax_persistent and
// softmax_persistent_dynamic on the shapes of issue 3 (32768 x 4096 and
// 16384 x 8192) with every configuration that holds a row, and
// prints JSON lines for scripts/bench.sh. Exits 77 without a GPU.
#include "configs.hpp"
#include "softmax.tile.h"

#include "bench.hpp"
#include "reference.hpp"

#include <type_traits>

namespace {

template <class T, Schedule S = Schedule::one_row>
bool bench(const char *workload_name, const char *dtype,
           sample::Tolerance tol) {
  struct Shape {
    int rows, cols;
  };
  bool ok = true;
  sample::Random rng(13);
  for (auto [rows, cols] : {Shape{32768, 4096}, Shape{16384, 8192}}) {
    std::size_t n = std::size_t(rows) * cols;
    auto xf = sample::random_vector(n, rng, -8, 8);
    std::vector<T> x(xf.begin(), xf.end());
    std::vector<float> xr(x.begin(), x.end());
    sample::DeviceArray<T> dx(x, 0), dy(n, 0);
    sample::DeviceArray<int> rows_taken(std::vector<int>{0}, 0);
    // Only the configurations whose block holds a row can run.
    std::vector<tile::config> fitting;
    std::vector<int> index;
    const auto &all = configs<S>();
    for (int c = 0; c < int(std::size(all)); ++c)
      if (cols <= all[c].meta[0]) {
        fitting.push_back(all[c]);
        index.push_back(c);
      }
    sample::Workload workload{
        workload_name, {rows, cols}, 2.0 * n * sizeof(T), tol, dtype};
    auto want = reference::softmax(xr, rows, cols, cols);
    auto launch = [&](int c) {
      if constexpr (S == Schedule::persistent)
        return tilecc::softmax_persistent(dx.get(), dy.get(), cols, cols, rows,
                                          cols, nullptr, index[c]);
      else if constexpr (S == Schedule::dynamic)
        return tilecc::softmax_persistent_dynamic(
            dx.get(), dy.get(), cols, cols, rows, cols, rows_taken.get(),
            nullptr, index[c]);
      else if constexpr (std::is_same_v<T, float>)
        return tilecc::softmax(dx.get(), dy.get(), cols, cols, rows, cols,
                               nullptr, index[c]);
      else
        return tilecc::softmax_f16(dx.get(), dy.get(), cols, cols, rows, cols,
                                   nullptr, index[c]);
    };
    ok &= sample::bench_configs(workload, fitting, meta_names<S>, dy, want,
                                launch);
  }
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  bool ok = bench<float>("softmax", "fp32", {0, reference::softmax_rel_tol});
  ok &= bench<tile::half>(
      "softmax_f16", "fp16",
      {reference::softmax_f16_abs_tol, reference::softmax_f16_rel_tol});
  ok &= bench<float, Schedule::persistent>("softmax_persistent", "fp32",
                                           {0, reference::softmax_rel_tol});
  ok &= bench<float, Schedule::dynamic>("softmax_persistent_dynamic", "fp32",
                                        {0, reference::softmax_rel_tol});
  return ok ? 0 : 1;
}
