// Runs fused_linear_cross_entropy in emulation, bf16 and fp16, each
// configuration of the products, on sizes that are no multiples of the
// blocks in chunks whose last one is short, with an ignored target, with and
// without label smoothing, and compares the loss shares, dx and dW with the
// double reference.
#include "fused_linear_cross_entropy.tile.cpp"

#include "check.hpp"
#include "fused_linear_cross_entropy.hpp"
#include "reference.hpp"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

constexpr int64_t ignore_index = -100;

/// The kernels of one type at configuration C of the products (the
/// cross-entropy at its first), launched by tile::emulate.
#define FLCE_EMULATED(SUFFIX, T)                                               \
  template <int C> struct Emulated_##SUFFIX {                                  \
    static constexpr int invalid = 1;                                          \
    template <auto Kernel, auto Grid, class... A> static int run(A... args) {  \
      tile::emulate::launch(Grid(args...), Kernel, args...);                   \
      return 0;                                                                \
    }                                                                          \
    static constexpr auto m = flce_logits_##SUFFIX##_tile_configs[C].meta;     \
    static constexpr auto ce =                                                 \
        flce_cross_entropy_##SUFFIX##_tile_configs[0].meta;                    \
    int zero(void *p, std::size_t bytes) const {                               \
      std::memset(p, 0, bytes);                                                \
      return 0;                                                                \
    }                                                                          \
    int count_targets(const int64_t *t, int *count, int n,                     \
                      int64_t ignore) const {                                  \
      return run<::count_targets<1024>, ::count_targets_grid<1024>>(           \
          t, count, n, ignore);                                                \
    }                                                                          \
    int logits(const T *x, const T *w, T *out, int m_, int n, int k) const {   \
      return run<flce_logits_##SUFFIX<m[0], m[1], m[2], m[3]>,                 \
                 flce_logits_##SUFFIX##_grid<m[0], m[1], m[2], m[3]>>(         \
          x, w, out, m_, n, k);                                                \
    }                                                                          \
    int cross_entropy(T *l, const int64_t *t, float *loss, const int *count,   \
                      int rows, int vocab, int64_t stride, int64_t ignore,     \
                      float smoothing) const {                                 \
      return run<flce_cross_entropy_##SUFFIX<ce[0]>,                           \
                 flce_cross_entropy_##SUFFIX##_grid<ce[0]>>(                   \
          l, t, loss, count, rows, vocab, stride, ignore, smoothing);          \
    }                                                                          \
    int grad_input(const T *g, const T *w, T *dx, const int *count, int m_,    \
                   int n, int k) const {                                       \
      return run<flce_grad_input_##SUFFIX<m[0], m[1], m[2], m[3]>,             \
                 flce_grad_input_##SUFFIX##_grid<m[0], m[1], m[2], m[3]>>(     \
          g, w, dx, count, m_, n, k);                                          \
    }                                                                          \
    int grad_weight(const T *g, const T *x, float *dw, const int *count,       \
                    int m_, int n, int k, bool accumulate) const {             \
      return run<flce_grad_weight_##SUFFIX<m[0], m[1], m[2], m[3]>,            \
                 flce_grad_weight_##SUFFIX##_grid<m[0], m[1], m[2], m[3]>>(    \
          g, x, dw, count, m_, n, k, int(accumulate));                         \
    }                                                                          \
  };
FLCE_EMULATED(bf16, tile::bfloat16)
FLCE_EMULATED(f16, tile::half)
#undef FLCE_EMULATED

template <class T, class Kernels>
bool check(const char *type, const std::string &config, const Kernels &k) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  sample::Random rng(57);
  const flce::Shape s{37, 72, 333, 16};
  auto x = sample::convert_all<T>(
      sample::random_vector(std::size_t(s.tokens) * s.hidden, rng, -1, 1));
  auto w = sample::convert_all<T>(
      sample::random_vector(std::size_t(s.vocab) * s.hidden, rng, -0.4f, 0.4f));
  std::vector<int64_t> target(s.tokens);
  for (int64_t &t : target)
    t = int64_t(rng.next() % s.vocab);
  target[5] = ignore_index;
  bool ok = true;
  for (double smoothing : {0.0, 0.1}) {
    const auto want = reference::linear_cross_entropy<T>(
        x, w, target, s.tokens, s.hidden, s.vocab, ignore_index, smoothing);
    std::vector<T> logits(std::size_t(s.chunk) * s.vocab), dx(x.size());
    std::vector<float> loss(s.tokens, sample::poison()),
        dw(std::size_t(s.vocab) * s.hidden, sample::poison());
    int count = -1;
    const int status = flce::forward_backward(
        k, s, x.data(), w.data(), target.data(), ignore_index, float(smoothing),
        logits.data(), &count, loss.data(), dx.data(), dw.data());
    const std::string what = std::string("fused_linear_cross_entropy ") + type +
                             " " + config +
                             " smoothing=" + std::to_string(smoothing);
    const double n = s.tokens - 1;
    const auto lt = reference::linear_loss_tolerance(bf16, want.max_logit, n);
    const double gt = reference::linear_grad_tolerance(bf16, want.max_logit);
    ok &= status == 0 && count == s.tokens - 1;
    ok &= sample::compare(what + " loss", loss, want.loss, {lt.abs, lt.rel});
    ok &=
        sample::compare(what + " dx",
                        reference::scaled_errors(sample::convert_all<float>(dx),
                                                 want.dx, want.dx_scale),
                        std::vector<float>(dx.size()), {gt, 0});
    ok &= sample::compare(what + " dw",
                          reference::scaled_errors(dw, want.dw, want.dw_scale),
                          std::vector<float>(dw.size()), {gt, 0});
  }
  return ok;
}

template <class T, template <int> class Kernels>
bool checkConfigs(const char *type, const tile::config *configs) {
  bool ok = true;
  sample::for_each_index<2>([&](auto c) {
    ok &= check<T>(type,
                   sample::describe(configs[decltype(c)::value],
                                    {"BM", "BN", "BK", "GROUP_M"}),
                   Kernels<decltype(c)::value>{});
  });
  std::printf("%s: fused_linear_cross_entropy %s in emulation\n",
              ok ? "PASS" : "FAIL", type);
  return ok;
}

} // namespace

int main() {
  bool ok = checkConfigs<tile::bfloat16, Emulated_bf16>(
      "bf16", flce_logits_bf16_tile_configs);
  ok &= checkConfigs<tile::half, Emulated_f16>("fp16",
                                               flce_logits_f16_tile_configs);
  // A shape whose chunk of logits passes 2^31 elements is refused.
  ok &= flce::forward_backward<tile::bfloat16>(
            Emulated_bf16<0>{}, flce::Shape{1 << 16, 64, 1 << 16, 1 << 16},
            nullptr, nullptr, nullptr, ignore_index, 0.0f, nullptr, nullptr,
            nullptr, nullptr, nullptr) == Emulated_bf16<0>::invalid;
  return ok ? 0 : 1;
}
