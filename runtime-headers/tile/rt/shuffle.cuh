// Warp shuffles of any value a reduction or scan combines: scalars, and
// packs of them member by member.
#pragma once

#include "tile/rt/pack.cuh"
#include "tile/rt/types.cuh"

namespace tile::rt {

/// Which lane a shuffle reads: lane ^ delta, lane - delta, lane + delta,
/// or lane `delta` itself.
enum class shfl { bfly, up, down, idx };

template <shfl K, class T>
__device__ __forceinline__ T shuffle(T v, int delta) {
#if defined(__HIPCC__)
  if constexpr (K == shfl::bfly)
    return __shfl_xor(v, delta);
  else if constexpr (K == shfl::up)
    return __shfl_up(v, delta);
  else if constexpr (K == shfl::down)
    return __shfl_down(v, delta);
  else
    return __shfl(v, delta);
#else
  if constexpr (K == shfl::bfly)
    return __shfl_xor_sync(0xffffffffu, v, delta);
  else if constexpr (K == shfl::up)
    return __shfl_up_sync(0xffffffffu, v, delta);
  else if constexpr (K == shfl::down)
    return __shfl_down_sync(0xffffffffu, v, delta);
  else
    return __shfl_sync(0xffffffffu, v, delta);
#endif
}

template <shfl K, class... T>
__device__ __forceinline__ pack<T...> shuffle(const pack<T...> &p, int delta) {
  return map(p, [delta](auto v) { return shuffle<K>(v, delta); });
}

/// x, which every thread of the warp holds alike, as a value ptxas knows
/// to be warp-uniform: it then keeps it, and what is computed from it, in
/// uniform registers. A wgmma descriptor built from threadIdx.x is
/// otherwise moved to a uniform register piece by piece before every
/// wgmma (1-2 % of attention's time at head_dim 64), and a ring's stage
/// and phase carried from one tile of a persistent program to the next
/// across code only one thread runs end up in per-thread registers, and
/// with them every descriptor built from them (1.07-1.15x slower kernels).
template <class T> __device__ __forceinline__ T warp_uniform(T x) {
  return shuffle<shfl::idx>(x, 0);
}

} // namespace tile::rt
