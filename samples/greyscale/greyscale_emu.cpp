// Runs every configuration of greyscale in emulation on image sizes that
// are not multiples of the tile and compares with the reference.
#include "greyscale.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  constexpr auto &configs = greyscale_tile_configs;
  struct Size {
    int h, w;
  };
  constexpr Size sizes[] = {{0, 7}, {1, 1}, {37, 53}, {70, 300}, {129, 257}};
  const sample::Tolerance tol{.rel = reference::greyscale_rel_tol};
  sample::Random rng(3);
  bool ok = true;
  for (auto [h, w] : sizes) {
    auto rgb = sample::random_vector(3 * std::size_t(h) * w, rng, 0, 1);
    auto want = reference::greyscale(rgb, h, w);
    sample::for_each_index<std::size(configs)>([&](auto index) {
      constexpr tile::config c = configs[decltype(index)::value];
      constexpr int bh = c.meta[0], bw = c.meta[1];
      std::string what = "greyscale " +
                         sample::describe(c, {"BLOCK_H", "BLOCK_W"}) +
                         " h=" + std::to_string(h) + " w=" + std::to_string(w);
      sample::GuardedOutput out(std::size_t(h) * w);
      tile::emulate::launch(
          greyscale_grid<bh, bw>(rgb.data(), out.data(), h, w),
          greyscale<bh, bw>, rgb.data(), out.data(), h, w);
      ok &= out.guards_intact(what);
      ok &= sample::compare(what, out.values(), want, tol);
    });
  }
  std::printf("%s: greyscale emulation, %zu configs x %zu sizes, relative "
              "tolerance %.2g\n",
              ok ? "PASS" : "FAIL", std::size(configs), std::size(sizes),
              tol.rel);
  return ok ? 0 : 1;
}
