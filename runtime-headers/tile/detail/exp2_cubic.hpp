// 2^x on the FMA units: the exponent's integer part goes into the result's
// exponent field and its fraction through a cubic polynomial, as
// FlashAttention-4 does for a share of a softmax's elements, so that the
// FMA units take part of the work of the one unit that computes ex2 (16
// results a cycle an SM on sm_90, against 128 fused multiply-adds). Host
// and device alike, so that the unit tests check the device's arithmetic
// and the emulation computes what the GPU does.
#pragma once

#include "mulhi.hpp"

#include <cstdint>

namespace tile::detail {

/// x with NaN kept, clamped to [lo, hi] (max.NaN and min.NaN on the GPU:
/// one instruction each).
TILE_HOST_DEVICE_FUNCTION float clamp_keeping_nan(float x, float lo, float hi) {
#if defined(__CUDA_ARCH__)
  asm("max.NaN.f32 %0, %0, %1;" : "+f"(x) : "f"(lo));
  asm("min.NaN.f32 %0, %0, %1;" : "+f"(x) : "f"(hi));
  return x;
#else
  return x != x ? x : x < lo ? lo : x > hi ? hi : x;
#endif
}

/// 2^x within a relative error of 7.5e-5 (13.7 bits: below the rounding of
/// a half, a bfloat16 or an 8-bit float) for x in [-126, 127.5); 0 below
/// -126.5 (where ex2.approx.ftz flushes too), infinity from 127.5 (within
/// a factor of 1.42 of the float range's end), NaN for NaN. Ten
/// instructions on sm_90: two clamps, three adds, three fused multiply-adds
/// (the minimax cubic of 2^f on [-1/2, 1/2], relative error), a shift and a
/// multiply.
TILE_HOST_DEVICE_FUNCTION float exp2_cubic(float x) {
  x = clamp_keeping_nan(x, -127.0f, 128.0f);
  // 1.5 * 2^23 + 127: adding it rounds x to the nearest integer j, whose
  // j + 127 (0 to 255) are then the low 9 bits of the sum's mantissa.
  constexpr float round_and_bias = 12583039.0f;
  const float shifted = x + round_and_bias;
  const float j = shifted - round_and_bias;
  const float f = x - j; // exact, in [-1/2, 1/2]
  float p = __builtin_fmaf(0.0551716691f, f, 0.242611122f);
  p = __builtin_fmaf(p, f, 0.693260985f);
  p = __builtin_fmaf(p, f, 0.999928074f);
  // 2^j: j + 127 in the exponent field (0, and so a product of 0, at
  // j = -127; infinity at j = 128).
  const float scale = __builtin_bit_cast(
      float, __builtin_bit_cast(std::uint32_t, shifted) << 23);
  return p * scale;
}

} // namespace tile::detail
