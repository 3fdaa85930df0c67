// add_relu_mul's reference: out = relu(x + bias) * scale.
#ifndef SAMPLES_ADD_RELU_MUL_REFERENCE_HPP
#define SAMPLES_ADD_RELU_MUL_REFERENCE_HPP

#include <algorithm>
#include <cfloat>
#include <cstddef>
#include <span>
#include <vector>

namespace reference {

/// Computes in double and rounds once to float.
inline std::vector<float> add_relu_mul(std::span<const float> x,
                                       std::span<const float> bias,
                                       float scale) {
  std::vector<float> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = static_cast<float>(std::max(double(x[i]) + double(bias[i]), 0.0) *
                                double(scale));
  return out;
}

/// The kernel rounds twice in fp32 (after the add and after the multiply)
/// and the reference once, each by at most half an ulp: at most 1.5
/// FLT_EPSILON apart, relative. The relu cannot amplify that.
inline constexpr double add_relu_mul_rel_tol = 1.5 * FLT_EPSILON;

} // namespace reference

#endif // SAMPLES_ADD_RELU_MUL_REFERENCE_HPP
