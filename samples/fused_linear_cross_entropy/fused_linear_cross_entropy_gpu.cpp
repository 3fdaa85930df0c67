// Runs fused_linear_cross_entropy on the GPU through the launch wrappers,
// bf16 and fp16, at each configuration of the products (and the wrappers'
// default), on a shape whose chunks take the aligned kernels (TMA on sm_90)
// and one that takes the generic ones, with ignored targets, with and
// without label smoothing, and compares the loss shares, dx and dW with the
// double reference; the guard zones must keep their poison. At 4096 tokens
// (the gradient's scale matters), the loss shares and dx of a few tokens
// against their rows' reference. Exits 77 without a GPU.
#include "fused_linear_cross_entropy.tile.cpp"
#include "fused_linear_cross_entropy.tile.h"

#include "cuda_check.hpp"
#include "fused_linear_cross_entropy.hpp"
#include "reference.hpp"
#include "sampled_tokens.hpp"
#include "wrappers.hpp"

#include <cstdio>
#include <string>

namespace {

constexpr int64_t ignore_index = -100;

template <class T, class Wrappers>
bool check(const char *type, const tile::config *configs, int n_configs,
           sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  bool ok = true;
  int runs = 0;
  for (const flce::Shape s :
       {flce::Shape{320, 256, 1024, 128}, flce::Shape{77, 72, 1001, 32},
        flce::Shape{4096, 128, 32000, 1024}}) {
    auto x = sample::convert_all<T>(
        sample::random_vector(std::size_t(s.tokens) * s.hidden, rng, -1, 1));
    auto w = sample::convert_all<T>(sample::random_vector(
        std::size_t(s.vocab) * s.hidden, rng, -0.4f, 0.4f));
    std::vector<int64_t> target(s.tokens);
    for (int64_t &t : target)
      t = int64_t(rng.next() % s.vocab);
    for (int r = 3; r < s.tokens; r += 11)
      target[r] = ignore_index;
    const int live =
        int(std::count_if(target.begin(), target.end(),
                          [](int64_t t) { return t != ignore_index; }));
    sample::DeviceArray<T> dx_(x, 0), dw_(w, 0),
        logits(std::size_t(s.chunk) * s.vocab, 0), ddx(x.size(), 0);
    sample::DeviceArray<int64_t> dtarget(target, 0);
    sample::DeviceArray<float> dloss(s.tokens, 0),
        ddw(std::size_t(s.vocab) * s.hidden, 0);
    sample::DeviceArray<int> dcount(1, 0);
    const std::string shape =
        std::to_string(s.tokens) + "x" + std::to_string(s.hidden) + "x" +
        std::to_string(s.vocab) + " chunk=" + std::to_string(s.chunk);
    // At scale, where the mean loss's gradient would fall into fp16's
    // subnormals: once, some tokens checked against their own rows.
    if (s.tokens > 1024) {
      CUDA_CHECK(flce::forward_backward(
          Wrappers{-1}, s, dx_.get(), dw_.get(), dtarget.get(), ignore_index,
          0.0f, logits.get(), dcount.get(), dloss.get(), ddx.get(), ddw.get()));
      CUDA_CHECK(cudaDeviceSynchronize());
      ok &= flce::check_sampled_tokens<T>(
          std::string("fused_linear_cross_entropy ") + type + " " + shape, x, w,
          target, s.hidden, s.vocab, ignore_index, live, dloss.download(),
          ddx.download_floats(), {0, 1000, 2222, s.tokens - 1});
      ++runs;
      continue;
    }
    for (double smoothing : {0.0, 0.1}) {
      const auto want = reference::linear_cross_entropy<T>(
          x, w, target, s.tokens, s.hidden, s.vocab, ignore_index, smoothing);
      const auto lt =
          reference::linear_loss_tolerance(bf16, want.max_logit, live);
      const double gt = reference::linear_grad_tolerance(bf16, want.max_logit);
      // Tuned too: measuring adds to dW many times, which the tuning rule
      // restores.
      for (int c = tile::autotuned; c < n_configs; ++c) {
        const std::string what =
            std::string("fused_linear_cross_entropy ") + type + " " +
            sample::describe_config(configs, c, {"BM", "BN", "BK", "GROUP_M"}) +
            " " + shape + " smoothing=" + std::to_string(smoothing);
        for (auto *a : {&logits, &ddx})
          a->poison();
        dloss.poison();
        ddw.poison();
        CUDA_CHECK(flce::forward_backward(
            Wrappers{c}, s, dx_.get(), dw_.get(), dtarget.get(), ignore_index,
            float(smoothing), logits.get(), dcount.get(), dloss.get(),
            ddx.get(), ddw.get()));
        CUDA_CHECK(cudaDeviceSynchronize());
        ok &= logits.guards_intact(what) && ddx.guards_intact(what) &&
              dloss.guards_intact(what) && ddw.guards_intact(what);
        ok &= dcount.download()[0] == live;
        ok &= sample::compare(what + " loss", dloss.download(), want.loss,
                              {lt.abs, lt.rel});
        ok &= sample::compare(what + " dx",
                              reference::scaled_errors(ddx.download_floats(),
                                                       want.dx, want.dx_scale),
                              std::vector<float>(x.size()), {gt, 0});
        ok &= sample::compare(
            what + " dw",
            reference::scaled_errors(ddw.download(), want.dw, want.dw_scale),
            std::vector<float>(want.dw.size()), {gt, 0});
        ++runs;
      }
    }
    // A chunk of logits past 2^31 elements is refused before any launch.
    if (flce::forward_backward(
            Wrappers{-1}, flce::Shape{1 << 16, 64, 1 << 16, 1 << 16}, dx_.get(),
            dw_.get(), dtarget.get(), ignore_index, 0.0f, logits.get(),
            dcount.get(), dloss.get(), ddx.get(),
            ddw.get()) != cudaErrorInvalidValue) {
      std::printf("FAIL: fused_linear_cross_entropy %s: a shape past 32-bit "
                  "offsets ran\n",
                  type);
      ok = false;
    }
  }
  std::printf("%s: fused_linear_cross_entropy %s on the GPU, %d runs\n",
              ok ? "PASS" : "FAIL", type, runs);
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(58);
  bool ok = check<tile::bfloat16, flce::Wrappers_bf16>(
      "bf16", flce_logits_bf16_tile_configs,
      tilecc::flce_logits_bf16_num_configs, rng);
  ok &= check<tile::half, flce::Wrappers_f16>(
      "fp16", flce_logits_f16_tile_configs, tilecc::flce_logits_f16_num_configs,
      rng);
  return ok ? 0 : 1;
}
