// Times every configuration of add_relu_mul on 2^28 floats (1 GiB per
// array) and prints JSON lines for scripts/bench.sh. Exits 77 without a GPU.
#include "add_relu_mul.tile.cpp"
#include "add_relu_mul.tile.h"

#include "bench.hpp"
#include "reference.hpp"

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  const int n = 1 << 28;
  const float scale = 1.7f;
  sample::Random rng(8);
  auto x = sample::random_vector(n, rng, -1, 1);
  auto bias = sample::random_vector(n, rng, -0.5f, 0.5f);
  sample::DeviceArray dx(x, 0), dbias(bias, 0), dout(n, 0);
  // x and bias read, out written.
  sample::Workload workload{"add_relu_mul",
                            {n},
                            3.0 * n * sizeof(float),
                            {.rel = reference::add_relu_mul_rel_tol}};
  bool ok = sample::bench_configs(
      workload, add_relu_mul_tile_configs, {"BLOCK"}, dout,
      reference::add_relu_mul(x, bias, scale), [&](int config) {
        return tilecc::add_relu_mul(dx.get(), dbias.get(), dout.get(), scale, n,
                                    nullptr, config);
      });
  return ok ? 0 : 1;
}
