// Runs every configuration of vector_add in emulation on sizes that are not
// multiples of the block and compares with the reference: exactly, since
// both round the sum once.
#include "vector_add.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  constexpr auto &configs = vector_add_tile_configs;
  constexpr int sizes[] = {0, 1, 1000, 8191, 40003};
  sample::Random rng(1);
  bool ok = true;
  for (int n : sizes) {
    auto x = sample::random_vector(n, rng, -1, 1);
    auto y = sample::random_vector(n, rng, -1, 1);
    auto want = reference::vector_add(x, y);
    sample::for_each_index<std::size(configs)>([&](auto index) {
      constexpr tile::config c = configs[decltype(index)::value];
      constexpr int block = c.meta[0];
      std::string what = "vector_add " + sample::describe(c, {"BLOCK"}) +
                         " n=" + std::to_string(n);
      sample::GuardedOutput out(n);
      tile::emulate::launch(
          vector_add_grid<block>(x.data(), y.data(), out.data(), n),
          vector_add<block>, x.data(), y.data(), out.data(), n);
      ok &= out.guards_intact(what);
      ok &= sample::compare(what, out.values(), want, sample::Tolerance{});
    });
  }
  std::printf("%s: vector_add emulation, %zu configs x %zu sizes, exact\n",
              ok ? "PASS" : "FAIL", std::size(configs), std::size(sizes));
  return ok ? 0 : 1;
}
