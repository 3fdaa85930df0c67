//===- tile/types.hpp - 16- and 8-bit floating-point scalar types ---*- C++
//-*-===//
//
// tile::half (IEEE binary16), tile::bfloat16 and the 8-bit floats
// tile::float8_e4m3 and tile::float8_e5m2 as plain structs, so that host
// references and the emulation can use them without a GPU toolkit. Each holds
// only its bit pattern, which keeps a tile::half* interchangeable with a
// __half* (and a tile::float8_e4m3* with a __nv_fp8_e4m3*) in generated code.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TYPES_HPP
#define TILE_TYPES_HPP

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tile {
namespace detail {

/// Shifts right by S bits, rounding to nearest with ties to even. S may exceed
/// the width of V, which happens for values far below the smallest subnormal.
inline std::uint64_t shift_right_rne(std::uint64_t v, int s) {
  if (s == 0)
    return v;
  if (s > 64)
    return 0;
  std::uint64_t q = s == 64 ? 0 : v >> s;
  std::uint64_t rem = s == 64 ? v : v & ((std::uint64_t{1} << s) - 1);
  std::uint64_t halfway = std::uint64_t{1} << (s - 1);
  if (rem > halfway || (rem == halfway && (q & 1)))
    ++q;
  return q;
}

/// Conversions for a binary format with ExpBits exponent and MantBits stored
/// mantissa bits. Every conversion rounds once, straight from the exact source
/// value: going through float first would round twice for double and 64-bit
/// integer sources.
template <int ExpBits, int MantBits> struct float16_format {
  static constexpr int bias = (1 << (ExpBits - 1)) - 1;
  static constexpr std::uint16_t sign_bit = 0x8000;
  static constexpr std::uint16_t inf_bits = ((1u << ExpBits) - 1) << MantBits;
  static constexpr std::uint16_t nan_bits = inf_bits | (1u << (MantBits - 1));

  /// Encodes sig * 2^exp (sig != 0) without its sign.
  static std::uint16_t encode_magnitude(std::uint64_t sig, int exp) {
    int msb = 63 - __builtin_clzll(sig);
    int e = msb + exp; // The value lies in [2^e, 2^(e+1)).
    if (e > bias)
      return inf_bits;
    constexpr int min_normal_exp = 1 - bias;
    int shift = e >= min_normal_exp ? msb - MantBits
                                    : (min_normal_exp - MantBits) - exp;
    std::uint64_t m = shift >= 0 ? shift_right_rne(sig, shift) : sig << -shift;
    if (e < min_normal_exp)
      return static_cast<std::uint16_t>(m); // A carry yields the min normal.
    // m keeps its leading one, which bumps the exponent field by one; a
    // rounding carry into bit MantBits + 1 bumps it once more, up to inf.
    std::uint64_t bits =
        (static_cast<std::uint64_t>(e + bias - 1) << MantBits) + m;
    return bits >= inf_bits ? inf_bits : static_cast<std::uint16_t>(bits);
  }

  static std::uint16_t from_double(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    auto sign = static_cast<std::uint16_t>(b >> 63 ? sign_bit : 0);
    int field = static_cast<int>((b >> 52) & 0x7ff);
    std::uint64_t frac = b & ((std::uint64_t{1} << 52) - 1);
    if (field == 0x7ff)
      return sign | (frac ? nan_bits : inf_bits);
    if (field == 0 && frac == 0)
      return sign;
    std::uint64_t sig = field ? frac | (std::uint64_t{1} << 52) : frac;
    int exp = (field ? field : 1) - 1075;
    return sign | encode_magnitude(sig, exp);
  }

  template <class I> static std::uint16_t from_integer(I v) {
    if (v == 0)
      return 0;
    bool negative = false;
    if constexpr (std::is_signed_v<I>)
      negative = v < 0;
    // Negating in unsigned arithmetic keeps the most negative value exact.
    auto mag = static_cast<std::uint64_t>(v);
    if (negative)
      mag = 0 - mag;
    return static_cast<std::uint16_t>((negative ? sign_bit : 0) |
                                      encode_magnitude(mag, 0));
  }

  /// Every value of both formats is exactly representable as a float.
  static float to_float(std::uint16_t bits) {
    std::uint32_t sign = static_cast<std::uint32_t>(bits & sign_bit) << 16;
    std::uint32_t field = (bits >> MantBits) & ((1u << ExpBits) - 1);
    std::uint32_t frac = bits & ((1u << MantBits) - 1);
    std::uint32_t out;
    if (field == (1u << ExpBits) - 1) {
      out = sign | 0x7f800000u | (frac << (23 - MantBits));
    } else if (field == 0) {
      float mag = std::ldexp(static_cast<float>(frac), 1 - bias - MantBits);
      return sign ? -mag : mag;
    } else {
      out = sign | ((field - bias + 127) << 23) | (frac << (23 - MantBits));
    }
    float f;
    std::memcpy(&f, &out, sizeof f);
    return f;
  }
};

} // namespace detail

/// IEEE 754 binary16: 5 exponent bits, 10 mantissa bits.
struct half {
  using format = detail::float16_format<5, 10>;
  std::uint16_t bits;

  half() = default;
  half(float v) : bits(format::from_double(v)) {}
  half(double v) : bits(format::from_double(v)) {}
  template <class I>
  requires std::is_integral_v<I> half(I v) : bits(format::from_integer(v)) {}

  static half from_bits(std::uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  operator float() const { return format::to_float(bits); }
};

/// bfloat16: the upper half of a float, 8 exponent bits, 7 mantissa bits.
struct bfloat16 {
  using format = detail::float16_format<8, 7>;
  std::uint16_t bits;

  bfloat16() = default;
  bfloat16(float v) : bits(format::from_double(v)) {}
  bfloat16(double v) : bits(format::from_double(v)) {}
  template <class I>
  requires std::is_integral_v<I> bfloat16(I v)
      : bits(format::from_integer(v)) {}

  static bfloat16 from_bits(std::uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
  operator float() const { return format::to_float(bits); }
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half>);
static_assert(sizeof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16>);

namespace detail {

/// Conversions for an 8-bit float with ExpBits exponent and MantBits
/// mantissa bits whose largest finite magnitude is encoded as MaxBits, and
/// whose next encoding is infinity if HasInfinity.
/// Conversions round to nearest even and saturate to the largest finite
/// value (infinities too), as the GPU's cvt.rn.satfinite does and as
/// Triton's casts to fp8 do; NaN stays NaN (0x7f, NaN in both formats).
template <int ExpBits, int MantBits, std::uint8_t MaxBits, bool HasInfinity>
struct float8_format {
  static constexpr int bias = (1 << (ExpBits - 1)) - 1;
  static constexpr int min_normal_exp = 1 - bias;
  static constexpr std::uint8_t nan_bits = 0x7f;

  /// The magnitude that bits (sign cleared) encode, for finite encodings.
  static double magnitude(std::uint8_t bits) {
    int field = bits >> MantBits, frac = bits & ((1 << MantBits) - 1);
    if (field == 0)
      return std::ldexp(frac, min_normal_exp - MantBits);
    return std::ldexp((1 << MantBits) + frac, field - bias - MantBits);
  }

  static std::uint8_t from_double(double v) {
    if (std::isnan(v))
      return nan_bits;
    std::uint8_t sign = std::signbit(v) ? 0x80 : 0;
    double a = std::fabs(v);
    if (a >= magnitude(MaxBits))
      return sign | MaxBits;
    if (a == 0)
      return sign;
    // Rounds a to a multiple of the spacing of its binade (subnormals
    // share the smallest normal binade's); dividing by a power of two is
    // exact and nearbyint rounds ties to even.
    int exp = std::ilogb(a);
    if (exp < min_normal_exp)
      exp = min_normal_exp;
    double q = std::nearbyint(std::ldexp(a, MantBits - exp));
    // q has MantBits + 1 bits, or one more after a carry into the next
    // binade; q < 2^MantBits only for subnormals.
    if (q < (1 << MantBits))
      return sign | static_cast<std::uint8_t>(q);
    int e = exp + (q >= (2 << MantBits) ? 1 : 0);
    int frac = static_cast<int>(std::ldexp(q, exp - e)) - (1 << MantBits);
    return sign | static_cast<std::uint8_t>((e + bias) << MantBits | frac);
  }

  static float to_float(std::uint8_t bits) {
    std::uint8_t mag = bits & 0x7f;
    bool negative = bits & 0x80;
    if (mag > MaxBits) {
      // Past the largest finite value: one infinity right after it where
      // the format has infinities (e5m2, as IEEE), NaNs after that.
      if (HasInfinity && mag == MaxBits + 1)
        return negative ? -INFINITY : INFINITY;
      return NAN;
    }
    float f = static_cast<float>(magnitude(mag));
    return negative ? -f : f;
  }
};

using e4m3_format = float8_format<4, 3, 0x7e, false>;
using e5m2_format = float8_format<5, 2, 0x7b, true>;

} // namespace detail

/// Declares an 8-bit float struct Name over Format.
#define TILE_FLOAT8_TYPE(Name, Format)                                         \
  struct Name {                                                                \
    using format = Format;                                                     \
    std::uint8_t bits;                                                         \
                                                                               \
    Name() = default;                                                          \
    explicit Name(double v) : bits(format::from_double(v)) {}                  \
    template <class I>                                                         \
    requires std::is_integral_v<I>                                             \
    explicit Name(I v) : bits(format::from_double(static_cast<double>(v))) {}  \
                                                                               \
    static Name from_bits(std::uint8_t b) {                                    \
      Name h;                                                                  \
      h.bits = b;                                                              \
      return h;                                                                \
    }                                                                          \
    operator float() const { return format::to_float(bits); }                  \
  }

/// OCP FP8 E4M3 (Triton's float8e4nv, CUDA's __nv_fp8_e4m3): 4 exponent
/// bits, 3 mantissa bits, no infinities, largest finite value 448.
TILE_FLOAT8_TYPE(float8_e4m3, detail::e4m3_format);
/// OCP FP8 E5M2 (Triton's float8e5, CUDA's __nv_fp8_e5m2): 5 exponent
/// bits, 2 mantissa bits, largest finite value 57344.
TILE_FLOAT8_TYPE(float8_e5m2, detail::e5m2_format);
#undef TILE_FLOAT8_TYPE

static_assert(sizeof(float8_e4m3) == 1 &&
              std::is_trivially_copyable_v<float8_e4m3>);
static_assert(sizeof(float8_e5m2) == 1 &&
              std::is_trivially_copyable_v<float8_e5m2>);

namespace detail {

template <class T>
inline constexpr bool is_float16_v =
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

/// 8-bit floats are for storage and dot: loaded, stored, cast and
/// multiplied, but not computed with (cast them to float first).
template <class T>
inline constexpr bool is_float8_v =
    std::is_same_v<T, float8_e4m3> || std::is_same_v<T, float8_e5m2>;

template <class A, class B>
concept float16_arithmetic = (is_float16_v<A> || is_float16_v<B>)&&(
    is_float16_v<A> || std::is_arithmetic_v<A>)&&(is_float16_v<B> ||
                                                  std::is_arithmetic_v<B>);

/// Host arithmetic follows C++'s extended floating-point types: the same
/// 16-bit type stays itself, an integer operand adopts the 16-bit type, and
/// float, double or the other 16-bit type widen the result to a wider float.
template <class A, class B> constexpr auto float16_result() {
  if constexpr (std::is_same_v<A, B>)
    return std::type_identity<A>{};
  else if constexpr (std::is_integral_v<A>)
    return std::type_identity<B>{};
  else if constexpr (std::is_integral_v<B>)
    return std::type_identity<A>{};
  else if constexpr (std::is_same_v<A, double> || std::is_same_v<B, double>)
    return std::type_identity<double>{};
  else
    return std::type_identity<float>{};
}

template <class A, class B>
using float16_result_t = typename decltype(float16_result<A, B>())::type;

/// Widens a 16-bit operand to float; leaves other scalars alone.
template <class T> auto widen(T v) {
  if constexpr (is_float16_v<T>)
    return static_cast<float>(v);
  else
    return v;
}

} // namespace detail

// The operators are templates so that they beat the built-in candidates,
// which would need a user-defined conversion and make mixed expressions such
// as `h * 2` ambiguous.
template <class A, class B>
requires detail::float16_arithmetic<A, B> detail::float16_result_t<A, B>
operator+(A a, B b) {
  using R = detail::float16_result_t<A, B>;
  return R(detail::widen(a) + detail::widen(b));
}

template <class A, class B>
requires detail::float16_arithmetic<A, B> detail::float16_result_t<A, B>
operator-(A a, B b) {
  using R = detail::float16_result_t<A, B>;
  return R(detail::widen(a) - detail::widen(b));
}

template <class A, class B>
requires detail::float16_arithmetic<A, B> detail::float16_result_t<A, B>
operator*(A a, B b) {
  using R = detail::float16_result_t<A, B>;
  return R(detail::widen(a) * detail::widen(b));
}

template <class A, class B>
requires detail::float16_arithmetic<A, B> detail::float16_result_t<A, B>
operator/(A a, B b) {
  using R = detail::float16_result_t<A, B>;
  return R(detail::widen(a) / detail::widen(b));
}

template <class A, class B>
requires detail::float16_arithmetic<A, B> && detail::is_float16_v<A> A &
operator+=(A &a, B b) {
  return a = A(a + b);
}

template <class A, class B>
requires detail::float16_arithmetic<A, B> && detail::is_float16_v<A> A &
operator-=(A &a, B b) {
  return a = A(a - b);
}

template <class A, class B>
requires detail::float16_arithmetic<A, B> && detail::is_float16_v<A> A &
operator*=(A &a, B b) {
  return a = A(a * b);
}

template <class A, class B>
requires detail::float16_arithmetic<A, B> && detail::is_float16_v<A> A &
operator/=(A &a, B b) {
  return a = A(a / b);
}

/// Negation flips the sign bit, exactly as the hardware does, NaN included.
template <class A>
requires detail::is_float16_v<A> A operator-(A a) {
  return A::from_bits(static_cast<std::uint16_t>(a.bits ^ 0x8000));
}

/// A tensor in memory as the host passes it to a kernel's
/// tile::tensor_descriptor parameter (Triton's host-made TensorDescriptor):
/// base, shape and strides in elements, the last stride 1. The kernel's
/// parameter type names the box each access moves (it may differ between
/// configurations); the launch wrapper takes this, for any box.
template <class T, int Rank> struct host_tensor_descriptor {
  static_assert(Rank >= 1 && Rank <= 5, "descriptors have 1 to 5 dimensions");
  T *base;
  int shape[Rank];
  int strides[Rank];
};

namespace detail {

/// Whether a descriptor's last stride is 1, no extent is negative and its
/// elements lie within 2^31 of its base (the kernel's offsets are 32-bit).
template <class T, int Rank>
bool descriptor_fits(const host_tensor_descriptor<T, Rank> &d) {
  std::int64_t last = 0, first = 0;
  for (int i = 0; i < Rank; ++i) {
    if (d.shape[i] < 0)
      return false;
    const std::int64_t reach = std::int64_t(d.shape[i] - 1) * d.strides[i];
    (reach > 0 ? last : first) += d.shape[i] > 0 ? reach : 0;
  }
  return d.strides[Rank - 1] == 1 && last <= INT32_MAX && first >= INT32_MIN;
}

} // namespace detail

} // namespace tile

#endif // TILE_TYPES_HPP
