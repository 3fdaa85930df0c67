// Atomics, one helper per operation, each returning the old value; a false
// predicate skips the lane and returns zero. Memory ordering is done with
// fences around a group of relaxed atomics (atomic_fence_before/after).
#pragma once

#include "tile/rt/math.cuh"

namespace tile::rt {

// tile::mem_order and tile::mem_scope, by value.
inline constexpr int order_acquire = 1, order_release = 2, order_acq_rel = 3;
inline constexpr int scope_cta = 1;

/// An acquire-release fence: what release and acquire patterns need, and
/// lighter than the sequentially consistent fence of __threadfence().
template <int Scope> __device__ __forceinline__ void fence() {
#if defined(__HIPCC__)
  if constexpr (Scope == scope_cta)
    __threadfence_block();
  else
    __threadfence();
#else
  if constexpr (Scope == scope_cta)
    asm volatile("fence.acq_rel.cta;" ::: "memory");
  else
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
#endif
}
/// Release semantics: earlier writes are visible before the atomics.
template <int Order, int Scope>
__device__ __forceinline__ void atomic_fence_before() {
  if constexpr (Order == order_release || Order == order_acq_rel)
    fence<Scope>();
}
/// Acquire semantics: later reads see what the atomics synchronized with.
template <int Order, int Scope>
__device__ __forceinline__ void atomic_fence_after() {
  if constexpr (Order == order_acquire || Order == order_acq_rel)
    fence<Scope>();
}

/// f() between the fences Order and Scope ask for; returns what f returns.
template <int Order, int Scope, class F>
__device__ __forceinline__ auto fenced(F f) {
  atomic_fence_before<Order, Scope>();
  auto old = f();
  atomic_fence_after<Order, Scope>();
  return old;
}

namespace detail {

/// The unsigned type of T's size, for operations on bits.
template <class T> struct bits_of;
template <class T>
  requires(sizeof(T) == 2)
struct bits_of<T> {
  using type = unsigned short;
};
template <class T>
  requires(sizeof(T) == 4)
struct bits_of<T> {
  using type = unsigned int;
};
template <class T>
  requires(sizeof(T) == 8)
struct bits_of<T> {
  using type = unsigned long long;
};
template <class T> using bits_t = typename bits_of<T>::type;

template <class To, class From> __device__ __forceinline__ To bit_cast(From v) {
  static_assert(sizeof(To) == sizeof(From));
  To r;
  memcpy(&r, &v, sizeof r);
  return r;
}

/// Compare-and-swap loop for read-modify-writes the hardware lacks.
template <class T, class F> __device__ T cas_loop(T *p, F update) {
  using U = bits_t<T>;
  U *q = reinterpret_cast<U *>(p);
  U old = *q, assumed;
  do {
    assumed = old;
    old = atomicCAS(q, assumed, bit_cast<U>(update(bit_cast<T>(assumed))));
  } while (old != assumed);
  return bit_cast<T>(old);
}

/// The same for a 16-bit T, through the aligned 32-bit word that holds it
/// (HIP has no 16-bit compare-and-swap).
template <class T, class F> __device__ T cas_loop_16(T *p, F update) {
  static_assert(sizeof(T) == 2);
  const auto address = reinterpret_cast<unsigned long long>(p);
  unsigned *word = reinterpret_cast<unsigned *>(address & ~3ull);
  const unsigned shift = (address & 2) * 8;
  auto half_of = [shift](unsigned w) {
    return bit_cast<T>(static_cast<unsigned short>(w >> shift));
  };
  unsigned old = *word, assumed;
  do {
    assumed = old;
    unsigned next = bit_cast<unsigned short>(update(half_of(assumed)));
    old = atomicCAS(word, assumed,
                    (assumed & ~(0xffffu << shift)) | next << shift);
  } while (old != assumed);
  return half_of(old);
}

template <class T>
inline constexpr bool is_int64 = sizeof(T) == 8 && !__is_same(T, double);

} // namespace detail

template <class T> __device__ T atomic_add(T *p, T v, bool pred) {
  if (!pred)
    return T(0);
  if constexpr (detail::is_int64<T>)
    return T(atomicAdd(reinterpret_cast<unsigned long long *>(p),
                       static_cast<unsigned long long>(v)));
#if defined(__HIPCC__)
  else if constexpr (sizeof(T) == 2) // half and bfloat16
    return detail::cas_loop_16(p, [v](T old) {
      return convert<T>(convert<float>(old) + convert<float>(v));
    });
#endif
  else
    return atomicAdd(p, v);
}

namespace detail {

/// atomic_max (Max) and atomic_min. Floats (maxNum, as tile::maximum) and
/// signed 64-bit integers (not native on every target) go through
/// compare-and-swap.
template <bool Max, class T> __device__ T atomic_extremum(T *p, T v) {
  if constexpr (__is_same(T, float) || __is_same(T, double) ||
                (is_int64<T> && T(-1) < T(0)))
    return cas_loop(
        p, [v](T old) { return Max ? maximum(old, v) : minimum(old, v); });
  else if constexpr (is_int64<T>) {
    auto *q = reinterpret_cast<unsigned long long *>(p);
    return T(Max ? atomicMax(q, (unsigned long long)v)
                 : atomicMin(q, (unsigned long long)v));
  } else
    return Max ? atomicMax(p, v) : atomicMin(p, v);
}

} // namespace detail

template <class T> __device__ T atomic_max(T *p, T v, bool pred) {
  return pred ? detail::atomic_extremum<true>(p, v) : T(0);
}
template <class T> __device__ T atomic_min(T *p, T v, bool pred) {
  return pred ? detail::atomic_extremum<false>(p, v) : T(0);
}

#define TILE_RT_ATOMIC_BITWISE(NAME, CUDA)                                     \
  template <class T> __device__ T NAME(T *p, T v, bool pred) {                 \
    if (!pred)                                                                 \
      return T(0);                                                             \
    using U = detail::bits_t<T>;                                               \
    return T(CUDA(reinterpret_cast<U *>(p), U(v)));                            \
  }
TILE_RT_ATOMIC_BITWISE(atomic_and, atomicAnd)
TILE_RT_ATOMIC_BITWISE(atomic_or, atomicOr)
TILE_RT_ATOMIC_BITWISE(atomic_xor, atomicXor)
#undef TILE_RT_ATOMIC_BITWISE

template <class T> __device__ T atomic_xchg(T *p, T v, bool pred) {
  if (!pred)
    return T(0);
  using U = detail::bits_t<T>;
  return detail::bit_cast<T>(
      atomicExch(reinterpret_cast<U *>(p), detail::bit_cast<U>(v)));
}

/// Stores val where *p holds cmp, bit for bit.
template <class T> __device__ T atomic_cas(T *p, T cmp, T val, bool pred) {
  if (!pred)
    return T(0);
  using U = detail::bits_t<T>;
  return detail::bit_cast<T>(atomicCAS(reinterpret_cast<U *>(p),
                                       detail::bit_cast<U>(cmp),
                                       detail::bit_cast<U>(val)));
}

/// Runs f in the program's first thread and gives every thread its result:
/// scalar atomics happen once per program, as in Triton. The barriers order
/// every thread's accesses around f's, so fences in f (rt::fenced) act for
/// the whole program: fences are cumulative.
template <class F> __device__ auto in_one_thread(F f) {
  using R = decltype(f());
  __shared__ R result;
  __syncthreads(); // an earlier call may still be reading result
  if (threadIdx.x == 0)
    result = f();
  __syncthreads();
  return result;
}

} // namespace tile::rt
