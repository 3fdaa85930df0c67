// Warp specialization (sm_90a): a producer warpgroup issues a pipeline's
// TMA copies while the other warps compute. Registers are a per-SM pool
// that setmaxnreg moves between them: the producer needs few, the
// consumers' accumulators many. Every warp of a warpgroup executes the
// same setmaxnreg, and ptxas needs the kernel's launch bounds to know how
// many registers it starts with.
#pragma once

namespace tile::rt {

/// Lowers this warpgroup's registers per thread to Regs (24 to 256, a
/// multiple of 8), returning the rest to the SM's pool.
template <int Regs> __device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(Regs >= 24 && Regs <= 256 && Regs % 8 == 0);
#if __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(Regs));
#endif
}

/// Raises this warpgroup's registers per thread to Regs, waiting until
/// the pool has them.
template <int Regs> __device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(Regs >= 24 && Regs <= 256 && Regs % 8 == 0);
#if __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(Regs));
#endif
}

/// The turns consumer warpgroups 0 .. Groups - 1 of a warp-specialized
/// program take at issuing tensor-core products (ping-pong): while one
/// waits for its turn and then works on its last product, the products of
/// the others run. Warpgroup g waits at named barrier 2 + g (0 is
/// __syncthreads, 1 the consumers' sync_threads); its count, 256, is g's
/// threads and those of the warpgroup before it, which arrive there once
/// they have issued. Every warpgroup must take as many turns.
template <int Groups> struct mma_turns {
  static_assert(Groups >= 2 && Groups <= 8, "2 to 8 consumer warpgroups");
  static __device__ __forceinline__ unsigned group() {
    return threadIdx.x / 128;
  }
  /// Waits until the warpgroup before this one has issued.
  static __device__ __forceinline__ void wait() {
#if __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("bar.sync %0, 256;" ::"r"(2 + group()) : "memory");
#endif
  }
  /// Lets the next warpgroup issue.
  static __device__ __forceinline__ void pass() {
#if __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("bar.arrive %0, 256;" ::"r"(2 + (group() + 1) % Groups)
                 : "memory");
#endif
  }
  /// Before the consumers' first turn: the last warpgroup gives warpgroup
  /// 0 its turn.
  static __device__ __forceinline__ void start() {
    if (group() == Groups - 1)
      pass();
  }
};

/// Ends the compiler's basic block here: a branch on a value only known at
/// run time (always taken). After the last wgmma's wait, it keeps LLVM from
/// sinking anything computed before the loop in between (a thread index
/// compare, say), which would make ptxas serialize every wgmma of the
/// loop (its advisory C7514).
__device__ __forceinline__ void end_basic_block() {
  unsigned one;
  asm volatile("mov.u32 %0, 1;" : "=r"(one));
  if (one != 1)
    __trap();
}

} // namespace tile::rt
