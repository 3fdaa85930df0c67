// Runs every configuration of cumsum_rows that holds a whole row in
// emulation, on rows whose length is not a power of two and whose count is
// not a multiple of ROWS, and compares with the reference; the columns
// between rows and the guard zones must keep their poison.
#include "cumsum.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

namespace {

struct Case {
  int rows, cols;
};
constexpr Case cases[] = {{1, 1},   {3, 200},  {37, 50},
                          {5, 781}, {2, 1000}, {2, 3001}};

} // namespace

int main() {
  sample::Random rng(31);
  bool ok = true;
  int runs = 0;
  for (auto [rows, cols] : cases) {
    const int stride = cols + 3; // rows not packed: the stride is honoured
    auto x = sample::random_vector(std::size_t(rows) * stride, rng, -1, 1);
    auto want = reference::cumsum_rows(x, rows, cols, stride);
    sample::Tolerance tol{reference::cumsum_abs_tol_per_col * cols,
                          reference::cumsum_rel_tol};
    sample::for_each_index<std::size(cumsum_rows_tile_configs)>(
        [&](auto index) {
          constexpr tile::config c =
              cumsum_rows_tile_configs[decltype(index)::value];
          constexpr int rows_per_program = c.meta[0], block = c.meta[1];
          if (cols > block)
            return;
          std::string what = "cumsum_rows " +
                             sample::describe(c, {"ROWS", "BLOCK"}) + " " +
                             std::to_string(rows) + "x" + std::to_string(cols);
          sample::GuardedOutput y(x.size());
          tile::emulate::launch(cumsum_rows_grid<rows_per_program, block>(
                                    x.data(), y.data(), stride, rows, cols),
                                cumsum_rows<rows_per_program, block>, x.data(),
                                y.data(), stride, rows, cols);
          ok &= y.guards_intact(what) &&
                sample::row_gaps_intact(what, y.values(), rows, cols, stride);
          ok &= sample::compare(
              what, sample::dense_rows(y.values(), rows, cols, stride), want,
              tol);
          ++runs;
        });
  }
  std::printf("%s: cumsum_rows emulation, %d runs\n", ok ? "PASS" : "FAIL",
              runs);
  return ok ? 0 : 1;
}
