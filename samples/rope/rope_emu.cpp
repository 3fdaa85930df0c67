// Runs every configuration of rope_fwd and rope_bwd that fits the heads and
// head_dim, bf16 and fp16, in emulation on q and k with padded strides and
// grouped key heads, and compares them (rotated in place) with the double
// reference; the padding between heads and positions must keep its poison.
#include "rope.tile.cpp"

#include "check.hpp"
#include "reference.hpp"
#include "tensors.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

/// Each configuration of a kernel: f(launch, description, HALF).
#define ROPE_CONFIGS(KERNEL, F)                                                \
  sample::for_each_index<std::size(KERNEL##_tile_configs)>([&](auto i) {       \
    constexpr auto m = KERNEL##_tile_configs[decltype(i)::value].meta;         \
    F(                                                                         \
        [](auto... args) {                                                     \
          constexpr auto n = KERNEL##_tile_configs[decltype(i)::value].meta;   \
          tile::emulate::launch(KERNEL##_grid<n[0], n[1]>(args...),            \
                                KERNEL<n[0], n[1]>, args...);                  \
        },                                                                     \
        sample::describe(KERNEL##_tile_configs[decltype(i)::value],            \
                         {"ROWS", "HALF"}),                                    \
        m[1]);                                                                 \
  })

template <class T, class Fwd, class Bwd>
bool check(const char *type, Fwd for_fwd, Bwd for_bwd) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  sample::Random rng(101);
  bool ok = true;
  struct Case {
    int batch, seq, q_heads, k_heads, head_dim;
  };
  for (auto [batch, seq, q_heads, k_heads, head_dim] :
       {Case{2, 5, 32, 8, 128}, Case{1, 3, 7, 7, 64}, Case{2, 4, 32, 32, 64}}) {
    const auto [ql, kl] =
        sample::rope_layouts(batch, seq, q_heads, k_heads, head_dim, 8);
    const auto q = sample::rope_tensor<T>(ql, rng),
               k = sample::rope_tensor<T>(kl, rng);
    const auto [cos, sin] = sample::rope_cache<T>(seq, head_dim, true);
    const auto cr = sample::convert_all<float>(cos),
               sr = sample::convert_all<float>(sin);
    const std::string shape =
        std::to_string(batch) + "x" + std::to_string(q_heads) + "/" +
        std::to_string(k_heads) + "x" + std::to_string(seq) + "x" +
        std::to_string(head_dim);
    for (bool backward : {false, true}) {
      const auto want_q = reference::rotate(sample::convert_all<float>(q), ql,
                                            cr, sr, backward);
      const auto want_k = reference::rotate(sample::convert_all<float>(k), kl,
                                            cr, sr, backward);
      auto run = [&](auto launch, const std::string &config, int half) {
        if (head_dim != 2 * half)
          return;
        auto qo = q, ko = k;
        launch(qo.data(), ko.data(), cos.data(), sin.data(), batch, seq,
               q_heads, k_heads, head_dim, ql.batch_stride, ql.head_stride,
               ql.seq_stride, kl.batch_stride, kl.head_stride, kl.seq_stride);
        const std::string what =
            std::string(backward ? "rope_bwd " : "rope_fwd ") + type + " " +
            config + " " + shape;
        ok &= sample::compare_rope(what + " q", qo, want_q, ql,
                                   reference::tolerance(bf16));
        ok &= sample::compare_rope(what + " k", ko, want_k, kl,
                                   reference::tolerance(bf16));
      };
      if (backward)
        for_bwd(run);
      else
        for_fwd(run);
    }
  }
  std::printf("%s: rope %s in emulation\n", ok ? "PASS" : "FAIL", type);
  return ok;
}

} // namespace

int main() {
  bool ok = check<tile::bfloat16>(
      "bf16", [](auto f) { ROPE_CONFIGS(rope_fwd_bf16, f); },
      [](auto f) { ROPE_CONFIGS(rope_bwd_bf16, f); });
  ok &= check<tile::half>(
      "fp16", [](auto f) { ROPE_CONFIGS(rope_fwd_f16, f); },
      [](auto f) { ROPE_CONFIGS(rope_bwd_f16, f); });
  return ok ? 0 : 1;
}
