// Runs every configuration of softmax that holds a whole row in emulation,
// on rows whose length is not a power of two, and compares with the
// reference.
#include "softmax.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  constexpr auto &configs = softmax_tile_configs;
  struct Case {
    int rows, cols;
  };
  constexpr Case cases[] = {{1, 1}, {3, 200}, {5, 781}, {2, 1000}, {2, 3001}};
  sample::Random rng(11);
  bool ok = true;
  int runs = 0;
  for (auto [rows, cols] : cases) {
    const int stride = cols + 3; // rows not packed: the stride is honoured
    auto x = sample::random_vector(std::size_t(rows) * stride, rng, -8, 8);
    auto want = reference::softmax(x, rows, cols, stride);
    sample::for_each_index<std::size(configs)>([&](auto index) {
      constexpr tile::config c = configs[decltype(index)::value];
      constexpr int block = c.meta[0];
      if (!softmax_fits<block>(x.data(), nullptr, stride, cols, rows, cols))
        return;
      std::string what = "softmax " + sample::describe(c, {"BLOCK"}) + " " +
                         std::to_string(rows) + "x" + std::to_string(cols);
      sample::GuardedOutput out(want.size());
      tile::emulate::launch(
          softmax_grid<block>(x.data(), out.data(), stride, cols, rows, cols),
          softmax<block>, x.data(), out.data(), stride, cols, rows, cols);
      ok &= out.guards_intact(what);
      ok &= sample::compare(what, out.values(), want,
                            {0, reference::softmax_rel_tol});
      ++runs;
    });
  }
  std::printf("%s: softmax emulation, %d runs\n", ok ? "PASS" : "FAIL", runs);
  return ok ? 0 : 1;
}
