// Times every configuration of dropout on 2^28 floats (1 GiB per array,
// p = 0.5, seed 123) and prints JSON lines for scripts/bench.sh. Exits 77
// without a GPU.
#include "dropout.tile.cpp"
#include "dropout.tile.h"

#include "bench.hpp"
#include "reference.hpp"

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  const int n = 1 << 28;
  const float p = 0.5f;
  const int seed = 123;
  sample::Random rng(9);
  auto x = sample::random_vector(n, rng, -1, 1);
  sample::DeviceArray dx(x, 0), dout(n, 0);
  // x read, out written; the mask is computed, never stored.
  sample::Workload workload{"dropout",
                            {n},
                            2.0 * n * sizeof(float),
                            {.rel = reference::dropout_rel_tol}};
  bool ok =
      sample::bench_configs(workload, dropout_tile_configs, {"BLOCK"}, dout,
                            reference::dropout(x, p, seed), [&](int config) {
                              return tilecc::dropout(dx.get(), dout.get(), n, p,
                                                     seed, nullptr, config);
                            });
  return ok ? 0 : 1;
}
