// cross_entropy's reference: each row's loss share and gradient, in double.
#ifndef SAMPLES_CROSS_ENTROPY_REFERENCE_HPP
#define SAMPLES_CROSS_ENTROPY_REFERENCE_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace reference {

struct CrossEntropy {
  std::vector<float> loss; // per row: its share of the mean loss
  std::vector<float> grad; // the logits' layout
};

/// The mean over rows whose target is not ignore_index of the smoothed
/// cross-entropy, and its gradient (zero for ignored rows); with
/// grad_scale > 0, the summed loss's gradient times grad_scale instead.
inline CrossEntropy cross_entropy(std::span<const float> logits,
                                  std::span<const int64_t> target, int n_rows,
                                  int n_vocab, std::size_t stride,
                                  int64_t ignore_index, double smoothing,
                                  double grad_scale = 0) {
  CrossEntropy out{std::vector<float>(n_rows),
                   std::vector<float>(std::size_t(n_rows) * stride)};
  const double n =
      double(std::count_if(target.begin(), target.begin() + n_rows,
                           [&](int64_t t) { return t != ignore_index; }));
  for (int r = 0; r < n_rows; ++r) {
    if (target[r] == ignore_index)
      continue;
    const float *x = logits.data() + r * stride;
    double m = -INFINITY, total = 0;
    for (int v = 0; v < n_vocab; ++v) {
      m = std::max(m, double(x[v]));
      total += x[v];
    }
    double d = 0;
    for (int v = 0; v < n_vocab; ++v)
      d += std::exp(x[v] - m);
    const double lse = m + std::log(d);
    out.loss[r] = float(((1 - smoothing) * (lse - x[target[r]]) +
                         smoothing * (lse - total / n_vocab)) /
                        n);
    for (int v = 0; v < n_vocab; ++v) {
      const double g = std::exp(x[v] - lse) - smoothing / n_vocab -
                       (v == target[r] ? 1 - smoothing : 0);
      out.grad[r * stride + v] = float(grad_scale > 0 ? g * grad_scale : g / n);
    }
  }
  return out;
}

/// The loss shares: fp32 sums of exponentials over the vocabulary (within
/// a few 1e-7 relative) and a log, divided by the count. The gradient:
/// fp32 then one rounding to bf16 (8 significant bits) or fp16 (11), with
/// an absolute part at the scale of the largest entries (1 / n).
struct Tolerance {
  double abs, rel;
};
inline Tolerance loss_tolerance(double n) { return {1e-5 / n, 1e-5}; }
inline Tolerance grad_tolerance(bool bf16, double n) {
  const double ulp = bf16 ? 0x1p-8 : 0x1p-11;
  // fp16 rounds gradients below its smallest subnormal, 2^-24, to a
  // multiple of it (label smoothing's eps / V / n over a large vocabulary).
  return {std::max(1e-6 / n, bf16 ? 0.0 : 0x1p-24), 2 * ulp};
}

} // namespace reference

#endif // SAMPLES_CROSS_ENTROPY_REFERENCE_HPP
