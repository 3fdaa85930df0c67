// device_assert's failure: the runtime's own assert failure (the message,
// the file and line, the block and thread it failed in), which stops the
// kernel and makes the launch report cudaErrorAssert (hipErrorAssert).
#pragma once

#include "tile/rt/types.cuh"

#include <cstdio> // printf, which device_print calls

namespace tile::rt {

__device__ __forceinline__ void assert_fail(const char *message,
                                            const char *file, unsigned line,
                                            const char *function) {
  // CUDA declares it for the device pass only.
#if defined(__HIPCC__) || defined(__CUDA_ARCH__)
  __assert_fail(message, file, line, function);
#else
  (void)message, (void)file, (void)line, (void)function;
#endif
}

} // namespace tile::rt
