// Runs every configuration of libdevice_asin on the GPU through its launch
// wrapper, on sizes and pointer offsets that select both the
// 16-byte-aligned and the generic variant, and compares with the reference.
// Exits 77 without a GPU.
#include "libdevice.tile.cpp"
#include "libdevice.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  static_assert(std::size(libdevice_asin_tile_configs) ==
                tilecc::libdevice_asin_num_configs);
  struct Case {
    int n;
    std::size_t shift;
  };
  constexpr Case cases[] = {{0, 0},       {1, 0},     {1000, 0},  {12304, 0},
                            {1 << 20, 0}, {65536, 1}, {100003, 3}};
  const sample::Tolerance tol{.rel = reference::libdevice_asin_rel_tol};
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  sample::Random rng(6);
  bool ok = true;
  for (int config = 0; config < tilecc::libdevice_asin_num_configs; ++config) {
    for (auto [n, shift] : cases) {
      auto x = sample::random_vector(n, rng, -1, 1);
      sample::DeviceArray dx(x, shift), dout(n, shift);
      std::string what =
          "libdevice_asin " +
          sample::describe(libdevice_asin_tile_configs[config], {"BLOCK"}) +
          " n=" + std::to_string(n) + " shift=" + std::to_string(shift);
      ok &= sample::check_launch(
          what, dout, stream,
          [&] {
            return tilecc::libdevice_asin(dx.get(), dout.get(), n, stream,
                                          config);
          },
          reference::libdevice_asin(x), tol);
    }
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s: libdevice_asin on the GPU, %d configs x %zu cases, "
              "relative tolerance %.2g\n",
              ok ? "PASS" : "FAIL", tilecc::libdevice_asin_num_configs,
              std::size(cases), tol.rel);
  return ok ? 0 : 1;
}
