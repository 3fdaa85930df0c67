// Runs every configuration of matmul_f16 and matmul_bf16, of their
// persistent forms on two programs, and of matmul_tf32, matmul_fp8 and
// matmul_i8, in emulation on small ragged sizes (M, N, K not multiples of
// the blocks, K below one block) against the reference.
#include "matmul.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cmath>
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

/// matmul_tf32 on inputs that TF32 holds exactly (tf32 ignores the low
/// bits of others, which a float reference would count as error),
/// matmul_fp8 on their e4m3 roundings and matmul_i8, with B transposed
/// for the 8-bit kernels.
bool check_other_types() {
  sample::Random rng(34);
  bool ok = true;
  const int m = 70, n = 45, k = 72;
  auto af = sample::random_vector(std::size_t(m) * k, rng, -1, 1);
  auto bf = sample::random_vector(std::size_t(k) * n, rng, -1, 1);
  for (auto *v : {&af, &bf})
    for (float &e : *v)
      e = std::round(e * 1024) / 1024;
  std::vector<int8_t> a(af.size()), b(bf.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = int8_t(af[i] * 127);
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] = int8_t(bf[i] * 127);
  auto b_t = reference::transposed(b, k, n);
  auto want_i =
      reference::matmul(sample::convert_all<float>(a),
                        sample::convert_all<float>(b), m, n, k, false);
  sample::for_each_index<std::size(matmul_tf32_tile_configs)>([&](auto i) {
    constexpr tile::config c = matmul_tf32_tile_configs[decltype(i)::value];
    constexpr int bm = c.meta[0], bn = c.meta[1], bk = c.meta[2],
                  group = c.meta[3], act = c.meta[4];
    std::vector<float> out(std::size_t(m) * n);
    tile::emulate::launch(tile::grid{tile::cdiv(m, bm) * tile::cdiv(n, bn)},
                          matmul_tf32<bm, bn, bk, group, act>, af.data(),
                          bf.data(), out.data(), m, n, k);
    ok &= sample::compare("matmul_tf32 " + sample::describe(c, meta_names), out,
                          reference::matmul(af, bf, m, n, k, act == 1),
                          {1e-3 * std::sqrt(k / 9.0 + 1.0), 1e-3});
  });
  auto a8 = sample::convert_all<tile::float8_e4m3>(af);
  auto b8 = sample::convert_all<tile::float8_e4m3>(bf);
  auto b8_t = reference::transposed(b8, k, n);
  auto want_8 =
      reference::matmul(sample::convert_all<float>(a8),
                        sample::convert_all<float>(b8), m, n, k, false);
  const auto tol = reference::matmul_tolerance(k);
  sample::for_each_index<std::size(matmul_fp8_tile_configs)>([&](auto i) {
    constexpr tile::config c = matmul_fp8_tile_configs[decltype(i)::value];
    constexpr int bm = c.meta[0], bn = c.meta[1], bk = c.meta[2],
                  group = c.meta[3];
    std::vector<tile::half> out(std::size_t(m) * n);
    tile::emulate::launch(tile::grid{tile::cdiv(m, bm) * tile::cdiv(n, bn)},
                          matmul_fp8<bm, bn, bk, group>, a8.data(), b8_t.data(),
                          out.data(), m, n, k);
    ok &= sample::compare(
        "matmul_fp8 " + sample::describe(c, {"BM", "BN", "BK", "GROUP_M"}),
        sample::convert_all<float>(out), want_8, {tol.abs, tol.rel});
  });
  sample::for_each_index<std::size(matmul_i8_tile_configs)>([&](auto i) {
    constexpr tile::config c = matmul_i8_tile_configs[decltype(i)::value];
    constexpr int bm = c.meta[0], bn = c.meta[1], bk = c.meta[2],
                  group = c.meta[3];
    std::vector<int32_t> out(std::size_t(m) * n);
    tile::emulate::launch(tile::grid{tile::cdiv(m, bm) * tile::cdiv(n, bn)},
                          matmul_i8<bm, bn, bk, group>, a.data(), b_t.data(),
                          out.data(), m, n, k);
    ok &= sample::compare(
        "matmul_i8 " + sample::describe(c, {"BM", "BN", "BK", "GROUP_M"}),
        sample::convert_all<float>(out), want_i, {0, 0});
  });
  std::printf("%s: matmul_tf32, matmul_fp8 and matmul_i8 in emulation\n",
              ok ? "PASS" : "FAIL");
  return ok;
}

} // namespace

int main() {
  bool ok = check<tile::half, false>("matmul_f16");
  ok &= check<tile::bfloat16, false>("matmul_bf16");
  ok &= check<tile::half, true>("persistent_matmul_f16");
  ok &= check<tile::bfloat16, true>("persistent_matmul_bf16");
  ok &= check_other_types();
  return ok ? 0 : 1;
}
