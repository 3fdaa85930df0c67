// matmul's reference: C = A B in double from the (rounded) inputs, for all
// of C or for chosen elements of it.
#ifndef SAMPLES_MATMUL_REFERENCE_HPP
#define SAMPLES_MATMUL_REFERENCE_HPP

#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace reference {

/// Element (i, j) of A B, A m x k and B k x n row-major; with leaky = true
/// negative results are scaled by 0.01.
inline double matmul_element(std::span<const float> a, std::span<const float> b,
                             int n, int k, int i, int j, bool leaky) {
  double s = 0;
  for (int l = 0; l < k; ++l)
    s += double(a[std::size_t(i) * k + l]) * double(b[std::size_t(l) * n + j]);
  return leaky && s < 0 ? 0.01 * s : s;
}

inline std::vector<float> matmul(std::span<const float> a,
                                 std::span<const float> b, int m, int n, int k,
                                 bool leaky) {
  std::vector<float> c(std::size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      c[std::size_t(i) * n + j] =
          static_cast<float>(matmul_element(a, b, n, k, i, j, leaky));
  return c;
}

/// The k x n row-major matrix b as n x k row-major: B given transposed, as
/// the 8-bit kernels take it.
template <class T>
std::vector<T> transposed(const std::vector<T> &b, int k, int n) {
  std::vector<T> t(b.size());
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < n; ++j)
      t[std::size_t(j) * k + i] = b[std::size_t(i) * n + j];
  return t;
}

/// fp32 accumulation of products of 16-bit inputs in [-1, 1], then one
/// rounding to the output type: an error of 1e-2 relative to the result
/// or to the typical magnitude of a sum of k products, sqrt(k / 9).
struct MatmulTolerance {
  double abs, rel;
};
inline MatmulTolerance matmul_tolerance(int k) {
  return {1e-2 * std::sqrt(k / 9.0 + 1.0), 1e-2};
}

} // namespace reference

#endif
