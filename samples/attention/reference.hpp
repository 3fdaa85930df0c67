// attention's reference: softmax(Q K^T * scale) V per head in double, from
// the (rounded) inputs, row by row, with the row's log-sum-exp.
#ifndef SAMPLES_ATTENTION_REFERENCE_HPP
#define SAMPLES_ATTENTION_REFERENCE_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace reference {

/// Row i of head h's output (d values) and its log-sum-exp, for Q, K, V of
/// shape (heads, seq, d) row-major; causal rows see keys 0..i only.
inline double attention_row(std::span<const float> q, std::span<const float> k,
                            std::span<const float> v, int seq, int d,
                            float scale, bool causal, int h, int i,
                            std::span<float> out) {
  const std::size_t head = std::size_t(h) * seq * d;
  const int keys = causal ? i + 1 : seq;
  std::vector<double> s(keys);
  double top = -INFINITY;
  for (int j = 0; j < keys; ++j) {
    double dot = 0;
    for (int c = 0; c < d; ++c)
      dot += double(q[head + std::size_t(i) * d + c]) *
             double(k[head + std::size_t(j) * d + c]);
    s[j] = dot * scale;
    top = std::max(top, s[j]);
  }
  double sum = 0;
  for (double &x : s)
    sum += x = std::exp(x - top);
  for (int c = 0; c < d; ++c) {
    double o = 0;
    for (int j = 0; j < keys; ++j)
      o += s[j] * double(v[head + std::size_t(j) * d + c]);
    out[c] = static_cast<float>(o / sum);
  }
  return top + std::log(sum);
}

/// The whole output (heads x seq x d) and log-sum-exp (heads x seq).
struct Attention {
  std::vector<float> out, lse;
};
inline Attention attention(std::span<const float> q, std::span<const float> k,
                           std::span<const float> v, int heads, int seq, int d,
                           float scale, bool causal) {
  Attention r{std::vector<float>(std::size_t(heads) * seq * d),
              std::vector<float>(std::size_t(heads) * seq)};
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < seq; ++i)
      r.lse[std::size_t(h) * seq + i] = static_cast<float>(attention_row(
          q, k, v, seq, d, scale, causal, h, i,
          std::span(r.out).subspan((std::size_t(h) * seq + i) * d, d)));
  return r;
}

/// Outputs are weighted means of V's values in [-1, 1], rounded to 16
/// bits, from probabilities rounded to 16 bits: the 2e-2.
inline constexpr double out_tolerance = 2e-2;
/// The log-sum-exp is computed in fp32 from exact fp32 scores.
inline constexpr double lse_tolerance = 1e-3;

} // namespace reference

#endif
