//===- tile/detail/convert.hpp - Element conversions -----------*- C++ -*-===//
//
// Scalar conversion with Triton's cast semantics (inventory section 2.5). Every
// implicit conversion in the emulation (operands to their promoted type,
// stored values to the pointee type) goes through here, so it matches what
// tile::cast and the generated code do.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DETAIL_CONVERT_HPP
#define TILE_DETAIL_CONVERT_HPP

#include "promote.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace tile {
namespace detail {

/// The type that arithmetic on T is carried out in (and that 8-bit floats
/// are read as).
template <class T>
using compute_t =
    std::conditional_t<is_float16_v<T> || is_float8_v<T>, float, T>;

/// Float to integer truncates toward zero. Out-of-range values saturate and
/// NaN becomes 0, as the GPU's cvt.rzi does; C++ would leave them undefined.
template <class To> To truncate_to_integer(double v) {
  if (std::isnan(v))
    return 0;
  // Both bounds are exact doubles: max + 1 is a power of two, and for 64-bit
  // types (double)max already rounds up to it.
  constexpr double upper =
      static_cast<double>(std::numeric_limits<To>::max()) + 1.0;
  constexpr double lower =
      static_cast<double>(std::numeric_limits<To>::min()) - 1.0;
  if (v >= upper)
    return std::numeric_limits<To>::max();
  if (v <= lower)
    return std::numeric_limits<To>::min();
  return static_cast<To>(v);
}

template <class To, class From> To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (std::is_pointer_v<From>)
      return v != nullptr;
    else
      return static_cast<compute_t<From>>(v) != 0;
  } else if constexpr (std::is_pointer_v<To>) {
    static_assert(std::is_pointer_v<From> || std::is_integral_v<From>,
                  "only pointers and integers convert to pointers");
    // Going through an integer also drops const, as Triton's pointer
    // bitcasts do.
    if constexpr (std::is_pointer_v<From>)
      return reinterpret_cast<To>(reinterpret_cast<std::uintptr_t>(v));
    else
      return reinterpret_cast<To>(static_cast<std::uintptr_t>(v));
  } else if constexpr (std::is_pointer_v<From>) {
    static_assert(std::is_integral_v<To>,
                  "pointers convert only to integers and pointers");
    return static_cast<To>(reinterpret_cast<std::uintptr_t>(v));
  } else if constexpr (is_float16_v<To> || is_float8_v<To>) {
    // Narrow to narrow goes through fp32, which holds them all exactly;
    // double converts straight, rounding once.
    return To(static_cast<compute_t<From>>(v));
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(static_cast<compute_t<From>>(v));
  } else if constexpr (is_floating_v<From>) {
    return truncate_to_integer<To>(static_cast<compute_t<From>>(v));
  } else {
    // Integer narrowing wraps (C++20 defines it as modular).
    return static_cast<To>(v);
  }
}

/// v converted to the narrower float To rounding toward zero (a cast with
/// tile::rounding::rtz): the nearest-even conversion, or its neighbour
/// toward zero where that rounded away from zero, so that an overflow to
/// infinity gives the largest finite value.
template <class To, class From> To convert_toward_zero(From v) {
  To r = convert<To>(v);
  const double back = static_cast<double>(convert<float>(r)),
               exact = static_cast<double>(v);
  if (std::isnan(exact) || back == exact || std::fabs(back) < std::fabs(exact))
    return r;
  using Bits =
      std::conditional_t<sizeof(To) == 2, std::uint16_t, std::uint32_t>;
  Bits bits;
  std::memcpy(&bits, &r, sizeof bits);
  --bits;
  std::memcpy(static_cast<void *>(&r), &bits, sizeof bits);
  return r;
}

} // namespace detail
} // namespace tile

#endif // TILE_DETAIL_CONVERT_HPP
