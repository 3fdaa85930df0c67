// softmax's reference: each row's softmax, computed in double.
#ifndef SAMPLES_SOFTMAX_REFERENCE_HPP
#define SAMPLES_SOFTMAX_REFERENCE_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace reference {

/// Rows of n_cols values, `stride` apart; the output is dense.
inline std::vector<float> softmax(std::span<const float> x, int n_rows,
                                  int n_cols, int stride) {
  std::vector<float> out(std::size_t(n_rows) * n_cols);
  for (int r = 0; r < n_rows; ++r) {
    const float *row = x.data() + std::size_t(r) * stride;
    double max = -INFINITY, sum = 0;
    for (int c = 0; c < n_cols; ++c)
      max = std::max(max, double(row[c]));
    for (int c = 0; c < n_cols; ++c)
      sum += std::exp(double(row[c]) - max);
    for (int c = 0; c < n_cols; ++c)
      out[std::size_t(r) * n_cols + c] =
          static_cast<float>(std::exp(double(row[c]) - max) / sum);
  }
  return out;
}

/// The kernel's fp32 exp (the GPU's fast approximation, a few ulp) and
/// sums in a different order: a relative error of a few 1e-6 per element.
inline constexpr double softmax_rel_tol = 2e-5;

/// fp16 outputs: computed in fp32 and rounded once to half: half an ulp,
/// 2^-11 relative, or 2^-25 absolute where half is subnormal (below 2^-14).
inline constexpr double softmax_f16_abs_tol = 0x1p-25;
inline constexpr double softmax_f16_rel_tol = 0x1p-11 + softmax_rel_tol;

} // namespace reference

#endif // SAMPLES_SOFTMAX_REFERENCE_HPP
