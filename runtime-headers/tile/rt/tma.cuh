// Tensor Memory Accelerator loads (sm_90): one thread asks the TMA unit to
// copy a box of a 2-D tensor (or of one of a stack of them) into shared
// memory, swizzled as wgmma reads it, and an mbarrier counts the bytes as
// they land. The tensor map (shape, strides, box, swizzle) is encoded on the
// host by the launch wrapper and passed as a __grid_constant__ parameter.
//
// Kernels using these are launched only where runs_tma says so; built for
// an older target, the helpers trap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <type_traits>

namespace tile::rt {

/// An mbarrier: a 64-bit shared-memory object threads arrive on and wait
/// for, completing a phase when the expected arrivals and bytes are in.
using mbarrier = std::uint64_t;

__device__ __forceinline__ unsigned shared_address(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// Makes Count threads' arrivals complete a phase of bar.
__device__ __forceinline__ void mbarrier_init(mbarrier *bar, unsigned count) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)),
      "r"(count)
      : "memory");
#else
  __trap();
#endif
}

/// Orders mbarrier initialization before their use by the async proxy.
__device__ __forceinline__ void fence_mbarrier_init() {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

/// Arrives on bar, telling it Bytes more will land before its phase ends.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(mbarrier *bar,
                                                          unsigned bytes) {
#if __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   shared_address(bar)),
               "r"(bytes)
               : "memory");
#else
  __trap();
#endif
}

/// Arrives on bar (one of its expected arrivals).
__device__ __forceinline__ void mbarrier_arrive(mbarrier *bar) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar))
      : "memory");
#else
  __trap();
#endif
}

/// Waits until the phase of bar with the given parity has completed.
__device__ __forceinline__ void mbarrier_wait(mbarrier *bar, unsigned parity) {
#if __CUDA_ARCH__ >= 900
  unsigned done = 0;
  do
    asm volatile("{\n"
                 "  .reg .pred p;\n"
                 "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "  selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(done)
                 : "r"(shared_address(bar)), "r"(parity)
                 : "memory");
  while (!done);
#else
  __trap();
#endif
}

/// Copies the box of map at coordinates (inner, outer) to dst, completing
/// its bytes on bar. Coordinates past the tensor's edge read zeros.
__device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map,
                                            mbarrier *bar, int inner,
                                            int outer) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile"
      ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          shared_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer),
      "r"(shared_address(bar))
      : "memory");
#else
  __trap();
#endif
}

/// Copies the box of map at coordinates (inner, outer) of 2-D tensor batch
/// of the stack to dst, completing its bytes on bar.
__device__ __forceinline__ void tma_load_3d(void *dst, const CUtensorMap *map,
                                            mbarrier *bar, int inner, int outer,
                                            int batch) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile"
      ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
          shared_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer),
      "r"(batch), "r"(shared_address(bar))
      : "memory");
#else
  __trap();
#endif
}

/// What a TMA store does to the elements of its box in global memory:
/// replaces them, or adds to them (cp.reduce.async.bulk's .add: atomic per
/// element, relaxed).
enum class tma_write { replace, add };

/// Copies src (shared memory) to the box of map at (inner, outer), writing
/// only the elements inside the tensor, as one bulk group per call of
/// tma_store_commit.
template <tma_write W>
__device__ __forceinline__ void
tma_store_2d(const CUtensorMap *map, const void *src, int inner, int outer) {
#if __CUDA_ARCH__ >= 900
  if constexpr (W == tma_write::replace)
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"
        " [%0, {%2, %3}], [%1];" ::"l"(reinterpret_cast<std::uint64_t>(map)),
        "r"(shared_address(src)), "r"(inner), "r"(outer)
        : "memory");
  else
    asm volatile(
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group"
        " [%0, {%2, %3}], [%1];" ::"l"(reinterpret_cast<std::uint64_t>(map)),
        "r"(shared_address(src)), "r"(inner), "r"(outer)
        : "memory");
#else
  __trap();
#endif
}

/// The same for a box of 2-D tensor batch of the stack.
template <tma_write W>
__device__ __forceinline__ void tma_store_3d(const CUtensorMap *map,
                                             const void *src, int inner,
                                             int outer, int batch) {
#if __CUDA_ARCH__ >= 900
  if constexpr (W == tma_write::replace)
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group"
                 " [%0, {%2, %3, %4}], [%1];" ::"l"(
                     reinterpret_cast<std::uint64_t>(map)),
                 "r"(shared_address(src)), "r"(inner), "r"(outer), "r"(batch)
                 : "memory");
  else
    asm volatile(
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group"
        " [%0, {%2, %3, %4}], [%1];" ::"l"(
            reinterpret_cast<std::uint64_t>(map)),
        "r"(shared_address(src)), "r"(inner), "r"(outer), "r"(batch)
        : "memory");
#else
  __trap();
#endif
}

