// layer_norm's reference: forward and backward of each row, in double.
#ifndef SAMPLES_LAYER_NORM_REFERENCE_HPP
#define SAMPLES_LAYER_NORM_REFERENCE_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace reference {

/// A row's mean and 1 / sqrt(variance + eps).
struct RowStats {
  double mean, rstd;
};
inline RowStats row_stats(const float *row, int n_cols, double eps) {
  double mean = 0, var = 0;
  for (int c = 0; c < n_cols; ++c)
    mean += row[c];
  mean /= n_cols;
  for (int c = 0; c < n_cols; ++c)
    var += (row[c] - mean) * (row[c] - mean);
  return {mean, 1 / std::sqrt(var / n_cols + eps)};
}

struct LayerNormForward {
  std::vector<float> y, mean, rstd;
};

/// Rows of n_cols values, `stride` apart; y is dense.
inline LayerNormForward layer_norm_fwd(std::span<const float> x,
                                       std::span<const float> w,
                                       std::span<const float> b, int n_rows,
                                       int n_cols, int stride, double eps) {
  LayerNormForward out{std::vector<float>(std::size_t(n_rows) * n_cols),
                       std::vector<float>(n_rows), std::vector<float>(n_rows)};
  for (int r = 0; r < n_rows; ++r) {
    const float *row = x.data() + std::size_t(r) * stride;
    auto [mean, rstd] = row_stats(row, n_cols, eps);
    out.mean[r] = float(mean);
    out.rstd[r] = float(rstd);
    for (int c = 0; c < n_cols; ++c)
      out.y[std::size_t(r) * n_cols + c] =
          float((row[c] - mean) * rstd * w[c] + b[c]);
  }
  return out;
}

struct LayerNormBackward {
  std::vector<float> dx, dw, db;
};

/// Gradients of layer_norm_fwd given dy (same layout as x); dx is dense.
/// mean and rstd are recomputed in double.
inline LayerNormBackward layer_norm_bwd(std::span<const float> x,
                                        std::span<const float> dy,
                                        std::span<const float> w, int n_rows,
                                        int n_cols, int stride, double eps) {
  LayerNormBackward out{std::vector<float>(std::size_t(n_rows) * n_cols),
                        std::vector<float>(n_cols), std::vector<float>(n_cols)};
  std::vector<double> dw(n_cols), db(n_cols), xhat(n_cols);
  for (int r = 0; r < n_rows; ++r) {
    const float *row = x.data() + std::size_t(r) * stride;
    const float *drow = dy.data() + std::size_t(r) * stride;
    auto [mean, rstd] = row_stats(row, n_cols, eps);
    double c1 = 0, c2 = 0;
    for (int c = 0; c < n_cols; ++c) {
      xhat[c] = (row[c] - mean) * rstd;
      c1 += xhat[c] * w[c] * drow[c];
      c2 += w[c] * drow[c];
      dw[c] += drow[c] * xhat[c];
      db[c] += drow[c];
    }
    c1 /= n_cols;
    c2 /= n_cols;
    for (int c = 0; c < n_cols; ++c)
      out.dx[std::size_t(r) * n_cols + c] =
          float((w[c] * drow[c] - (xhat[c] * c1 + c2)) * rstd);
  }
  for (int c = 0; c < n_cols; ++c) {
    out.dw[c] = float(dw[c]);
    out.db[c] = float(db[c]);
  }
  return out;
}

inline constexpr double layer_norm_eps = 1e-5;

/// y and dx: computed in fp32 and rounded once to fp16 (half an ulp is
/// 2^-11 relative) or bf16 (2^-8), plus fp32 rounding of the statistics,
/// which stays far below that on the values' scale (they are O(1)): twice
/// the half ulp relative, and half of it absolute (for values near zero).
struct Tolerance {
  double abs, rel;
};
inline Tolerance output_tolerance(bool bf16) {
  const double half_ulp = bf16 ? 0x1p-8 : 0x1p-11;
  return {half_ulp / 2, 2 * half_ulp};
}
/// mean and rstd in fp32: sums of n_cols fp32 values in another order,
/// whose rounding errors grow as sqrt(n_cols) ulps (the emulation sums a
/// tile one element after another).
inline double stats_rel_tol(int n_cols) {
  return std::max(1e-5, 4 * std::sqrt(double(n_cols)) * 0x1p-24);
}
/// dw and db are sums over all rows, rounded once to the output type; the
/// fp32 partial sums lose a few 1e-7 relative of the sums of |terms|, which
/// are up to sqrt(rows) times the sums themselves.
inline Tolerance dwdb_tolerance(bool bf16) {
  return {1e-3, output_tolerance(bf16).rel};
}

} // namespace reference

#endif // SAMPLES_LAYER_NORM_REFERENCE_HPP
