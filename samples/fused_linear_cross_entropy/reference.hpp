// fused_linear_cross_entropy's reference, in double: the logits x W^T rounded
// to the inputs' type as the kernel stores them, the cross_entropy sample's
// reference on them, the gradient rounded as the kernel writes it (scaled
// by flce::grad_scale) and divided back in double, and dx,
// dW with, for each element, the sum of its terms' magnitudes (the scale
// its error is measured against).
#ifndef SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_REFERENCE_HPP
#define SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_REFERENCE_HPP

#include "../cross_entropy/reference.hpp"
#include "fused_linear_cross_entropy.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace reference {

struct LinearCrossEntropy {
  std::vector<float> loss;          // per token: its share of the mean
  std::vector<double> dx, dx_scale; // tokens x hidden
  std::vector<double> dw, dw_scale; // vocab x hidden
  double max_logit = 0;             // the largest |logit|
};

/// weight_grad: whether dW is computed (a benchmark's sampled tokens need
/// only their loss and dx, and vocab x hidden doubles are gigabytes).
template <class T>
LinearCrossEntropy
linear_cross_entropy(std::span<const T> x, std::span<const T> w,
                     std::span<const int64_t> target, int tokens, int hidden,
                     int vocab, int64_t ignore_index, double smoothing,
                     bool weight_grad = true) {
  LinearCrossEntropy out;
  std::vector<float> logits(std::size_t(tokens) * vocab);
  for (int t = 0; t < tokens; ++t)
    for (int v = 0; v < vocab; ++v) {
      double sum = 0;
      for (int h = 0; h < hidden; ++h)
        sum += double(float(x[std::size_t(t) * hidden + h])) *
               double(float(w[std::size_t(v) * hidden + h]));
      const float rounded = float(T(float(sum)));
      logits[std::size_t(t) * vocab + v] = rounded;
      out.max_logit = std::max(out.max_logit, std::fabs(double(rounded)));
    }
  const CrossEntropy ce =
      cross_entropy(logits, target, tokens, vocab, std::size_t(vocab),
                    ignore_index, smoothing, flce::grad_scale);
  out.loss = ce.loss;
  const double n =
      double(std::count_if(target.begin(), target.end(),
                           [&](int64_t t) { return t != ignore_index; }));
  std::vector<double> g(ce.grad.size());
  for (std::size_t i = 0; i < g.size(); ++i)
    g[i] = n > 0 ? double(float(T(ce.grad[i]))) / (flce::grad_scale * n) : 0;
  out.dx.assign(std::size_t(tokens) * hidden, 0);
  out.dx_scale.assign(out.dx.size(), 0);
  if (weight_grad) {
    out.dw.assign(std::size_t(vocab) * hidden, 0);
    out.dw_scale.assign(out.dw.size(), 0);
  }
  for (int t = 0; t < tokens; ++t)
    for (int v = 0; v < vocab; ++v) {
      const double gv = g[std::size_t(t) * vocab + v];
      if (gv == 0)
        continue;
      for (int h = 0; h < hidden; ++h) {
        const double wv = double(float(w[std::size_t(v) * hidden + h]));
        out.dx[std::size_t(t) * hidden + h] += gv * wv;
        out.dx_scale[std::size_t(t) * hidden + h] += std::fabs(gv * wv);
        if (weight_grad) {
          const double xv = double(float(x[std::size_t(t) * hidden + h]));
          out.dw[std::size_t(v) * hidden + h] += gv * xv;
          out.dw_scale[std::size_t(v) * hidden + h] += std::fabs(gv * xv);
        }
      }
    }
  return out;
}

/// The loss shares: a logit the kernel rounds the other way than the
/// reference (its fp32 sum differs from the double one) moves the log-sum-
/// exp and the target's logit by at most an ulp of the largest logit each.
inline Tolerance linear_loss_tolerance(bool bf16, double max_logit, double n) {
  const double ulp = bf16 ? 0x1p-8 : 0x1p-11;
  return {2 * ulp * max_logit / n, 1e-5};
}

/// dx and dW, relative to the sum of their terms' magnitudes: the output's
/// rounding (half an ulp), gradients rounded the other way (an ulp), and
/// logits rounded the other way (softmax moves by the logit's change, up to
/// max_logit ulps).
inline double linear_grad_tolerance(bool bf16, double max_logit) {
  const double ulp = bf16 ? 0x1p-8 : 0x1p-11;
  return (1.5 + max_logit) * ulp;
}

/// (got - want) / max(scale, tiny): the errors linear_grad_tolerance bounds.
inline std::vector<float> scaled_errors(std::span<const float> got,
                                        std::span<const double> want,
                                        std::span<const double> scale) {
  std::vector<float> out(got.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    out[i] = float((double(got[i]) - want[i]) / std::max(scale[i], 1e-30));
  return out;
}

} // namespace reference

#endif // SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_REFERENCE_HPP
