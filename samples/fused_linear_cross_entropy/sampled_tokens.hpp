// The check of a run too large for the whole reference: a few tokens' loss
// shares and dx against the reference of their own rows (a token's loss
// share and dx need only its logits), as the benchmark and the GPU test's
// large shape make it.
#ifndef SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_SAMPLED_TOKENS_HPP
#define SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_SAMPLED_TOKENS_HPP

#include "check.hpp"
#include "reference.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace flce {

/// loss and dx: a run's outputs over every token (live of them counted);
/// without label smoothing.
template <class T>
bool check_sampled_tokens(const std::string &name, std::span<const T> x,
                          std::span<const T> w,
                          std::span<const std::int64_t> target, int hidden,
                          int vocab, std::int64_t ignore_index, int live,
                          std::span<const float> loss,
                          std::span<const float> dx,
                          std::initializer_list<int> tokens) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  bool ok = true;
  for (int t : tokens) {
    const auto row = [&](auto all) {
      return all.subspan(std::size_t(t) * hidden, hidden);
    };
    const auto want = reference::linear_cross_entropy<T>(
        row(x), w, target.subspan(t, 1), 1, hidden, vocab, ignore_index, 0.0,
        /*weight_grad=*/false);
    // The reference's mean is over its one token; the run's over live ones.
    const auto lt = reference::linear_loss_tolerance(bf16, want.max_logit, 1);
    const double gt = reference::linear_grad_tolerance(bf16, want.max_logit);
    std::vector<float> got_dx(row(dx).begin(), row(dx).end());
    for (float &v : got_dx)
      v *= float(live);
    const std::string what = name + " token " + std::to_string(t);
    ok &= sample::compare(what + " loss",
                          std::vector<float>{loss[t] * float(live)}, want.loss,
                          {lt.abs, lt.rel});
    // dx is stored at the mean's scale, 1/live of the sum's. Below fp16's
    // normal range (2^-14, where dx lies at thousands of tokens) a stored
    // value is a multiple of 2^-24, off by up to 2^-25 whatever its size:
    // live 2^-25 at the sum's scale, allowed beside gt of the terms' sum.
    std::vector<double> scale = want.dx_scale;
    if (!bf16)
      for (double &v : scale)
        v += double(live) * 0x1p-25 / gt;
    ok &= sample::compare(what + " dx",
                          reference::scaled_errors(got_dx, want.dx, scale),
                          std::vector<float>(hidden), {gt, 0});
  }
  return ok;
}

} // namespace flce

#endif // SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_SAMPLED_TOKENS_HPP
