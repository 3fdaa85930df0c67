// tile::rt element types and conversions shared by CUDA and HIP output.
#pragma once

#if defined(__HIPCC__)
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#else
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#endif
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tile::rt {

#if defined(__HIPCC__)
using f16 = __half;
using bf16 = hip_bfloat16;
#else
using f16 = __half;
using bf16 = __nv_bfloat16;
// 8-bit floats (CUDA only): conversions from float round to nearest even
// and saturate to the largest finite value, as tile::float8_e4m3's do.
using f8e4m3 = __nv_fp8_e4m3;
using f8e5m2 = __nv_fp8_e5m2;
#endif

template <class T> struct is_narrow_float {
  static constexpr bool value = false;
};
template <> struct is_narrow_float<f16> { static constexpr bool value = true; };
template <> struct is_narrow_float<bf16> {
  static constexpr bool value = true;
};
#if !defined(__HIPCC__)
template <> struct is_narrow_float<f8e4m3> {
  static constexpr bool value = true;
};
template <> struct is_narrow_float<f8e5m2> {
  static constexpr bool value = true;
};
#endif

/// A host's tile::half, tile::bfloat16 or 8-bit float as the device type of
/// the same bits: a kernel's scalar argument of that type.
template <class Device, class Host> inline Device same_bits(Host x) {
  static_assert(sizeof(Device) == sizeof(Host));
  Device d;
  std::memcpy(static_cast<void *>(&d), &x, sizeof d);
  return d;
}

/// x's bits as a To of the same width (tile::bitcast).
template <class To, class From> __device__ __forceinline__ To bitcast(From x) {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(static_cast<void *>(&t), &x, sizeof t);
  return t;
}

/// x rounded to odd in float: truncated toward zero, the last bit set when
/// anything was dropped. Rounding that to a format at least two bits
/// narrower gives what rounding x once would, where a plain conversion to
/// float first would round twice.
__device__ __forceinline__ float round_to_odd_float(double x) {
  float f = static_cast<float>(x);
  const double back = static_cast<double>(f);
  if (back == x || x != x)
    return f;
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  if (fabs(back) > fabs(x))
    --bits; // f rounded away from zero: its neighbour toward zero.
  bits |= 1;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

template <class I> __device__ __forceinline__ float round_to_odd_float(I x) {
  bool negative = false;
  auto mag = static_cast<unsigned long long>(x);
  if constexpr (std::is_signed_v<I>) {
    negative = x < 0;
    if (negative)
      mag = 0 - mag; // Unsigned negation keeps the most negative value exact.
  }
  // float's significand holds 24 bits; the rest are dropped, sticky.
  const int dropped = 40 - __clzll(static_cast<long long>(mag));
  if (dropped > 0) {
    const unsigned long long rest = mag & ((1ull << dropped) - 1);
    mag = (mag >> dropped) | (rest != 0);
  }
  const float f = ldexpf(static_cast<float>(mag), dropped > 0 ? dropped : 0);
  return negative ? -f : f;
}

/// The float a narrow float is rounded from: x itself when float holds it
/// exactly, x rounded to odd when it may not (double, integers of 32 bits
/// and more).
template <class From> __device__ __forceinline__ float float_to_narrow(From x) {
  if constexpr (__is_same(From, double) ||
                (std::is_integral_v<From> && sizeof(From) >= 4))
    return round_to_odd_float(x);
  else
    return static_cast<float>(x);
}

/// x truncated toward zero to the integer type To, saturating at its
/// bounds: cvt.rzi saturates at 32 and 64 bits; narrower types clamp the
/// 32-bit result, as the emulation saturates at their own bounds.
template <class To, class From>
__device__ __forceinline__ To truncate_to_integer(From x) {
  if constexpr (sizeof(To) >= 4) {
    return static_cast<To>(x);
  } else {
    constexpr int bits = 8 * sizeof(To);
    if constexpr (std::is_signed_v<To>) {
      constexpr int hi = (1 << (bits - 1)) - 1;
      const int w = static_cast<int>(x);
      return static_cast<To>(w < -hi - 1 ? -hi - 1 : w > hi ? hi : w);
    } else {
      constexpr unsigned hi = (1u << bits) - 1;
      const unsigned w = static_cast<unsigned>(x);
      return static_cast<To>(w > hi ? hi : w);
    }
  }
}

/// Element conversion with Triton's rules: half, bfloat16 and the 8-bit
/// floats round once to nearest even (float_to_narrow), anything to bool is
/// `!= 0`, float to integer truncates toward zero and saturates (NaN: 0),
/// integers and pointers convert through their address bits (tutorial 08's
/// pointer arrays passed as int64).
template <class To, class From> __device__ __forceinline__ To convert(From x) {
  if constexpr (std::is_pointer_v<To> && std::is_pointer_v<From>) {
    return reinterpret_cast<To>(reinterpret_cast<std::uintptr_t>(x));
  } else if constexpr (std::is_pointer_v<To>) {
    return reinterpret_cast<To>(static_cast<std::uintptr_t>(x));
  } else if constexpr (std::is_pointer_v<From> && !__is_same(To, bool)) {
    return static_cast<To>(reinterpret_cast<std::uintptr_t>(x));
  } else if constexpr (is_narrow_float<From>::value) {
    return convert<To>(static_cast<float>(x));
  } else if constexpr (is_narrow_float<To>::value) {
    return To(float_to_narrow(x));
  } else if constexpr (__is_same(To, bool)) {
    return x != From(0);
  } else if constexpr (std::is_integral_v<To> &&
                       std::is_floating_point_v<From>) {
    // NaN gives 0, as in the emulation; cvt.rzi gives 0 only from float
    // to 32-bit integers, the most negative value otherwise.
    return x != x ? To(0) : truncate_to_integer<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

#if !defined(__HIPCC__)
/// lo and hi, floats, converted to the 8-bit float To as convert does, by
/// one instruction for the pair (cvt.rn.satfinite.e4m3x2.f32 and its e5m2
/// form) where a conversion each would take two.
template <class To>
__device__ __forceinline__ void convert_pair(To &out_lo, To &out_hi, float lo,
                                             float hi) {
  static_assert(__is_same(To, f8e4m3) || __is_same(To, f8e5m2),
                "an 8-bit float");
  const __nv_fp8x2_storage_t pair =
      __nv_cvt_float2_to_fp8x2(make_float2(lo, hi), __NV_SATFINITE,
                               __is_same(To, f8e4m3) ? __NV_E4M3 : __NV_E5M2);
  out_lo.__x = static_cast<__nv_fp8_storage_t>(pair & 0xff);
  out_hi.__x = static_cast<__nv_fp8_storage_t>(pair >> 8);
}
#endif

/// x converted to the narrower float To rounding toward zero: the
/// nearest-even conversion, or its neighbour toward zero where that rounded
/// away from zero (so an overflow to infinity gives the largest finite
/// value), as the emulation converts.
template <class To, class From>
__device__ __forceinline__ To step_toward_zero(From x) {
  To r = convert<To>(x);
  const double back = static_cast<double>(convert<float>(r)),
               exact = static_cast<double>(x);
  if (exact != exact || back == exact || fabs(back) < fabs(exact))
    return r;
  using Bits = std::conditional_t<sizeof(To) == 2, unsigned short, unsigned>;
  Bits bits;
  std::memcpy(&bits, &r, sizeof bits);
  --bits;
  std::memcpy(static_cast<void *>(&r), &bits, sizeof bits);
  return r;
}

/// tile::cast<To, tile::rounding::rtz>: float to half or bfloat16, double
/// to float in one cvt.rz; otherwise (and on AMD GPUs) step_toward_zero.
template <class To, class From>
__device__ __forceinline__ To convert_toward_zero(From x) {
#if defined(__HIPCC__)
  return step_toward_zero<To>(x);
#else
  if constexpr (__is_same(From, float) && __is_same(To, f16))
    return __float2half_rz(x);
  else if constexpr (__is_same(From, float) && __is_same(To, bf16))
    return __float2bfloat16_rz(x);
  else if constexpr (__is_same(From, double) && __is_same(To, float))
    return __double2float_rz(x);
  else
    return step_toward_zero<To>(x);
#endif
}

} // namespace tile::rt
