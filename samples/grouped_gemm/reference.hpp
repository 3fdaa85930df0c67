// grouped_gemm's inputs and reference: a group of problems laid out one
// after another in three buffers (A, B and C), each product in double from
// the (rounded) inputs.
#ifndef SAMPLES_GROUPED_GEMM_REFERENCE_HPP
#define SAMPLES_GROUPED_GEMM_REFERENCE_HPP

#include <tile/tile.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace reference {

/// One product C = A B: A m x k, B k x n, C m x n, row-major with leading
/// dimensions lda, ldb, ldc; its three matrices start `shift` elements past
/// a 16-byte boundary in their buffers.
struct Problem {
  int m, n, k, lda, ldb, ldc;
  int shift = 0;
};

/// Where each problem's matrices lie in the three buffers (in elements),
/// and the buffers' sizes.
struct Group {
  std::vector<Problem> problems;
  std::vector<std::size_t> a_at, b_at, c_at;
  std::size_t a_size = 0, b_size = 0, c_size = 0;

  explicit Group(std::vector<Problem> ps) : problems(std::move(ps)) {
    // Each matrix starts 16 bytes (8 halves) past a 16-byte boundary plus
    // its problem's shift, after the previous one.
    auto place = [](std::size_t &size, std::size_t elements, int shift) {
      const std::size_t at = (size + 7) / 8 * 8 + shift;
      size = at + elements;
      return at;
    };
    for (const Problem &p : problems) {
      a_at.push_back(
          place(a_size, std::size_t(p.m - 1) * p.lda + p.k, p.shift));
      b_at.push_back(
          place(b_size, std::size_t(p.k - 1) * p.ldb + p.n, p.shift));
      c_at.push_back(
          place(c_size, std::size_t(p.m - 1) * p.ldc + p.n, p.shift));
    }
  }

  /// The (m, n, k) and (lda, ldb, ldc) triples the kernel reads.
  std::vector<int> sizes() const {
    std::vector<int> v;
    for (const Problem &p : problems)
      v.insert(v.end(), {p.m, p.n, p.k});
    return v;
  }
  std::vector<int> leading() const {
    std::vector<int> v;
    for (const Problem &p : problems)
      v.insert(v.end(), {p.lda, p.ldb, p.ldc});
    return v;
  }

  /// The largest k, which bounds the error of every product.
  int max_k() const {
    int k = 0;
    for (const Problem &p : problems)
      k = std::max(k, p.k);
    return k;
  }

  /// 2 m n k summed over the problems.
  double flops() const {
    double f = 0;
    for (const Problem &p : problems)
      f += 2.0 * p.m * p.n * p.k;
    return f;
  }
};

/// Each problem's C (its m x n elements, row by row, problem after problem)
/// from A and B as floats.
inline std::vector<float> grouped_gemm(const Group &g, std::span<const float> a,
                                       std::span<const float> b) {
  std::vector<float> c;
  for (std::size_t q = 0; q < g.problems.size(); ++q) {
    const Problem &p = g.problems[q];
    for (int i = 0; i < p.m; ++i)
      for (int j = 0; j < p.n; ++j) {
        double s = 0;
        for (int l = 0; l < p.k; ++l)
          s += double(a[g.a_at[q] + std::size_t(i) * p.lda + l]) *
               double(b[g.b_at[q] + std::size_t(l) * p.ldb + j]);
        c.push_back(static_cast<float>(s));
      }
  }
  return c;
}

/// The kernel's outputs, in grouped_gemm's order, from the C buffer.
template <class T>
std::vector<float> outputs(const Group &g, std::span<const T> c) {
  std::vector<float> out;
  for (std::size_t q = 0; q < g.problems.size(); ++q) {
    const Problem &p = g.problems[q];
    for (int i = 0; i < p.m; ++i)
      for (int j = 0; j < p.n; ++j)
        out.push_back(float(c[g.c_at[q] + std::size_t(i) * p.ldc + j]));
  }
  return out;
}

/// Whether every element of the C buffer outside the problems' outputs
/// still holds the poison (all-ones bits).
template <class T>
bool untouched_intact(const std::string &what, const Group &g,
                      std::span<const T> c) {
  std::vector<bool> output(c.size());
  for (std::size_t q = 0; q < g.problems.size(); ++q) {
    const Problem &p = g.problems[q];
    for (int i = 0; i < p.m; ++i)
      for (int j = 0; j < p.n; ++j)
        output[g.c_at[q] + std::size_t(i) * p.ldc + j] = true;
  }
  for (std::size_t e = 0; e < c.size(); ++e) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &c[e], sizeof(T));
    bool poison = true;
    for (unsigned char byte : bytes)
      poison &= byte == 0xff;
    if (!output[e] && !poison) {
      std::printf("FAIL: %s: element %zu of C, outside every output, was "
                  "written\n",
                  what.c_str(), e);
      return false;
    }
  }
  return true;
}

/// fp32 accumulation of products of fp16 inputs in [-1, 1], then one
/// rounding to fp16 (matmul's tolerance).
struct Tolerance {
  double abs, rel;
};
inline Tolerance tolerance(int k) {
  return {1e-2 * std::sqrt(k / 9.0 + 1.0), 1e-2};
}

} // namespace reference

#endif // SAMPLES_GROUPED_GEMM_REFERENCE_HPP
