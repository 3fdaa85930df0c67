// attention's backward reference, in double: with S = scale Q K^T and the
// rows' log-sum-exp lse and delta = rowsum(dO * O) as the kernels are
// given them, P = exp(S - lse) (causal: zero for keys after the row) and
//   dV = P^T dO, dS = P * (dO V^T - delta), dQ = scale dS K,
//   dK = scale dS^T Q.
// A row of dQ or of dK and dV costs seq * d, so the benchmark checks
// sampled rows of large problems; the tests take every row.
#ifndef SAMPLES_ATTENTION_BACKWARD_BACKWARD_REFERENCE_HPP
#define SAMPLES_ATTENTION_BACKWARD_BACKWARD_REFERENCE_HPP

#include "../attention/reference.hpp"

namespace reference {

/// Inputs of shape (heads, seq, d) row-major, lse and delta (heads, seq).
struct BackwardInputs {
  std::span<const float> q, k, v, d_o, lse, delta;
  int seq, d;
  float scale;
  bool causal;

  std::span<const float> row(std::span<const float> x, int h, int i) const {
    return x.subspan((std::size_t(h) * seq + i) * d, d);
  }
  double dot(std::span<const float> a, std::span<const float> b) const {
    double s = 0;
    for (int c = 0; c < d; ++c)
      s += double(a[c]) * double(b[c]);
    return s;
  }
  /// P[i][j] and dS[i][j] / scale of head h.
  std::pair<double, double> p_and_ds(int h, int i, int j) const {
    if (causal && j > i)
      return {0, 0};
    const std::size_t r = std::size_t(h) * seq + i;
    const double p =
        std::exp(dot(row(q, h, i), row(k, h, j)) * scale - double(lse[r]));
    return {p, p * (dot(row(d_o, h, i), row(v, h, j)) - double(delta[r]))};
  }
};

/// Row i of head h of dQ (d values).
inline void query_gradient_row(const BackwardInputs &in, int h, int i,
                               std::span<float> dq) {
  std::vector<double> acc(in.d);
  for (int j = 0; j < in.seq; ++j) {
    auto kj = in.row(in.k, h, j);
    const double ds = in.p_and_ds(h, i, j).second;
    for (int c = 0; c < in.d; ++c)
      acc[c] += ds * kj[c];
  }
  for (int c = 0; c < in.d; ++c)
    dq[c] = static_cast<float>(acc[c] * in.scale);
}

/// Row j of head h of dK and of dV.
inline void key_gradient_rows(const BackwardInputs &in, int h, int j,
                              std::span<float> dk, std::span<float> dv) {
  std::vector<double> dk_acc(in.d), dv_acc(in.d);
  for (int i = 0; i < in.seq; ++i) {
    auto [p, ds] = in.p_and_ds(h, i, j);
    auto qi = in.row(in.q, h, i), doi = in.row(in.d_o, h, i);
    for (int c = 0; c < in.d; ++c) {
      dk_acc[c] += ds * qi[c];
      dv_acc[c] += p * doi[c];
    }
  }
  for (int c = 0; c < in.d; ++c) {
    dk[c] = static_cast<float>(dk_acc[c] * in.scale);
    dv[c] = static_cast<float>(dv_acc[c]);
  }
}

/// delta = rowsum(dO * O) for every row of `rows` rows of d values.
inline std::vector<float> row_deltas(std::span<const float> o,
                                     std::span<const float> d_o,
                                     std::size_t rows, int d) {
  std::vector<float> delta(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    double s = 0;
    for (int c = 0; c < d; ++c)
      s += double(o[r * d + c]) * double(d_o[r * d + c]);
    delta[r] = static_cast<float>(s);
  }
  return delta;
}

/// Every row of dQ, dK and dV (heads x seq x d).
struct Gradients {
  std::vector<float> dq, dk, dv;
};
inline Gradients attention_backward(const BackwardInputs &in, int heads) {
  const std::size_t n = std::size_t(heads) * in.seq * in.d;
  Gradients g{std::vector<float>(n), std::vector<float>(n),
              std::vector<float>(n)};
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < in.seq; ++i) {
      const std::size_t at = (std::size_t(h) * in.seq + i) * in.d;
      query_gradient_row(in, h, i, std::span(g.dq).subspan(at, in.d));
      key_gradient_rows(in, h, i, std::span(g.dk).subspan(at, in.d),
                        std::span(g.dv).subspan(at, in.d));
    }
  return g;
}

/// Gradients are sums over up to seq rows of products of 16-bit-rounded
/// probabilities (or their gradients) and inputs in [-1, 1], rounded to 16
/// bits: the forward pass's absolute 2e-2, and 1e-2 of the value for the
/// keys that collect weight from many rows.
inline constexpr double gradient_abs_tolerance = 2e-2;
inline constexpr double gradient_rel_tolerance = 1e-2;
/// delta is a sum of d exact products in fp32.
inline constexpr double delta_tolerance = 1e-4;

} // namespace reference

#endif
