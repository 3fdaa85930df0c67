// Asynchronous global-to-shared copies (cp.async, sm_80 and later): the
// software pipeline's loads. Groups are committed once per stage, and a
// stage is consumed after waiting until at most N younger groups are in
// flight.
#pragma once

namespace tile::rt {

/// Copies Bytes (4, 8 or 16) from global src to shared dst; a false pred
/// fills dst with zeros instead of reading src.
template <int Bytes>
__device__ __forceinline__ void cp_async(void *dst, const void *src,
                                         bool pred) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async size");
  unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  int src_bytes = pred ? Bytes : 0;
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d),
                 "l"(src), "r"(src_bytes)
                 : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(d),
                 "l"(src), "n"(Bytes), "r"(src_bytes)
                 : "memory");
}

/// The copies of V elements of T each, one helper per width as loads have.
template <int V, class T>
__device__ __forceinline__ void cp_async_v(T *dst, const T *src, bool pred) {
  cp_async<V *int(sizeof(T))>(dst, src, pred);
}

/// The same copy done at once, for accesses narrower than cp.async's 4
/// bytes (pointers not aligned for more): the pipeline keeps its shape and
/// its shared memory, without the overlap.
template <int V, class T>
__device__ __forceinline__ void copy_v(T *dst, const T *src, bool pred) {
#pragma unroll
  for (int i = 0; i < V; ++i)
    dst[i] = pred ? src[i] : T{};
}

__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}

template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

/// Makes this thread's shared-memory writes (plain stores and cp.async)
/// visible to the async proxy that wgmma reads through.
__device__ __forceinline__ void fence_proxy_async() {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

} // namespace tile::rt
