// L2 eviction priorities of single accesses (tile::evict): createpolicy makes
// a cache policy, the L2::cache_hint form of ld.global / st.global applies it.
// Spelled here rather than through libcu++'s cuda::annotated_ptr, whose header
// adds ~5 s of nvcc time to every generated kernel. sm_80 and later.
#pragma once

#include <cstdint>

namespace tile::rt::detail {

/// A policy evicting the accessed lines first (streamed data).
__device__ __forceinline__ std::uint64_t createpolicy_evict_first() {
  std::uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

/// A policy evicting the accessed lines last (data read again soon).
__device__ __forceinline__ std::uint64_t createpolicy_evict_last() {
  std::uint64_t policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// The accesses are volatile with a memory clobber: the compiler must order
// them with the kernel's other loads and stores as it would a plain access.

/// The B at p (1, 2, 4, 8 or 16 bytes of unsigned bits), read under policy.
template <class B>
__device__ __forceinline__ B ld_global_L2_cache_hint(const B *p,
                                                     std::uint64_t policy) {
  B r;
  if constexpr (sizeof(B) == 1) {
    unsigned w;
    asm volatile("ld.global.L2::cache_hint.u8 %0, [%1], %2;"
                 : "=r"(w)
                 : "l"(p), "l"(policy)
                 : "memory");
    r = static_cast<B>(w);
  } else if constexpr (sizeof(B) == 2) {
    asm volatile("ld.global.L2::cache_hint.u16 %0, [%1], %2;"
                 : "=h"(r)
                 : "l"(p), "l"(policy)
                 : "memory");
  } else if constexpr (sizeof(B) == 4) {
    asm volatile("ld.global.L2::cache_hint.u32 %0, [%1], %2;"
                 : "=r"(r)
                 : "l"(p), "l"(policy)
                 : "memory");
  } else if constexpr (sizeof(B) == 8) {
    asm volatile("ld.global.L2::cache_hint.v2.u32 {%0, %1}, [%2], %3;"
                 : "=r"(r.x), "=r"(r.y)
                 : "l"(p), "l"(policy)
                 : "memory");
  } else {
    static_assert(sizeof(B) == 16, "1, 2, 4, 8 or 16 bytes");
    asm volatile("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                 : "l"(p), "l"(policy)
                 : "memory");
  }
  return r;
}

/// Writes v at p under policy.
template <class B>
__device__ __forceinline__ void st_global_L2_cache_hint(B *p, B v,
                                                        std::uint64_t policy) {
  if constexpr (sizeof(B) == 1) {
    asm volatile("st.global.L2::cache_hint.u8 [%0], %1, %2;"
                 :
                 : "l"(p), "r"(static_cast<unsigned>(v)), "l"(policy)
                 : "memory");
  } else if constexpr (sizeof(B) == 2) {
    asm volatile("st.global.L2::cache_hint.u16 [%0], %1, %2;"
                 :
                 : "l"(p), "h"(v), "l"(policy)
                 : "memory");
  } else if constexpr (sizeof(B) == 4) {
    asm volatile("st.global.L2::cache_hint.u32 [%0], %1, %2;"
                 :
                 : "l"(p), "r"(v), "l"(policy)
                 : "memory");
  } else if constexpr (sizeof(B) == 8) {
    asm volatile("st.global.L2::cache_hint.v2.u32 [%0], {%1, %2}, %3;"
                 :
                 : "l"(p), "r"(v.x), "r"(v.y), "l"(policy)
                 : "memory");
  } else {
    static_assert(sizeof(B) == 16, "1, 2, 4, 8 or 16 bytes");
    asm volatile("st.global.L2::cache_hint.v4.u32 [%0], {%1, %2, %3, %4}, %5;"
                 :
                 : "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "l"(policy)
                 : "memory");
  }
}

} // namespace tile::rt::detail
