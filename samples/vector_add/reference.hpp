// vector_add's reference: out = x + y.
#ifndef SAMPLES_VECTOR_ADD_REFERENCE_HPP
#define SAMPLES_VECTOR_ADD_REFERENCE_HPP

#include <cstddef>
#include <span>
#include <vector>

namespace reference {

/// Adds in double and rounds once to float. That equals the correctly
/// rounded float sum (double has at least 2 * 24 + 2 significand bits, so
/// rounding twice is harmless), so the kernel must match it exactly.
inline std::vector<float> vector_add(std::span<const float> x,
                                     std::span<const float> y) {
  std::vector<float> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = static_cast<float>(double(x[i]) + double(y[i]));
  return out;
}

} // namespace reference

#endif // SAMPLES_VECTOR_ADD_REFERENCE_HPP
