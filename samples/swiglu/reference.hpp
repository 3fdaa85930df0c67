// swiglu's reference: SwiGLU and GeGLU (tanh GELU), forward and backward by
// the analytic derivatives, in double.
#ifndef SAMPLES_SWIGLU_REFERENCE_HPP
#define SAMPLES_SWIGLU_REFERENCE_HPP

#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace reference {

/// The activation of a and its derivative.
struct Activation {
  double value, slope;
};
inline Activation activation(double a, bool gelu) {
  if (gelu) {
    const double k = std::sqrt(2 / M_PI), u = k * (a + 0.044715 * a * a * a);
    const double t = std::tanh(u);
    return {0.5 * a * (1 + t), 0.5 * (1 + t) + 0.5 * a * (1 - t * t) * k *
                                                   (1 + 3 * 0.044715 * a * a)};
  }
  const double s = 1 / (1 + std::exp(-a));
  return {a * s, s * (1 + a * (1 - s))};
}

struct Glu {
  std::vector<float> c, da, db;
};

/// c = act(a) b, and the gradients given dc.
inline Glu glu(std::span<const float> a, std::span<const float> b,
               std::span<const float> dc, bool gelu) {
  Glu out{std::vector<float>(a.size()), std::vector<float>(a.size()),
          std::vector<float>(a.size())};
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Activation f = activation(a[i], gelu);
    out.c[i] = float(f.value * b[i]);
    out.da[i] = float(double(dc[i]) * b[i] * f.slope);
    out.db[i] = float(double(dc[i]) * f.value);
  }
  return out;
}

/// fp32 arithmetic (exp and tanh within a few fp32 ulps) rounded once to
/// bf16 or fp16: 2 ulps of the output relative, and absolute at the scale
/// of the values (|a|, |b|, |dc| <= 4), where products cancel to near zero.
struct Tolerance {
  double abs, rel;
};
inline Tolerance tolerance(bool bf16) {
  const double ulp = bf16 ? 0x1p-8 : 0x1p-11;
  return {1e-5, 2 * ulp};
}

} // namespace reference

#endif // SAMPLES_SWIGLU_REFERENCE_HPP
