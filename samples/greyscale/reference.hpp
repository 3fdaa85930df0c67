// greyscale's reference: grey = 0.2989 r + 0.5870 g + 0.1140 b over planar
// RGB [3, h, w].
#ifndef SAMPLES_GREYSCALE_REFERENCE_HPP
#define SAMPLES_GREYSCALE_REFERENCE_HPP

#include <cfloat>
#include <cstddef>
#include <span>
#include <vector>

namespace reference {

/// Computes in double with the exact decimal weights, rounds once to float.
inline std::vector<float> greyscale(std::span<const float> rgb, int h, int w) {
  std::size_t plane = std::size_t(h) * std::size_t(w);
  std::vector<float> grey(plane);
  for (std::size_t i = 0; i < plane; ++i)
    grey[i] = static_cast<float>(0.2989 * rgb[i] + 0.5870 * rgb[plane + i] +
                                 0.1140 * rgb[2 * plane + i]);
  return grey;
}

/// The kernel rounds the weights to float, then each product and sum (or
/// fuses them into FMAs): with non-negative pixels nothing cancels, and the
/// errors, half an ulp each, add up to less than 3 FLT_EPSILON relative.
inline constexpr double greyscale_rel_tol = 3 * FLT_EPSILON;

} // namespace reference

#endif // SAMPLES_GREYSCALE_REFERENCE_HPP