/// Stores a Tile (an smem_tile) to the box of map whose corner is (outer,
/// inner), in 2-D tensor `batch` of a stack if one is given, replacing the
/// box's elements or adding to them (W): one box per 128-byte slab.
template <tma_write W = tma_write::replace, class Tile, class... Batch>
__device__ __forceinline__ void tma_store_tile(const CUtensorMap *map, Tile src,
                                               int inner, int outer,
                                               Batch... batch) {
  static_assert(sizeof...(Batch) <= 1, "a box of a 2-D or 3-D tensor");
#pragma unroll
  for (int s = 0; s < Tile::cols / Tile::slab_cols; ++s) {
    if constexpr (sizeof...(Batch) == 0)
      tma_store_2d<W>(map, src.base + s * Tile::slab_elems,
                      inner + s * Tile::slab_cols, outer);
    else
      tma_store_3d<W>(map, src.base + s * Tile::slab_elems,
                      inner + s * Tile::slab_cols, outer, batch...);
  }
}

__device__ __forceinline__ void tma_store_commit() {
#if __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
}

/// Waits until this thread's committed TMA stores have read their shared
/// memory (Read) or have completed.
template <bool Read> __device__ __forceinline__ void tma_store_wait() {
#if __CUDA_ARCH__ >= 900
  if constexpr (Read)
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  else
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

/// Loads a Stage tile (an smem_tile) whose row r, column c is element
/// (outer + r, inner + c) of map's tensor (of 2-D tensor `batch` of a
/// stack if one is given): one box per 128-byte slab.
template <class Stage, class... Batch>
__device__ __forceinline__ void tma_load_tile(Stage dst, const CUtensorMap *map,
                                              mbarrier *bar, int inner,
                                              int outer, Batch... batch) {
  static_assert(sizeof...(Batch) <= 1, "a box of a 2-D or 3-D tensor");
#pragma unroll
  for (int s = 0; s < Stage::cols / Stage::slab_cols; ++s) {
    if constexpr (sizeof...(Batch) == 0)
      tma_load_2d(dst.base + s * Stage::slab_elems, map, bar,
                  inner + s * Stage::slab_cols, outer);
    else
      tma_load_3d(dst.base + s * Stage::slab_elems, map, bar,
                  inner + s * Stage::slab_cols, outer, batch...);
  }
}

/// Whether kernel runs code built for sm_90 or later here, so its TMA
/// copies work (built for an older target, or running on an older device,
/// they trap).
template <class Kernel> bool runs_tma(Kernel *kernel) {
  cudaFuncAttributes attributes;
  return cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess &&
         attributes.ptxVersion >= 90;
}

/// Encodes a tensor map for Stage tiles (boxes of slab_cols x rows,
/// swizzled like smem_tile) over an Inner x Outer tensor of T at base with
/// rows RowStride elements apart, or with a BatchStride over a stack of
/// such tensors BatchStride elements apart (a 3-D map). Elements past the
/// edges read zeros.
template <class Stage, tma_write W = tma_write::replace, class T>
cudaError_t encode_tensor_map(CUtensorMap *map, const T *base,
                              std::uint64_t inner, std::uint64_t outer,
                              std::uint64_t row_stride,
                              std::uint64_t batch_stride = 0) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 1,
                "tensor map element size");
  using encode_fn = PFN_cuTensorMapEncodeTiled_v12000;
  static const encode_fn encode = [] {
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                         cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      return encode_fn(nullptr);
    return reinterpret_cast<encode_fn>(fn);
  }();
  if (!encode)
    return cudaErrorNotSupported;
  // Copies move bits; a reduce-add adds elements of the map's type (the
  // 32-bit ones tilecc adds with it).
  static_assert(W == tma_write::replace || std::is_same_v<T, float> ||
                    std::is_same_v<T, int> || std::is_same_v<T, unsigned>,
                "TMA adds 32-bit floats and integers");
  const CUtensorMapDataType type =
      W == tma_write::add && std::is_same_v<T, float>
          ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
      : W == tma_write::add && std::is_same_v<T, int>
          ? CU_TENSOR_MAP_DATA_TYPE_INT32
      : sizeof(T) == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
      : sizeof(T) == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                       : CU_TENSOR_MAP_DATA_TYPE_UINT32;
  const CUtensorMapSwizzle swizzle =
      Stage::row_bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
      : Stage::row_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
      : Stage::row_bytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                               : CU_TENSOR_MAP_SWIZZLE_NONE;
  // The stack's length is not known here: it reaches as far as a 32-bit
  // coordinate or the 49-bit virtual address space allows, so no tensor of
  // it reads as zeros.
  const std::uint64_t batch_bytes = batch_stride * sizeof(T);
  const std::uint64_t batches =
      batch_stride ? std::min<std::uint64_t>(
                         std::uint64_t(1) << 31,
                         std::max<std::uint64_t>(1, (std::uint64_t(1) << 49) /
                                                        batch_bytes))
                   : 1;
  const cuuint64_t dims[3] = {inner, outer, batches};
  const cuuint64_t strides[2] = {row_stride * sizeof(T), batch_bytes};
  const cuuint32_t box[3] = {Stage::slab_cols, Stage::rows, 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  CUresult r = encode(
      map, type, batch_stride ? 3 : 2, const_cast<T *>(base), dims, strides,
      box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

} // namespace tile::rt
