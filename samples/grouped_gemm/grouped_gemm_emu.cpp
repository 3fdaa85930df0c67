// Runs every configuration of grouped_gemm in emulation on a group of five
// problems: ragged sizes, a k below one block, padded leading dimensions,
// and one problem off the 16-byte alignment (the element-wise path), on
// three programs, against the reference; C's elements outside the outputs
// must keep their poison.
#include "grouped_gemm.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  constexpr auto &configs = grouped_gemm_tile_configs;
  const reference::Group group({{70, 45, 40, 40, 48, 45},
                                {128, 64, 72, 72, 64, 72},
                                {33, 130, 8, 8, 136, 130},
                                {64, 48, 96, 104, 48, 56},
                                {20, 24, 32, 32, 24, 24, 1}});
  sample::Random rng(51);
  auto a = sample::convert_all<tile::half>(
      sample::random_vector(group.a_size, rng, -1, 1));
  auto b = sample::convert_all<tile::half>(
      sample::random_vector(group.b_size, rng, -1, 1));
  auto want = reference::grouped_gemm(group, sample::convert_all<float>(a),
                                      sample::convert_all<float>(b));
  const auto sizes = group.sizes(), leading = group.leading();
  const auto tol = reference::tolerance(group.max_k());
  bool ok = true;
  sample::for_each_index<std::size(configs)>([&](auto index) {
    constexpr tile::config c = configs[decltype(index)::value];
    constexpr int bm = c.meta[0], bn = c.meta[1], bk = c.meta[2];
    std::vector<tile::half> out(group.c_size);
    std::memset(out.data(), 0xff, out.size() * sizeof(tile::half));
    std::vector<int64_t> a_addrs, b_addrs, c_addrs;
    for (std::size_t q = 0; q < group.problems.size(); ++q) {
      a_addrs.push_back(reinterpret_cast<int64_t>(a.data() + group.a_at[q]));
      b_addrs.push_back(reinterpret_cast<int64_t>(b.data() + group.b_at[q]));
      c_addrs.push_back(reinterpret_cast<int64_t>(out.data() + group.c_at[q]));
    }
    tile::emulate::launch(tile::grid{3}, grouped_gemm<bm, bn, bk>,
                          a_addrs.data(), b_addrs.data(), c_addrs.data(),
                          sizes.data(), leading.data(),
                          int(group.problems.size()));
    const std::string what =
        "grouped_gemm " + sample::describe(c, {"BM", "BN", "BK"});
    ok &= reference::untouched_intact<tile::half>(what, group, out);
    ok &= sample::compare(what, reference::outputs<tile::half>(group, out),
                          want, {tol.abs, tol.rel});
  });
  std::printf("%s: grouped_gemm in emulation\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
