// Runs every configuration of the SwiGLU and GeGLU kernels (and the
// wrappers' defaults), forward and backward, bf16 and fp16, on the GPU
// through the launch wrappers, on sizes from 0 to 4096 x 14336 + 5 with
// aligned and shifted pointers, and compares c, da and db with the double
// reference; outputs are poisoned first and their guard zones must keep
// the poison. Exits 77 without a GPU.
#include "swiglu.tile.cpp"
#include "swiglu.tile.h"

#include "cuda_check.hpp"
#include "inputs.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

namespace {

template <class T, class Fwd, class Bwd>
bool check(const std::string &name, bool gelu, const tile::config *configs,
           int n_configs, Fwd fwd, Bwd bwd, sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  const auto tol = reference::tolerance(bf16);
  bool ok = true;
  int runs = 0;
  struct Case {
    std::size_t n, shift;
  };
  for (auto [n, shift] : {Case{0, 0}, Case{1, 0}, Case{5003, 1},
                          Case{std::size_t(4096) * 14336 + 5, 0}}) {
    const auto [a, b, dc, want] = sample::glu_inputs<T>(n, rng, gelu);
    sample::DeviceArray<T> da_in(a, shift), db_in(b, shift), ddc(dc, shift),
        dout(n, shift), dgrad_a(n, shift), dgrad_b(n, shift);
    for (int c = -1; c < n_configs; ++c) {
      const std::string what =
          name + " " +
          (c < 0 ? std::string("default config")
                 : sample::describe(configs[c], {"BLOCK"})) +
          " n=" + std::to_string(n) + " shift=" + std::to_string(shift);
      ok &=
          sample::check_launch(what + " c", dout, nullptr,
                               [&] {
                                 return fwd(da_in.get(), db_in.get(),
                                            dout.get(), int64_t(n), nullptr, c);
                               },
                               want.c, {tol.abs, tol.rel});
      dgrad_b.poison();
      ok &= sample::check_launch(
          what + " da", dgrad_a, nullptr,
          [&] {
            return bwd(ddc.get(), da_in.get(), db_in.get(), dgrad_a.get(),
                       dgrad_b.get(), int64_t(n), nullptr, c);
          },
          want.da, {tol.abs, tol.rel});
      ok &= dgrad_b.guards_intact(what + " db") &&
            sample::compare(what + " db", dgrad_b.download_floats(), want.db,
                            {tol.abs, tol.rel});
      ++runs;
    }
  }
  std::printf("%s: %s on the GPU, %d runs\n", ok ? "PASS" : "FAIL",
              name.c_str(), runs);
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(82);
#define GLU_CHECK(NAME, GELU, SUFFIX, T)                                       \
  check<T>(#NAME "_" #SUFFIX, GELU, NAME##_fwd_##SUFFIX##_tile_configs,        \
           tilecc::NAME##_fwd_##SUFFIX##_num_configs,                          \
           tilecc::NAME##_fwd_##SUFFIX, tilecc::NAME##_bwd_##SUFFIX, rng)
  bool ok = GLU_CHECK(swiglu, false, bf16, tile::bfloat16);
  ok &= GLU_CHECK(swiglu, false, f16, tile::half);
  ok &= GLU_CHECK(geglu, true, bf16, tile::bfloat16);
  ok &= GLU_CHECK(geglu, true, f16, tile::half);
#undef GLU_CHECK
  return ok ? 0 : 1;
}
