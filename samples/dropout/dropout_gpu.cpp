// Runs every configuration of dropout on the GPU through its launch
// wrapper, on sizes and pointer offsets that select both the
// 16-byte-aligned and the generic variant, and compares with the reference.
// Exits 77 without a GPU.
#include "dropout.tile.cpp"
#include "dropout.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  static_assert(std::size(dropout_tile_configs) == tilecc::dropout_num_configs);
  // The aligned variant needs 16-byte-aligned pointers and n % 16 == 0; a
  // shift of one element or a ragged n selects the generic one.
  struct Case {
    int n;
    std::size_t shift;
  };
  constexpr Case cases[] = {{0, 0},       {1, 0},     {1000, 0},  {12304, 0},
                            {1 << 20, 0}, {65536, 1}, {100003, 3}};
  const sample::Tolerance tol{.rel = reference::dropout_rel_tol};
  const float p = 0.3f;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  sample::Random rng(5);
  bool ok = true;
  for (int config = 0; config < tilecc::dropout_num_configs; ++config) {
    for (auto [n, shift] : cases) {
      auto x = sample::random_vector(n, rng, -1, 1);
      const int seed = 1000 + config;
      sample::DeviceArray dx(x, shift), dout(n, shift);
      std::string what =
          "dropout " +
          sample::describe(dropout_tile_configs[config], {"BLOCK"}) +
          " n=" + std::to_string(n) + " shift=" + std::to_string(shift);
      ok &= sample::check_launch(
          what, dout, stream,
          [&] {
            return tilecc::dropout(dx.get(), dout.get(), n, p, seed, stream,
                                   config);
          },
          reference::dropout(x, p, seed), tol);
    }
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s: dropout on the GPU, %d configs x %zu cases, relative "
              "tolerance %.2g\n",
              ok ? "PASS" : "FAIL", tilecc::dropout_num_configs,
              std::size(cases), tol.rel);
  return ok ? 0 : 1;
}
