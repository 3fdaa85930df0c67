// Global memory access, one helper per access width, and the read-back of a
// pipeline stage a thread filled itself. tilecc picks the width from axis
// information: contiguity and alignment proven for V elements (16 bytes at
// most) give one V-wide access.
#pragma once

#if !defined(__HIPCC__)
#include "tile/rt/l2_cache_hint.cuh"
#endif
#include <cstring>
#include <type_traits>

namespace tile::rt {

template <class T, int V> struct alignas(sizeof(T) * V) vec { T v[V]; };

/// tile::cache and tile::evict, in their order: a load's or store's cache
/// operator (ld.global.cg, ...; ld.volatile) and the caches' eviction
/// priority for its data (an L2 access policy: evict_first streams,
/// evict_last persists). On AMD GPUs only volatile_ changes the access.
enum class cache { normal, ca, cg, cs, lu, cv, wb, wt, volatile_ };
enum class evict { normal, first, last };

namespace detail {

/// The unsigned integer (vector) of Bytes bytes, the types the cache
/// operators' intrinsics take.
template <int Bytes> struct access_bits;
template <> struct access_bits<1> { using type = unsigned char; };
template <> struct access_bits<2> { using type = unsigned short; };
template <> struct access_bits<4> { using type = unsigned int; };
template <> struct access_bits<8> { using type = uint2; };
template <> struct access_bits<16> { using type = uint4; };

/// Volatile accesses of 8 and 16 bytes go word by word.
template <class B> __device__ __forceinline__ B read_volatile(const B *p) {
  B r;
  if constexpr (sizeof(B) <= 4) {
    r = *const_cast<const volatile B *>(p);
  } else {
    const volatile unsigned *w = reinterpret_cast<const volatile unsigned *>(p);
    unsigned *o = reinterpret_cast<unsigned *>(&r);
#pragma unroll
    for (unsigned i = 0; i < sizeof(B) / 4; ++i)
      o[i] = w[i];
  }
  return r;
}

template <class B> __device__ __forceinline__ void write_volatile(B *p, B v) {
  if constexpr (sizeof(B) <= 4) {
    *const_cast<volatile B *>(p) = v;
  } else {
    volatile unsigned *w = reinterpret_cast<volatile unsigned *>(p);
    const unsigned *i = reinterpret_cast<const unsigned *>(&v);
#pragma unroll
    for (unsigned k = 0; k < sizeof(B) / 4; ++k)
      w[k] = i[k];
  }
}

#if !defined(__HIPCC__)
/// The L2 policy of E (not evict::normal).
template <evict E> __device__ __forceinline__ std::uint64_t l2_policy() {
  if constexpr (E == evict::first)
    return createpolicy_evict_first();
  else
    return createpolicy_evict_last();
}

/// Whether E changes accesses here: L2 policies need sm_80.
template <evict E>
inline constexpr bool applies_eviction_policy =
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    false;
#else
    E != evict::normal;
#endif
#endif

/// The bits at p, read as C and E say.
template <cache C, evict E, class B>
__device__ __forceinline__ B load_bits(const B *p) {
  if constexpr (C == cache::volatile_) {
    return read_volatile(p);
  } else {
#if defined(__HIPCC__)
    return *p;
#else
    if constexpr (C == cache::ca)
      return __ldca(p);
    else if constexpr (C == cache::cg)
      return __ldcg(p);
    else if constexpr (C == cache::cs)
      return __ldcs(p);
    else if constexpr (C == cache::lu)
      return __ldlu(p);
    else if constexpr (C == cache::cv)
      return __ldcv(p);
    else if constexpr (applies_eviction_policy<E>)
      return ld_global_L2_cache_hint(p, l2_policy<E>());
    else
      return *p;
#endif
  }
}

/// Writes v at p as C and E say.
template <cache C, evict E, class B>
__device__ __forceinline__ void store_bits(B *p, B v) {
  if constexpr (C == cache::volatile_) {
    write_volatile(p, v);
  } else {
#if defined(__HIPCC__)
    *p = v;
#else
    if constexpr (C == cache::wb)
      __stwb(p, v);
    else if constexpr (C == cache::cg)
      __stcg(p, v);
    else if constexpr (C == cache::cs)
      __stcs(p, v);
    else if constexpr (C == cache::wt)
      __stwt(p, v);
    else if constexpr (applies_eviction_policy<E>)
      st_global_L2_cache_hint(p, v, l2_policy<E>());
    else
      *p = v;
#endif
  }
}

} // namespace detail

/// Loads V elements at p (a generic address) into dst if pred, else fills
/// dst with other.
template <int V, cache C = cache::normal, evict E = evict::normal, class T>
__device__ __forceinline__ void load_vector(T *dst, const T *p, bool pred,
                                            T other) {
  static_assert(sizeof(T) * V <= 16, "at most 16 bytes per access");
  if (pred) {
    vec<T, V> x;
    if constexpr (C == cache::normal && E == evict::normal) {
      x = *reinterpret_cast<const vec<T, V> *>(p);
    } else {
      using B = typename detail::access_bits<sizeof(T) * V>::type;
      const B bits = detail::load_bits<C, E>(reinterpret_cast<const B *>(p));
      std::memcpy(static_cast<void *>(&x), &bits, sizeof x);
    }
#pragma unroll
    for (int i = 0; i < V; ++i)
      dst[i] = x.v[i];
  } else {
#pragma unroll
    for (int i = 0; i < V; ++i)
      dst[i] = other;
  }
}

/// Stores V elements of src at p (a generic address) if pred.
template <int V, cache C = cache::normal, evict E = evict::normal, class T>
__device__ __forceinline__ void store_vector(T *p, const T *src, bool pred) {
  static_assert(sizeof(T) * V <= 16, "at most 16 bytes per access");
  if (pred) {
    vec<T, V> x;
#pragma unroll
    for (int i = 0; i < V; ++i)
      x.v[i] = src[i];
    if constexpr (C == cache::normal && E == evict::normal) {
      *reinterpret_cast<vec<T, V> *>(p) = x;
    } else {
      using B = typename detail::access_bits<sizeof(T) * V>::type;
      B bits;
      std::memcpy(static_cast<void *>(&bits), &x, sizeof bits);
      detail::store_bits<C, E>(reinterpret_cast<B *>(p), bits);
    }
  }
}

#define TILE_RT_ACCESS_WIDTH(V)                                                \
  template <cache C = cache::normal, evict E = evict::normal, class T>         \
  __device__ __forceinline__ void ld_global_v##V(T *dst, const T *p,           \
                                                 bool pred, T other) {         \
    load_vector<V, C, E>(dst, p, pred, other);                                 \
  }                                                                            \
  template <class T>                                                           \
  __device__ __forceinline__ void ld_shared_v##V(T *dst, const T *p,           \
                                                 bool pred, T other) {         \
    load_vector<V>(dst, p, pred, other);                                       \
  }                                                                            \
  template <cache C = cache::normal, evict E = evict::normal, class T>         \
  __device__ __forceinline__ void st_global_v##V(T *p, const T *src,           \
                                                 bool pred) {                  \
    store_vector<V, C, E>(p, src, pred);                                       \
  }
TILE_RT_ACCESS_WIDTH(1)
TILE_RT_ACCESS_WIDTH(2)
TILE_RT_ACCESS_WIDTH(4)
TILE_RT_ACCESS_WIDTH(8)
TILE_RT_ACCESS_WIDTH(16)
#undef TILE_RT_ACCESS_WIDTH

} // namespace tile::rt
