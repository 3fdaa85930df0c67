// rope's reference: the rotate-half rotary embedding of q and k, and its
// backward (the rotation by -theta), in double.
#ifndef SAMPLES_ROPE_REFERENCE_HPP
#define SAMPLES_ROPE_REFERENCE_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace reference {

/// A tensor [batch, heads, seq, head_dim] with the given strides (the last
/// dimension contiguous).
struct Layout {
  int batch, heads, seq, head_dim;
  int64_t batch_stride, head_stride, seq_stride;
  std::size_t size() const {
    return std::size_t((batch - 1) * batch_stride + (heads - 1) * head_stride +
                       (seq - 1) * seq_stride + head_dim);
  }
  std::size_t at(int b, int h, int s, int d) const {
    return std::size_t(b * batch_stride + h * head_stride + s * seq_stride + d);
  }
};

/// x rotated in place of a copy: each (b, h, s) row's halves x1, x2 by the
/// cache row s; backward rotates by -theta.
inline std::vector<float> rotate(std::span<const float> x, const Layout &l,
                                 std::span<const float> cos,
                                 std::span<const float> sin, bool backward) {
  std::vector<float> out(x.begin(), x.end());
  const int h = l.head_dim / 2;
  for (int b = 0; b < l.batch; ++b)
    for (int head = 0; head < l.heads; ++head)
      for (int s = 0; s < l.seq; ++s)
        for (int d = 0; d < h; ++d) {
          const double x1 = x[l.at(b, head, s, d)],
                       x2 = x[l.at(b, head, s, d + h)];
          const double c1 = cos[s * l.head_dim + d],
                       c2 = cos[s * l.head_dim + h + d],
                       s1 = sin[s * l.head_dim + d],
                       s2 = sin[s * l.head_dim + h + d];
          out[l.at(b, head, s, d)] =
              float(backward ? x1 * c1 + x2 * s2 : x1 * c1 - x2 * s1);
          out[l.at(b, head, s, d + h)] =
              float(backward ? x2 * c2 - x1 * s1 : x2 * c2 + x1 * s2);
        }
  return out;
}

/// fp32 products of values within [-2, 2] and cos, sin within [-1, 1],
/// rounded once: 2 ulps of the output type relative, and absolute at the
/// values' scale where the two products cancel.
struct Tolerance {
  double abs, rel;
};
inline Tolerance tolerance(bool bf16) {
  const double ulp = bf16 ? 0x1p-8 : 0x1p-11;
  return {ulp, 2 * ulp};
}

} // namespace reference

#endif // SAMPLES_ROPE_REFERENCE_HPP
