// Runs every configuration of rope_fwd and rope_bwd that fits the heads and
// head_dim, bf16 and fp16, in emulation on q and k with padded strides and
// grouped key heads, and compares them (rotated in place) with the double
// reference; the padding between heads and positions must keep its poison.
#include "rope.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

/// Each configuration of a kernel: f(launch, description, BLOCK_Q, BLOCK_K,
/// HALF).
#define ROPE_CONFIGS(KERNEL, F)                                                \
  sample::for_each_index<std::size(KERNEL##_tile_configs)>([&](auto i) {       \
    constexpr auto m = KERNEL##_tile_configs[decltype(i)::value].meta;         \
    F(                                                                         \
        [](auto... args) {                                                     \
          constexpr auto n = KERNEL##_tile_configs[decltype(i)::value].meta;   \
          tile::emulate::launch(KERNEL##_grid<n[0], n[1], n[2]>(args...),      \
                                KERNEL<n[0], n[1], n[2]>, args...);            \
        },                                                                     \
        sample::describe(KERNEL##_tile_configs[decltype(i)::value],            \
                         {"BLOCK_Q", "BLOCK_K", "HALF"}),                      \
        m[0], m[1], m[2]);                                                     \
  })

/// Poisoned storage for a layout, its elements random in [-2, 2).
template <class T>
std::vector<T> make_tensor(const reference::Layout &l, sample::Random &rng) {
  std::vector<T> v(l.size());
  std::memset(v.data(), 0xff, v.size() * sizeof(T));
  for (int b = 0; b < l.batch; ++b)
    for (int h = 0; h < l.heads; ++h)
      for (int s = 0; s < l.seq; ++s)
        for (int d = 0; d < l.head_dim; ++d)
          v[l.at(b, h, s, d)] = T(rng.uniform(-2, 2));
  return v;
}

/// got against want where the layout has elements, and the poison kept
/// elsewhere.
template <class T>
bool compare(const std::string &what, const std::vector<T> &got,
             const std::vector<float> &want, const reference::Layout &l,
             reference::Tolerance tol) {
  std::vector<bool> element(got.size());
  std::vector<float> g, w;
  for (int b = 0; b < l.batch; ++b)
    for (int h = 0; h < l.heads; ++h)
      for (int s = 0; s < l.seq; ++s)
        for (int d = 0; d < l.head_dim; ++d) {
          const std::size_t i = l.at(b, h, s, d);
          element[i] = true;
          g.push_back(float(got[i]));
          w.push_back(want[i]);
        }
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!element[i] &&
        !sample::guard_intact(what, &got[i], 1, sizeof(T), std::ptrdiff_t(i)))
      return false;
  return sample::compare(what, g, w, {tol.abs, tol.rel});
}

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
    // q [batch, heads, seq, head_dim] with padding after each row and head;
    // k [batch, seq, heads, head_dim] (positions outer, as some models keep
    // it), also padded.
    const int64_t q_seq = head_dim + 8, q_head = q_seq * seq + 8,
                  q_batch = q_head * q_heads;
    const int64_t k_head = head_dim + 8, k_seq = k_head * k_heads,
                  k_batch = k_seq * seq + 8;
    const reference::Layout ql{batch,   q_heads, seq,  head_dim,
                               q_batch, q_head,  q_seq};
    const reference::Layout kl{batch,   k_heads, seq,  head_dim,
                               k_batch, k_head,  k_seq};
    const auto q = make_tensor<T>(ql, rng), k = make_tensor<T>(kl, rng);
    std::vector<T> cos(std::size_t(seq) * head_dim), sin(cos.size());
    for (int s = 0; s < seq; ++s)
      for (int d = 0; d < head_dim; ++d) {
        // Unlike a model's cache, whose halves repeat each other, every
        // column its own frequency: a kernel reading the wrong half fails.
        const double theta = s * std::pow(10000.0, -1.0 * d / head_dim) + 0.3;
        cos[s * head_dim + d] = T(float(std::cos(theta)));
        sin[s * head_dim + d] = T(float(std::sin(theta)));
      }
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
      auto run = [&](auto launch, const std::string &config, int block_q,
                     int block_k, int half) {
        if (q_heads > block_q || k_heads > block_k || head_dim != 2 * half)
          return;
        auto qo = q, ko = k;
        launch(qo.data(), ko.data(), cos.data(), sin.data(), batch, seq,
               q_heads, k_heads, head_dim, q_batch, q_head, q_seq, k_batch,
               k_head, k_seq);
        const std::string what =
            std::string(backward ? "rope_bwd " : "rope_fwd ") + type + " " +
            config + " " + shape;
        ok &= compare(what + " q", qo, want_q, ql, reference::tolerance(bf16));
        ok &= compare(what + " k", ko, want_k, kl, reference::tolerance(bf16));
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
