// Runs every configuration of greyscale on the GPU through its launch
// wrapper, on image sizes and pointer offsets that select both the
// 16-byte-aligned and the generic variant, and compares with the reference.
// Exits 77 without a GPU.
#include "greyscale.tile.cpp"
#include "greyscale.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  static_assert(std::size(greyscale_tile_configs) ==
                tilecc::greyscale_num_configs);
  // The aligned variant needs 16-byte-aligned pointers and h, w multiples of
  // 16 (48 x 272 leaves every tile shape ragged); a shifted pointer or a
  // ragged width selects the generic one.
  struct Case {
    int h, w;
    std::size_t shift;
  };
  constexpr Case cases[] = {{0, 0, 0},     {0, 17, 0},     {5, 0, 0},
                            {1, 1, 0},     {37, 53, 0},    {64, 128, 0},
                            {48, 272, 0},  {512, 1024, 0}, {100, 300, 1},
                            {513, 1031, 2}};
  const sample::Tolerance tol{.rel = reference::greyscale_rel_tol};
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  sample::Random rng(6);
  bool ok = true;
  for (int config = 0; config < tilecc::greyscale_num_configs; ++config) {
    for (auto [h, w, shift] : cases) {
      std::size_t pixels = std::size_t(h) * w;
      auto rgb = sample::random_vector(3 * pixels, rng, 0, 1);
      sample::DeviceArray drgb(rgb, shift), dgrey(pixels, shift);
      std::string what = "greyscale " +
                         sample::describe(greyscale_tile_configs[config],
                                          {"BLOCK_H", "BLOCK_W"}) +
                         " h=" + std::to_string(h) + " w=" + std::to_string(w) +
                         " shift=" + std::to_string(shift);
      ok &= sample::check_launch(
          what, dgrey, stream,
          [&] {
            return tilecc::greyscale(drgb.get(), dgrey.get(), h, w, stream,
                                     config);
          },
          reference::greyscale(rgb, h, w), tol);
    }
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s: greyscale on the GPU, %d configs x %zu cases, relative "
              "tolerance %.2g\n",
              ok ? "PASS" : "FAIL", tilecc::greyscale_num_configs,
              std::size(cases), tol.rel);
  return ok ? 0 : 1;
}
