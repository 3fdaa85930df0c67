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
template <> struct is_narrow_float<f16> {
  static constexpr bool value = true;
};
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

/// Element conversion with Triton's rules: half, bfloat16 and the 8-bit
/// floats go through float (rounding to nearest even), anything to bool is `!=
/// 0`, float to integer truncates toward zero.
template <class To, class From> __device__ __forceinline__ To convert(From x) {
  if constexpr (is_narrow_float<From>::value) {
    return convert<To>(static_cast<float>(x));
  } else if constexpr (is_narrow_float<To>::value) {
    return To(static_cast<float>(x));
  } else if constexpr (__is_same(To, bool)) {
    return x != From(0);
  } else {
    return static_cast<To>(x);
  }
}

} // namespace tile::rt
