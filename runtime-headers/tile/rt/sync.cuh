// Block barriers. A warp-specialized kernel's consumers synchronize among
// themselves while its producer warpgroup is busy elsewhere: a named
// barrier (1) for their thread count instead of __syncthreads (barrier 0,
// every thread of the program).
#pragma once

namespace tile::rt {

/// Waits for the program's threads (Threads == 0) or for its first Threads,
/// a multiple of 32 (CUDA only).
template <int Threads = 0> __device__ __forceinline__ void sync_threads() {
  if constexpr (Threads == 0) {
    __syncthreads();
  } else {
    static_assert(Threads % 32 == 0, "whole warps");
    asm volatile("bar.sync 1, %0;" ::"n"(Threads) : "memory");
  }
}

} // namespace tile::rt
