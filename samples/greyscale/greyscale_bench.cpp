// Times every configuration of greyscale on a 3 x 8192 x 8192 image (768 MiB
// in, 256 MiB out) and prints JSON lines for scripts/bench.sh. Exits 77
// without a GPU.
#include "greyscale.tile.cpp"
#include "greyscale.tile.h"

#include "bench.hpp"
#include "reference.hpp"

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  const int h = 8192, w = 8192;
  const std::size_t pixels = std::size_t(h) * w;
  sample::Random rng(9);
  auto rgb = sample::random_vector(3 * pixels, rng, 0, 1);
  sample::DeviceArray drgb(rgb, 0), dgrey(pixels, 0);
  sample::Workload workload{"greyscale",
                            {3, h, w},
                            4.0 * pixels * sizeof(float),
                            {.rel = reference::greyscale_rel_tol}};
  bool ok = sample::bench_configs(
      workload, greyscale_tile_configs, {"BLOCK_H", "BLOCK_W"}, dgrey,
      reference::greyscale(rgb, h, w), [&](int config) {
        return tilecc::greyscale(drgb.get(), dgrey.get(), h, w, nullptr,
                                 config);
      });
  return ok ? 0 : 1;
}
