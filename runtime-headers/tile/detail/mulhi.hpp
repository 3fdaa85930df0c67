// The high word of a 32-bit product, host and device alike, and how such
// functions are declared: for the parts of the runtime that the CPU
// emulation or the unit tests run too (Philox, multiply-and-shift divisors).
#pragma once

#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define TILE_HOST_DEVICE_FUNCTION __host__ __device__ __forceinline__
#else
#define TILE_HOST_DEVICE_FUNCTION inline
#endif

namespace tile::detail {

/// The high word of a * b: mul.hi on the GPU, which (unlike the high half
/// of a widening multiply by an immediate of 2^31 or more) needs no
/// correcting add.
TILE_HOST_DEVICE_FUNCTION std::uint32_t mulhi32(std::uint32_t a,
                                                std::uint32_t b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __umulhi(a, b);
#else
  return std::uint32_t(std::uint64_t(a) * b >> 32);
#endif
}

} // namespace tile::detail
