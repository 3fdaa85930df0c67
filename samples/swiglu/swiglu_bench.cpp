// Times the SwiGLU and GeGLU kernels, forward and backward, bf16 and fp16,
// on issue 51's shape (4096 tokens x 14336 intermediate) with every
// configuration, checks the outputs against the double reference, and
// prints JSON lines for scripts/bench.sh. Bytes: a and b read, c written
// (forward); dc, a and b read, da and db written (backward). Exits 77
// without a GPU.
#include "swiglu.tile.cpp"
#include "swiglu.tile.h"

#include "bench.hpp"
#include "inputs.hpp"
#include "reference.hpp"

#include <string>

namespace {

template <class T, class Fwd, class Bwd>
bool bench(const std::string &name, bool gelu, const tile::config *configs,
           int n_configs, Fwd fwd, Bwd bwd, sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  constexpr int tokens = 4096, width = 14336;
  const std::size_t n = std::size_t(tokens) * width;
  const auto [a, b, dc, want] = sample::glu_inputs<T>(n, rng, gelu);
  const auto tol = reference::tolerance(bf16);
  sample::DeviceArray<T> da_in(a, 0), db_in(b, 0), ddc(dc, 0), dout(n, 0),
      dgrad_a(n, 0), dgrad_b(n, 0);
  const std::vector<tile::config> all(configs, configs + n_configs);
  const std::string dtype = bf16 ? "bf16" : "fp16";
  bool ok =
      sample::bench_configs(sample::Workload{name + "_fwd",
                                             {tokens, width},
                                             3.0 * n * sizeof(T),
                                             {tol.abs, tol.rel},
                                             dtype},
                            all, {"BLOCK"}, dout, want.c, [&](int c) {
                              return fwd(da_in.get(), db_in.get(), dout.get(),
                                         int64_t(n), nullptr, c);
                            });
  ok &= sample::bench_configs(sample::Workload{name + "_bwd",
                                               {tokens, width},
                                               5.0 * n * sizeof(T),
                                               {tol.abs, tol.rel},
                                               dtype},
                              all, {"BLOCK"}, dgrad_a, want.da, [&](int c) {
                                return bwd(ddc.get(), da_in.get(), db_in.get(),
                                           dgrad_a.get(), dgrad_b.get(),
                                           int64_t(n), nullptr, c);
                              });
  ok &= sample::compare(name + "_bwd db", dgrad_b.download_floats(), want.db,
                        {tol.abs, tol.rel});
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(83);
#define GLU_BENCH(NAME, GELU, SUFFIX, T)                                       \
  bench<T>(#NAME "_" #SUFFIX, GELU, NAME##_fwd_##SUFFIX##_tile_configs,        \
           tilecc::NAME##_fwd_##SUFFIX##_num_configs,                          \
           tilecc::NAME##_fwd_##SUFFIX, tilecc::NAME##_bwd_##SUFFIX, rng)
  bool ok = GLU_BENCH(swiglu, false, bf16, tile::bfloat16);
  ok &= GLU_BENCH(swiglu, false, f16, tile::half);
  ok &= GLU_BENCH(geglu, true, bf16, tile::bfloat16);
  ok &= GLU_BENCH(geglu, true, f16, tile::half);
#undef GLU_BENCH
  return ok ? 0 : 1;
}
