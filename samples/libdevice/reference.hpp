// libdevice's reference: asin in double, rounded once to float.
#ifndef SAMPLES_LIBDEVICE_REFERENCE_HPP
#define SAMPLES_LIBDEVICE_REFERENCE_HPP

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace reference {

inline std::vector<float> libdevice_asin(std::span<const float> x) {
  std::vector<float> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    y[i] = static_cast<float>(std::asin(double(x[i])));
  return y;
}

/// CUDA's asinf is within 2 ulp of the exact value (the CUDA C Programming
/// Guide's table of single-precision functions), the C library's within 1:
/// with the reference's own rounding, 2.5 ulp, relative.
inline constexpr double libdevice_asin_rel_tol = 2.5 * FLT_EPSILON;

} // namespace reference

#endif // SAMPLES_LIBDEVICE_REFERENCE_HPP
