// Programmatic dependent launch (sm_90): a kernel launched with the
// programmatic-stream-serialization attribute may start while the kernel
// before it in the stream finishes. Below sm_90, and on AMD GPUs, launches
// do not overlap and both helpers do nothing.
#pragma once

namespace tile::rt {

/// Waits until the grids this one depends on have finished and their
/// memory operations are visible to it.
__device__ __forceinline__ void griddepcontrol_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Lets the grids that depend on this one launch once every program of it
/// has executed this (or exited).
__device__ __forceinline__ void griddepcontrol_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

} // namespace tile::rt
