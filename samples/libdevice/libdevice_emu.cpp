// Runs every configuration of libdevice_asin in emulation on sizes that are
// not multiples of the block and compares with the reference.
#include "libdevice.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  constexpr auto &configs = libdevice_asin_tile_configs;
  constexpr int sizes[] = {0, 1, 1000, 8191, 40003};
  const sample::Tolerance tol{.rel = reference::libdevice_asin_rel_tol};
  sample::Random rng(3);
  bool ok = true;
  for (int n : sizes) {
    auto x = sample::random_vector(n, rng, -1, 1);
    auto want = reference::libdevice_asin(x);
    sample::for_each_index<std::size(configs)>([&](auto index) {
      constexpr tile::config c = configs[decltype(index)::value];
      constexpr int block = c.meta[0];
      std::string what = "libdevice_asin " + sample::describe(c, {"BLOCK"}) +
                         " n=" + std::to_string(n);
      sample::GuardedOutput out(n);
      tile::emulate::launch(libdevice_asin_grid<block>(x.data(), out.data(), n),
                            libdevice_asin<block>, x.data(), out.data(), n);
      ok &= out.guards_intact(what);
      ok &= sample::compare(what, out.values(), want, tol);
    });
  }
  std::printf("%s: libdevice_asin emulation, %zu configs x %zu sizes, "
              "relative tolerance %.2g\n",
              ok ? "PASS" : "FAIL", std::size(configs), std::size(sizes),
              tol.rel);
  return ok ? 0 : 1;
}
