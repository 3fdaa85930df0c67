// Elementwise math with Triton's semantics. exp/log/sqrt take float or
// double (the translator inserts casts for narrower types, as Triton makes
// the user do); the float versions are the fast hardware approximations
// Triton uses.
#pragma once

#include "tile/detail/divisor.hpp"
#include "tile/detail/exp2_cubic.hpp"
#include "tile/rt/types.cuh"

namespace tile::rt {

__device__ __forceinline__ float exp(float x) { return __expf(x); }
__device__ __forceinline__ double exp(double x) { return ::exp(x); }
/// One MUFU.EX2, subnormal results flushed to zero (Triton's exp2; the
/// softmaxes that use it lose nothing that small).
__device__ __forceinline__ float exp2(float x) {
#if defined(__HIPCC__)
  return exp2f(x);
#else
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#endif
}
__device__ __forceinline__ double exp2(double x) { return ::exp2(x); }
/// 2^x as element e of a thread's tile: K of every 8 elements from the
/// cubic on the FMA units (tile/detail/exp2_cubic.hpp), the others one
/// MUFU.EX2, so that both units work (FlashAttention-4's split). e is a
/// constant once the loop over the thread's elements is unrolled.
template <int K> __device__ __forceinline__ float exp2_cubic(int e, float x) {
  return e % 8 < K ? detail::exp2_cubic(x) : exp2(x);
}
__device__ __forceinline__ float log(float x) { return __logf(x); }
__device__ __forceinline__ double log(double x) { return ::log(x); }
__device__ __forceinline__ float log2(float x) { return __log2f(x); }
__device__ __forceinline__ double log2(double x) { return ::log2(x); }
__device__ __forceinline__ float sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double sqrt(double x) { return ::sqrt(x); }
__device__ __forceinline__ float rsqrt(float x) { return rsqrtf(x); }
__device__ __forceinline__ double rsqrt(double x) { return ::rsqrt(x); }
__device__ __forceinline__ float sin(float x) { return __sinf(x); }
__device__ __forceinline__ double sin(double x) { return ::sin(x); }
__device__ __forceinline__ float cos(float x) { return __cosf(x); }
__device__ __forceinline__ double cos(double x) { return ::cos(x); }
__device__ __forceinline__ float floor(float x) { return floorf(x); }
__device__ __forceinline__ double floor(double x) { return ::floor(x); }
__device__ __forceinline__ float ceil(float x) { return ceilf(x); }
__device__ __forceinline__ double ceil(double x) { return ::ceil(x); }
__device__ __forceinline__ float erf(float x) { return erff(x); }
__device__ __forceinline__ double erf(double x) { return ::erf(x); }
__device__ __forceinline__ float tanh(float x) { return tanhf(x); }
__device__ __forceinline__ double tanh(double x) { return ::tanh(x); }
// libdevice's (and ocml's) accurate functions, as tl.extra.libdevice calls
// them: float and double forms of one name.
#define TILE_RT_LIBM_UNARY(NAME)                                               \
  __device__ __forceinline__ float NAME(float x) { return ::NAME##f(x); }      \
  __device__ __forceinline__ double NAME(double x) { return ::NAME(x); }
#define TILE_RT_LIBM_BINARY(NAME)                                              \
  __device__ __forceinline__ float NAME(float x, float y) {                    \
    return ::NAME##f(x, y);                                                    \
  }                                                                            \
  __device__ __forceinline__ double NAME(double x, double y) {                 \
    return ::NAME(x, y);                                                       \
  }
TILE_RT_LIBM_UNARY(tan)
TILE_RT_LIBM_UNARY(asin)
TILE_RT_LIBM_UNARY(acos)
TILE_RT_LIBM_UNARY(atan)
TILE_RT_LIBM_UNARY(sinh)
TILE_RT_LIBM_UNARY(cosh)
TILE_RT_LIBM_UNARY(asinh)
TILE_RT_LIBM_UNARY(acosh)
TILE_RT_LIBM_UNARY(atanh)
TILE_RT_LIBM_UNARY(log10)
TILE_RT_LIBM_UNARY(log1p)
TILE_RT_LIBM_UNARY(expm1)
TILE_RT_LIBM_UNARY(cbrt)
TILE_RT_LIBM_UNARY(erfc)
TILE_RT_LIBM_UNARY(erfinv)
TILE_RT_LIBM_UNARY(trunc)
TILE_RT_LIBM_UNARY(rint)
TILE_RT_LIBM_UNARY(round)
TILE_RT_LIBM_BINARY(atan2)
TILE_RT_LIBM_BINARY(hypot)
TILE_RT_LIBM_BINARY(copysign)
#undef TILE_RT_LIBM_UNARY
#undef TILE_RT_LIBM_BINARY

/// IEEE round-to-nearest square root and quotient (tl.sqrt_rn, tl.div_rn).
__device__ __forceinline__ float sqrt_rn(float x) { return __fsqrt_rn(x); }
__device__ __forceinline__ double sqrt_rn(double x) { return ::sqrt(x); }
__device__ __forceinline__ float div_rn(float a, float b) {
  return __fdiv_rn(a, b);
}
__device__ __forceinline__ double div_rn(double a, double b) { return a / b; }

/// The high half of the full product (tl.umulhi).
__device__ __forceinline__ int umulhi(int a, int b) { return __mulhi(a, b); }
__device__ __forceinline__ unsigned umulhi(unsigned a, unsigned b) {
  return __umulhi(a, b);
}
__device__ __forceinline__ std::int64_t umulhi(std::int64_t a, std::int64_t b) {
  return __mul64hi(a, b);
}
__device__ __forceinline__ std::uint64_t umulhi(std::uint64_t a,
                                                std::uint64_t b) {
  return __umul64hi(a, b);
}

__device__ __forceinline__ float pow(float x, float y) { return powf(x, y); }
__device__ __forceinline__ double pow(double x, double y) {
  return ::pow(x, y);
}
template <class T> __device__ __forceinline__ T sigmoid(T x) {
  return T(1) / (T(1) + exp(-x));
}
__device__ __forceinline__ float fma(float a, float b, float c) {
  return fmaf(a, b, c);
}
__device__ __forceinline__ double fma(double a, double b, double c) {
  return ::fma(a, b, c);
}
template <class T> __device__ __forceinline__ T fma(T a, T b, T c) {
  return a * b + c;
}

template <class T> __device__ __forceinline__ T abs(T x) {
  if constexpr (is_narrow_float<T>::value)
    return T(fabsf(static_cast<float>(x)));
  else if constexpr (__is_same(T, float))
    return fabsf(x);
  else if constexpr (__is_same(T, double))
    return ::fabs(x);
  else if constexpr (T(-1) < T(0))
    return x < 0 ? T(-x) : x;
  else
    return x;
}

/// IEEE maxNum/minNum: a NaN operand is ignored.
template <class T> __device__ __forceinline__ T maximum(T a, T b) {
  if constexpr (is_narrow_float<T>::value)
    return T(fmaxf(static_cast<float>(a), static_cast<float>(b)));
  else if constexpr (__is_same(T, float))
    return fmaxf(a, b);
  else if constexpr (__is_same(T, double))
    return ::fmax(a, b);
  else
    return a < b ? b : a;
}
template <class T> __device__ __forceinline__ T minimum(T a, T b) {
  if constexpr (is_narrow_float<T>::value)
    return T(fminf(static_cast<float>(a), static_cast<float>(b)));
  else if constexpr (__is_same(T, float))
    return fminf(a, b);
  else if constexpr (__is_same(T, double))
    return ::fmin(a, b);
  else
    return b < a ? b : a;
}
template <class T> __device__ __forceinline__ T clamp(T x, T lo, T hi) {
  return minimum(maximum(x, lo), hi);
}

/// fp32 division as Triton's `/` compiles it: div.full.f32, within 2 ulp of
/// the exact quotient and several times cheaper than IEEE div.rn.
__device__ __forceinline__ float div(float a, float b) {
#if defined(__HIPCC__)
  return a / b;
#else
  float q;
  asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  return q;
#endif
}

/// C semantics: the result has the sign of the dividend.
template <class T> __device__ __forceinline__ T rem(T a, T b) {
  if constexpr (is_narrow_float<T>::value)
    return T(fmodf(static_cast<float>(a), static_cast<float>(b)));
  else if constexpr (__is_same(T, float))
    return fmodf(a, b);
  else if constexpr (__is_same(T, double))
    return ::fmod(a, b);
  else
    return a % b;
}

/// A kernel argument that divides tiles in loops, made once
/// (analysis/InvariantDivisors.h): n_bins_divisor.remainder(x) is x % n_bins.
template <class T> using divisor = tile::detail::divisor<T>;

template <class T> __device__ __forceinline__ T cdiv(T a, T b) {
  return (a + b - 1) / b;
}

} // namespace tile::rt
