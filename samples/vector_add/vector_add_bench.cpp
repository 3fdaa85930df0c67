// Times every configuration of vector_add on 2^28 floats (1 GiB per array)
// and prints JSON lines for scripts/bench.sh. Exits 77 without a GPU.
#include "vector_add.tile.cpp"
#include "vector_add.tile.h"

#include "bench.hpp"
#include "reference.hpp"

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  const int n = 1 << 28;
  sample::Random rng(7);
  auto x = sample::random_vector(n, rng, -1, 1);
  auto y = sample::random_vector(n, rng, -1, 1);
  sample::DeviceArray dx(x, 0), dy(y, 0), dout(n, 0);
  sample::Workload workload{"vector_add", {n}, 3.0 * n * sizeof(float), {}};
  bool ok = sample::bench_configs(
      workload, vector_add_tile_configs, {"BLOCK"}, dout,
      reference::vector_add(x, y), [&](int config) {
        return tilecc::vector_add(dx.get(), dy.get(), dout.get(), n, nullptr,
                                  config);
      });
  return ok ? 0 : 1;
}
