// Runs every configuration of matmul_f16 and matmul_bf16, and of their
// persistent forms on two programs, in emulation on small ragged sizes (M,
// N, K not multiples of the blocks, K below one block) against the
// reference.
#include "matmul.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <iterator>
#include <string>
#include <type_traits>

namespace {

constexpr std::initializer_list<const char *> meta_names = {"BM", "BN", "BK",
                                                            "GROUP_M", "ACT"};

template <class T, bool Persistent> bool check(const char *name) {
  constexpr bool half = std::is_same_v<T, tile::half>;
  struct Shape {
    int m, n, k;
  };
  sample::Random rng(31);
  bool ok = true;
  for (auto [m, n, k] : {Shape{70, 45, 40}, Shape{33, 130, 8}}) {
    auto af = sample::random_vector(std::size_t(m) * k, rng, -1, 1);
    auto bf = sample::random_vector(std::size_t(k) * n, rng, -1, 1);
    auto a = sample::convert_all<T>(af), b = sample::convert_all<T>(bf);
    auto ar = sample::convert_all<float>(a), br = sample::convert_all<float>(b);
    auto tol = reference::matmul_tolerance(k);
    sample::for_each_index<std::size(matmul_f16_tile_configs)>([&](auto i) {
      constexpr tile::config c = matmul_f16_tile_configs[decltype(i)::value];
      constexpr int bm = c.meta[0], bn = c.meta[1], bk = c.meta[2],
                    group = c.meta[3], act = c.meta[4];
      std::vector<T> out(std::size_t(m) * n);
      tile::grid grid{Persistent ? 2 : tile::cdiv(m, bm) * tile::cdiv(n, bn)};
      if constexpr (half && Persistent)
        tile::emulate::launch(grid,
                              persistent_matmul_f16<bm, bn, bk, group, act>,
                              a.data(), b.data(), out.data(), m, n, k);
      else if constexpr (Persistent)
        tile::emulate::launch(grid,
                              persistent_matmul_bf16<bm, bn, bk, group, act>,
                              a.data(), b.data(), out.data(), m, n, k);
      else if constexpr (half)
        tile::emulate::launch(grid, matmul_f16<bm, bn, bk, group, act>,
                              a.data(), b.data(), out.data(), m, n, k);
      else
        tile::emulate::launch(grid, matmul_bf16<bm, bn, bk, group, act>,
                              a.data(), b.data(), out.data(), m, n, k);
      auto want = reference::matmul(ar, br, m, n, k, act == 1);
      ok &= sample::compare(
          std::string(name) + " " + sample::describe(c, meta_names) + " " +
              std::to_string(m) + "x" + std::to_string(n) + "x" +
              std::to_string(k),
          sample::convert_all<float>(out), want, {tol.abs, tol.rel});
    });
  }
  std::printf("%s: %s in emulation\n", ok ? "PASS" : "FAIL", name);
  return ok;
}

} // namespace

int main() {
  bool ok = check<tile::half, false>("matmul_f16");
  ok &= check<tile::bfloat16, false>("matmul_bf16");
  ok &= check<tile::half, true>("persistent_matmul_f16");
  ok &= check<tile::bfloat16, true>("persistent_matmul_bf16");
  return ok ? 0 : 1;
}
