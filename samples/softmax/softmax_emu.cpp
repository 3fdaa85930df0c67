// Runs every configuration of softmax (fp32), softmax_f16,
// softmax_persistent and softmax_persistent_dynamic that holds a whole row
// in emulation, on rows whose length is not a power of two, and compares
// with the reference.
#include "configs.hpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>
#include <type_traits>

namespace {

/// Runs the kernel for element type T and schedule S (tile::half: softmax_f16)
/// with configuration C.
template <class T, Schedule S, tile::config C>
bool run(const T *x, T *y, int stride, int rows, int cols) {
  constexpr int Block = C.meta[0];
  if constexpr (S == Schedule::persistent) {
    tile::emulate::launch(softmax_persistent_grid<Block, C.meta[1]>(
                              x, y, stride, cols, rows, cols),
                          softmax_persistent<Block, C.meta[1]>, x, y, stride,
                          cols, rows, cols);
  } else if constexpr (S == Schedule::dynamic) {
    // The counter must come back to zero.
    int rows_taken = 0;
    tile::emulate::launch(softmax_persistent_dynamic_grid<Block>(
                              x, y, stride, cols, rows, cols, &rows_taken),
                          softmax_persistent_dynamic<Block>, x, y, stride, cols,
                          rows, cols, &rows_taken);
    return rows_taken == 0;
  } else if constexpr (std::is_same_v<T, float>) {
    tile::emulate::launch(softmax_grid<Block>(x, y, stride, cols, rows, cols),
                          softmax<Block>, x, y, stride, cols, rows, cols);
  } else {
    tile::emulate::launch(
        softmax_f16_grid<Block>(x, y, stride, cols, rows, cols),
        softmax_f16<Block>, x, y, stride, cols, rows, cols);
  }
  return true;
}

template <class T, Schedule S = Schedule::one_row>
bool check(const char *name, sample::Tolerance tol) {
  struct Case {
    int rows, cols;
  };
  constexpr Case cases[] = {{1, 1}, {3, 200}, {5, 781}, {2, 1000}, {2, 3001}};
  sample::Random rng(11);
  bool ok = true;
  int runs = 0;
  for (auto [rows, cols] : cases) {
    const int stride = cols + 3; // rows not packed: the stride is honoured
    auto xf = sample::random_vector(std::size_t(rows) * stride, rng, -8, 8);
    std::vector<T> x(xf.begin(), xf.end());
    // The reference sees the inputs the kernel sees (rounded to T).
    std::vector<float> xr(x.begin(), x.end());
    auto want = reference::softmax(xr, rows, cols, stride);
    sample::for_each_index<std::size(configs<S>())>([&](auto index) {
      constexpr tile::config c = configs<S>()[decltype(index)::value];
      if (cols > c.meta[0])
        return;
      std::string what = std::string(name) + " " +
                         sample::describe(c, meta_names<S>) + " " +
                         std::to_string(rows) + "x" + std::to_string(cols);
      std::vector<T> y(want.size());
      if (!run<T, S, c>(x.data(), y.data(), stride, rows, cols)) {
        std::printf("FAIL: %s: the row counter was left non-zero\n",
                    what.c_str());
        ok = false;
      }
      ok &= sample::compare(what, std::vector<float>(y.begin(), y.end()), want,
                            tol);
      ++runs;
    });
  }
  std::printf("%s: %s emulation, %d runs\n", ok ? "PASS" : "FAIL", name, runs);
  return ok;
}

} // namespace

int main() {
  bool ok = check<float>("softmax", {0, reference::softmax_rel_tol});
  ok &= check<tile::half>("softmax_f16", {reference::softmax_f16_abs_tol,
                                          reference::softmax_f16_rel_tol});
  ok &= check<float, Schedule::persistent>("softmax_persistent",
                                           {0, reference::softmax_rel_tol});
  ok &= check<float, Schedule::dynamic>("softmax_persistent_dynamic",
                                        {0, reference::softmax_rel_tol});
  return ok ? 0 : 1;
}
