// Runs every configuration of vector_add on the GPU through its launch
// wrapper, on sizes and pointer offsets that select both the 16-byte-aligned
// and the generic variant, and compares with the reference exactly. Exits 77
// without a GPU.
#include "vector_add.tile.cpp"
#include "vector_add.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  static_assert(std::size(vector_add_tile_configs) ==
                tilecc::vector_add_num_configs);
  // The aligned variant needs 16-byte-aligned pointers and n % 16 == 0; a
  // shift of one element or a ragged n selects the generic one.
  struct Case {
    int n;
    std::size_t shift;
  };
  constexpr Case cases[] = {{0, 0},       {1, 0},     {1000, 0},  {12304, 0},
                            {1 << 20, 0}, {65536, 1}, {100003, 3}};
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  sample::Random rng(4);
  bool ok = true;
  for (int config = 0; config < tilecc::vector_add_num_configs; ++config) {
    for (auto [n, shift] : cases) {
      auto x = sample::random_vector(n, rng, -1, 1);
      auto y = sample::random_vector(n, rng, -1, 1);
      sample::DeviceArray dx(x, shift), dy(y, shift), dout(n, shift);
      std::string what =
          "vector_add " +
          sample::describe(vector_add_tile_configs[config], {"BLOCK"}) +
          " n=" + std::to_string(n) + " shift=" + std::to_string(shift);
      ok &= sample::check_launch(
          what, dout, stream,
          [&] {
            return tilecc::vector_add(dx.get(), dy.get(), dout.get(), n, stream,
                                      config);
          },
          reference::vector_add(x, y), sample::Tolerance{});
    }
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s: vector_add on the GPU, %d configs x %zu cases, exact\n",
              ok ? "PASS" : "FAIL", tilecc::vector_add_num_configs,
              std::size(cases));
  return ok ? 0 : 1;
}
