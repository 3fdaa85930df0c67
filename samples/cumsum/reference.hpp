// cumsum's reference: each row's inclusive prefix sums, computed in double.
#ifndef SAMPLES_CUMSUM_REFERENCE_HPP
#define SAMPLES_CUMSUM_REFERENCE_HPP

#include <cstddef>
#include <span>
#include <vector>

namespace reference {

/// Rows of n_cols values, `stride` apart; the output is dense.
inline std::vector<float> cumsum_rows(std::span<const float> x, int n_rows,
                                      int n_cols, int stride) {
  std::vector<float> out(std::size_t(n_rows) * n_cols);
  for (int r = 0; r < n_rows; ++r) {
    const float *row = x.data() + std::size_t(r) * stride;
    double sum = 0;
    for (int c = 0; c < n_cols; ++c) {
      sum += row[c];
      out[std::size_t(r) * n_cols + c] = static_cast<float>(sum);
    }
  }
  return out;
}

/// The kernel adds in fp32 and in another order (the emulation left to
/// right, the GPU in a tree), rounding after each addition: each rounding
/// errs by at most 2^-24 of a partial sum. With inputs uniform in [-1, 1),
/// partial sums of k values are about sqrt(k / 3) in size and the roundings'
/// signs are random, so the error of the k-th sum has a standard deviation
/// of at most 2^-24 k / sqrt(6) ~ 2.5e-8 k (left to right; a tree errs
/// less). The absolute tolerance, cumsum_abs_tol_per_col * n_cols, is 80
/// such deviations at the row's last column; the relative one covers the
/// rounding of the double sums to float. Compare with
/// {cumsum_abs_tol_per_col * n_cols, cumsum_rel_tol}, for inputs in [-1, 1).
inline constexpr double cumsum_abs_tol_per_col = 2e-6;
inline constexpr double cumsum_rel_tol = 1e-5;

} // namespace reference

#endif // SAMPLES_CUMSUM_REFERENCE_HPP
