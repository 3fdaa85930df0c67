// Runs every configuration of attention_f16, attention_bf16 and
// attention_fp8 in emulation, each with its head_dim and masking and its grid
// rule, on two heads of 70 rows (not a multiple of the blocks), against the
// reference.
#include "configs.hpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <iterator>
#include <string>
#include <type_traits>

namespace {

template <class T> bool check(const char *name) {
  constexpr int heads = 2, seq = 70;
  sample::Random rng(41);
  bool ok = true;
  sample::for_each_index<std::size(configs<T>())>([&](auto i) {
    constexpr tile::config c = configs<T>()[decltype(i)::value];
    constexpr int bm = c.meta[0], bn = c.meta[1], d = c.meta[2],
                  causal = c.meta[3], persistent = c.meta[4];
    const std::size_t n = std::size_t(heads) * seq * d;
    auto q = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
    auto k = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
    auto v = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
    const float scale = 1.0f / std::sqrt(float(d));
    const std::vector<T> v_in = v_operand(v, heads, seq, d);
    std::vector<out_type<T>> out(n);
    std::vector<float> lse(std::size_t(heads) * seq);
    // The kernel's own grid rule: one program, in emulation, walks every
    // tile of a persistent configuration.
    const tile::grid grid = attention_f16_grid<bm, bn, d, causal, persistent>(
        nullptr, nullptr, nullptr, nullptr, nullptr, scale, seq, heads, d,
        causal);
    if constexpr (std::is_same_v<T, tile::half>)
      tile::emulate::launch(grid, attention_f16<bm, bn, d, causal, persistent>,
                            q.data(), k.data(), v_in.data(), out.data(),
                            lse.data(), scale, seq, heads, d, causal);
    else if constexpr (std::is_same_v<T, tile::float8_e4m3>)
      tile::emulate::launch(
          grid, attention_fp8<bm, bn, d, causal, persistent, int(c.meta[5])>,
          q.data(), k.data(), v_in.data(), out.data(), lse.data(), scale, seq,
          heads, d, causal);
    else
      tile::emulate::launch(grid, attention_bf16<bm, bn, d, causal, persistent>,
                            q.data(), k.data(), v_in.data(), out.data(),
                            lse.data(), scale, seq, heads, d, causal);
    auto want = reference::attention(
        sample::convert_all<float>(q), sample::convert_all<float>(k),
        sample::convert_all<float>(v), heads, seq, d, scale, causal);
    std::string what =
        std::string(name) + " " + sample::describe(c, names_of<T>());
    ok &= sample::compare(what + " out", sample::convert_all<float>(out),
                          want.out, {out_tolerance<T>(), 0});
    ok &= sample::compare(what + " lse", lse, want.lse,
                          {reference::lse_tolerance, 0});
  });
  std::printf("%s: %s in emulation\n", ok ? "PASS" : "FAIL", name);
  return ok;
}

} // namespace

int main() {
  bool ok = check<tile::half>("attention_f16");
  ok &= check<tile::bfloat16>("attention_bf16");
  ok &= check<tile::float8_e4m3>("attention_fp8");
  return ok ? 0 : 1;
}
