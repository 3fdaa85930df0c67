// Times every configuration of libdevice_asin on 2^28 floats (1 GiB per
// array) and prints JSON lines for scripts/bench.sh. Exits 77 without a GPU.
#include "libdevice.tile.cpp"
#include "libdevice.tile.h"

#include "bench.hpp"
#include "reference.hpp"

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  const int n = 1 << 28;
  sample::Random rng(10);
  auto x = sample::random_vector(n, rng, -1, 1);
  sample::DeviceArray dx(x, 0), dout(n, 0);
  // x read, y written.
  sample::Workload workload{"libdevice_asin",
                            {n},
                            2.0 * n * sizeof(float),
                            {.rel = reference::libdevice_asin_rel_tol}};
  bool ok = sample::bench_configs(
      workload, libdevice_asin_tile_configs, {"BLOCK"}, dout,
      reference::libdevice_asin(x), [&](int config) {
        return tilecc::libdevice_asin(dx.get(), dout.get(), n, nullptr, config);
      });
  return ok ? 0 : 1;
}
