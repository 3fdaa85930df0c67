// Runs every configuration of dropout in emulation on sizes that are
// not multiples of the block and compares with the reference.
#include "dropout.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  constexpr auto &configs = dropout_tile_configs;
  constexpr int sizes[] = {0, 1, 1000, 8191, 40003};
  const sample::Tolerance tol{.rel = reference::dropout_rel_tol};
  const float p = 0.3f;
  const int seed = 123;
  sample::Random rng(2);
  bool ok = true;
  for (int n : sizes) {
    auto x = sample::random_vector(n, rng, -1, 1);
    auto want = reference::dropout(x, p, seed);
    sample::for_each_index<std::size(configs)>([&](auto index) {
      constexpr tile::config c = configs[decltype(index)::value];
      constexpr int block = c.meta[0];
      std::string what = "dropout " + sample::describe(c, {"BLOCK"}) +
                         " n=" + std::to_string(n);
      sample::GuardedOutput out(n);
      tile::emulate::launch(
          dropout_grid<block>(x.data(), out.data(), n, p, seed), dropout<block>,
          x.data(), out.data(), n, p, seed);
      ok &= out.guards_intact(what);
      ok &= sample::compare(what, out.values(), want, tol);
    });
  }
  std::printf("%s: dropout emulation, %zu configs x %zu sizes, relative "
              "tolerance %.2g\n",
              ok ? "PASS" : "FAIL", std::size(configs), std::size(sizes),
              tol.rel);
  return ok ? 0 : 1;
}
