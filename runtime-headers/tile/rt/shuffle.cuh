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

} // namespace tile::rt
