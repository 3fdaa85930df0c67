// rms_norm's reference: forward and backward of each row, in double.
#ifndef SAMPLES_RMS_NORM_REFERENCE_HPP
#define SAMPLES_RMS_NORM_REFERENCE_HPP

#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace reference {

inline constexpr double rms_norm_eps = 1e-6;

/// 1 / sqrt(mean(row^2) + eps).
inline double row_rstd(const float *row, int n_cols, double eps) {
  double squares = 0;
  for (int c = 0; c < n_cols; ++c)
    squares += double(row[c]) * row[c];
  return 1 / std::sqrt(squares / n_cols + eps);
}

struct RmsNormForward {
  std::vector<float> y, rstd;
};

/// Rows of n_cols values, `stride` apart; y has x's layout.
inline RmsNormForward rms_norm_fwd(std::span<const float> x,
                                   std::span<const float> w, int n_rows,
                                   int n_cols, int stride, double eps) {
  RmsNormForward out{std::vector<float>(std::size_t(n_rows) * stride),
                     std::vector<float>(n_rows)};
  for (int r = 0; r < n_rows; ++r) {
    const float *row = x.data() + std::size_t(r) * stride;
    const double rstd = row_rstd(row, n_cols, eps);
    out.rstd[r] = float(rstd);
    for (int c = 0; c < n_cols; ++c)
      out.y[std::size_t(r) * stride + c] = float(row[c] * rstd * w[c]);
  }
  return out;
}

struct RmsNormBackward {
  std::vector<float> dx, dw;
};

/// The gradients of rms_norm_fwd given dy (x's layout): dx (x's layout)
/// and dw, by the analytic formulas, rstd recomputed in double.
inline RmsNormBackward rms_norm_bwd(std::span<const float> x,
                                    std::span<const float> dy,
                                    std::span<const float> w, int n_rows,
                                    int n_cols, int stride, double eps) {
  RmsNormBackward out{std::vector<float>(std::size_t(n_rows) * stride),
                      std::vector<float>(n_cols)};
  std::vector<double> dw(n_cols), xhat(n_cols);
  for (int r = 0; r < n_rows; ++r) {
    const float *row = x.data() + std::size_t(r) * stride;
    const float *drow = dy.data() + std::size_t(r) * stride;
    const double rstd = row_rstd(row, n_cols, eps);
    double c = 0;
    for (int k = 0; k < n_cols; ++k) {
      xhat[k] = row[k] * rstd;
      c += xhat[k] * w[k] * drow[k];
      dw[k] += drow[k] * xhat[k];
    }
    c /= n_cols;
    for (int k = 0; k < n_cols; ++k)
      out.dx[std::size_t(r) * stride + k] =
          float((w[k] * drow[k] - xhat[k] * c) * rstd);
  }
  for (int k = 0; k < n_cols; ++k)
    out.dw[k] = float(dw[k]);
  return out;
}

/// Tolerances against the double reference: results computed in fp32 and
/// rounded once to bf16 (8 significant bits) or fp16 (11), relative to the
/// value or to the typical magnitude scale (dw: a sum over rows).
struct Tolerance {
  double abs, rel;
};
inline Tolerance output_tolerance(bool bf16, double scale) {
  const double ulp = bf16 ? 0x1p-8 : 0x1p-11;
  return {2 * ulp * scale, 2 * ulp};
}

/// dw: fp32 sums over n_rows rows (an error far below the rounding), then
/// one rounding: the output's relative tolerance, and an absolute one for
/// sums that cancel to near zero.
inline Tolerance dw_tolerance(bool bf16, int n_rows) {
  return {1e-6 * n_rows + 1e-6, output_tolerance(bf16, 1).rel};
}

} // namespace reference

#endif // SAMPLES_RMS_NORM_REFERENCE_HPP
