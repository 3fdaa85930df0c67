// Host side: how many programs of a kernel one SM holds at once, for the
// launch wrapper's tile::programs_per_sm().
#pragma once

#include "tile/rt/types.cuh"

namespace tile::rt {

/// Resident programs of `kernel` launched with `threads` threads and
/// `smem` bytes of dynamic shared memory, per SM; 1 when the runtime
/// cannot tell.
template <class Kernel>
int programs_per_sm(Kernel kernel, int threads, int smem) {
  int n = 0;
#if defined(__HIPCC__)
  if (hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, smem) !=
      hipSuccess)
    return 1;
#else
  // Above 48 KB the calculator counts 0 programs until the kernel may ask
  // for that much, which its launch function allows only at its first
  // launch: a grid rule runs before that.
  if (smem > 48 * 1024)
    (void)cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads,
                                                    smem) != cudaSuccess)
    return 1;
#endif
  return n > 0 ? n : 1;
}

} // namespace tile::rt
