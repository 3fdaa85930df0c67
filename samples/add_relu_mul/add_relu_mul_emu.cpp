// Runs every configuration of add_relu_mul in emulation on sizes that are
// not multiples of the block and compares with the reference.
#include "add_relu_mul.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  constexpr auto &configs = add_relu_mul_tile_configs;
  constexpr int sizes[] = {0, 1, 1000, 8191, 40003};
  const sample::Tolerance tol{.rel = reference::add_relu_mul_rel_tol};
  const float scale = 1.7f;
  sample::Random rng(2);
  bool ok = true;
  for (int n : sizes) {
    // Inputs on both sides of zero, so that relu clips about half.
    auto x = sample::random_vector(n, rng, -1, 1);
    auto bias = sample::random_vector(n, rng, -0.5f, 0.5f);
    auto want = reference::add_relu_mul(x, bias, scale);
    sample::for_each_index<std::size(configs)>([&](auto index) {
      constexpr tile::config c = configs[decltype(index)::value];
      constexpr int block = c.meta[0];
      std::string what = "add_relu_mul " + sample::describe(c, {"BLOCK"}) +
                         " n=" + std::to_string(n);
      sample::GuardedOutput out(n);
      tile::emulate::launch(
          add_relu_mul_grid<block>(x.data(), bias.data(), out.data(), scale, n),
          add_relu_mul<block>, x.data(), bias.data(), out.data(), scale, n);
      ok &= out.guards_intact(what);
      ok &= sample::compare(what, out.values(), want, tol);
    });
  }
  std::printf("%s: add_relu_mul emulation, %zu configs x %zu sizes, relative "
              "tolerance %.2g\n",
              ok ? "PASS" : "FAIL", std::size(configs), std::size(sizes),
              tol.rel);
  return ok ? 0 : 1;
}
