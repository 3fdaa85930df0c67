// Division of 32-bit integers by a divisor known only at run time but the
// same for many divisions (a kernel argument divided into every element of
// a tile, loop after loop): Granlund and Montgomery's multiply and shift
// ("Division by invariant integers using multiplication", PLDI'94, section
// 4). Made once, the divisor turns each division into a multiply-high, two
// adds and two shifts, where the GPU's `/` and `%` refine a reciprocal and
// correct the quotient every time. Host and device alike, so that the
// unit tests check the device's arithmetic.
#pragma once

#include "mulhi.hpp"

#include <cstdint>

namespace tile::detail {

/// An int or unsigned divisor d, ready to divide by. C's rules: the quotient
/// is truncated toward zero and the remainder takes the dividend's sign. A
/// divisor of zero divides as one would (the result of dividing by zero is
/// unspecified, as for `/`), so that making it is never undefined.
template <class T> struct divisor {
  static_assert(sizeof(T) == 4, "a 32-bit int or unsigned divisor");

  T d;
  std::uint32_t magic;  // floor(2^32 (2^l - |d|) / |d|) + 1, l = ceil(log2 |d|)
  std::uint32_t shift1; // min(l, 1)
  std::uint32_t shift2; // max(l - 1, 0)

  TILE_HOST_DEVICE_FUNCTION explicit divisor(T value) : d(value) {
    const std::uint32_t a = magnitude(value == 0 ? T(1) : value);
    std::uint32_t l = 0;
    while (l < 32 && (std::uint64_t(1) << l) < a)
      ++l;
    magic = std::uint32_t(
        ((std::uint64_t(1) << 32) * ((std::uint64_t(1) << l) - a)) / a + 1);
    shift1 = l < 1 ? l : 1;
    shift2 = l > 1 ? l - 1 : 0;
  }

  /// |v| as unsigned: 2^31 for INT_MIN.
  TILE_HOST_DEVICE_FUNCTION static std::uint32_t magnitude(T v) {
    if constexpr (T(-1) < T(0))
      return v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v);
    else
      return v;
  }

  /// n / d, truncated toward zero.
  TILE_HOST_DEVICE_FUNCTION T quotient(T n) const {
    const std::uint32_t u = magnitude(n);
    const std::uint32_t t = mulhi32(magic, u);
    const std::uint32_t q = (t + ((u - t) >> shift1)) >> shift2;
    if constexpr (T(-1) < T(0))
      return (n < 0) != (d < 0) ? T(0u - q) : T(q);
    else
      return q;
  }

  /// n % d, with n's sign.
  TILE_HOST_DEVICE_FUNCTION T remainder(T n) const {
    return T(std::uint32_t(n) - std::uint32_t(quotient(n)) * std::uint32_t(d));
  }
};

} // namespace tile::detail
