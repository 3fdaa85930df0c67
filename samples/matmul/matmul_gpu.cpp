// Runs matmul_f16 and matmul_bf16, and their persistent forms, on the GPU
// through their launch wrappers
// with the default and every explicit configuration, on aligned sizes (the
// pipelined tensor-core path, TMA copies on sm_90), ragged ones (M, N, K not
// multiples of the blocks; K below one block; 208 x 336 x 48 is ragged but
// 16-aligned, so TMA fills the edges with zeros) and unaligned ones (the
// generic variant), into
// poisoned outputs with guard zones. Exits 77 without a GPU.
#include "matmul.tile.cpp"
#include "matmul.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>
#include <type_traits>

namespace {

template <class T, bool Persistent> bool check(const char *name) {
  struct Shape {
    int m, n, k;
  };
  sample::Random rng(32);
  bool ok = true;
  int runs = 0;
  for (auto [m, n, k] :
       {Shape{512, 512, 512}, Shape{384, 640, 1024}, Shape{300, 200, 96},
        Shape{200, 304, 40}, Shape{208, 336, 48}, Shape{129, 97, 8},
        Shape{0, 64, 64}}) {
    auto af = sample::random_vector(std::size_t(m) * k, rng, -1, 1);
    auto bf = sample::random_vector(std::size_t(k) * n, rng, -1, 1);
    auto a = sample::convert_all<T>(af), b = sample::convert_all<T>(bf);
    auto ar = sample::convert_all<float>(a), br = sample::convert_all<float>(b);
    auto tol = reference::matmul_tolerance(k);
    auto want = reference::matmul(ar, br, m, n, k, false);
    auto want_leaky = reference::matmul(ar, br, m, n, k, true);
    sample::DeviceArray<T> da(a, 0), db(b, 0), dc(std::size_t(m) * n, 0);
    for (int config = -1; config < tilecc::matmul_f16_num_configs; ++config) {
      bool leaky = config >= 0 && matmul_f16_tile_configs[config].meta[4] == 1;
      std::string what =
          std::string(name) + " " +
          sample::describe_config(matmul_f16_tile_configs, config,
                                  {"BM", "BN", "BK", "GROUP_M", "ACT"}) +
          " " + std::to_string(m) + "x" + std::to_string(n) + "x" +
          std::to_string(k);
      ok &= sample::check_launch(
          what, dc, nullptr,
          [&] {
            constexpr bool half = std::is_same_v<T, tile::half>;
            if constexpr (half && Persistent)
              return tilecc::persistent_matmul_f16(da.get(), db.get(), dc.get(),
                                                   m, n, k, nullptr, config);
            else if constexpr (Persistent)
              return tilecc::persistent_matmul_bf16(
                  da.get(), db.get(), dc.get(), m, n, k, nullptr, config);
            else if constexpr (half)
              return tilecc::matmul_f16(da.get(), db.get(), dc.get(), m, n, k,
                                        nullptr, config);
            else
              return tilecc::matmul_bf16(da.get(), db.get(), dc.get(), m, n, k,
                                         nullptr, config);
          },
          leaky ? want_leaky : want, {tol.abs, tol.rel});
      ++runs;
    }
  }
  std::printf("%s: %s on the GPU, %d runs\n", ok ? "PASS" : "FAIL", name, runs);
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  bool ok = check<tile::half, false>("matmul_f16");
  ok &= check<tile::bfloat16, false>("matmul_bf16");
  ok &= check<tile::half, true>("persistent_matmul_f16");
  ok &= check<tile::bfloat16, true>("persistent_matmul_bf16");
  return ok ? 0 : 1;
}
