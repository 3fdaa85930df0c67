// clang-format off
// RUN: rm -rf %t %t.assume %t.shards && %tilecc %s -o %t
// RUN: %FileCheck %s < %t/mm.cu
// RUN: %FileCheck %s --check-prefix=WRAP < %t/mm.launch.cpp
// RUN: %FileCheck %s --check-prefix=META < %t/mm.json
// RUN: %FileCheck %s --check-prefix=ASSUME < %t/copy.cu
// RUN: %FileCheck %s --check-prefix=ASSUME-WRAP < %t/copy.launch.cpp
// RUN: %tilecc %s -o %t.assume --assume=aligned16
// RUN: %FileCheck %s --check-prefix=ALL-ALIGNED < %t.assume/mm.cu
// RUN: %tilecc %s -o %t.shards --shards 3
// RUN: %FileCheck %s --check-prefix=SHARD0 < %t.shards/variants.tile.shard0.cu
// RUN: %FileCheck %s --check-prefix=EMPTY < %t.shards/variants.tile.shard2.cu
// RUN: %FileCheck %s --check-prefix=GUARD < %t.shards/mm.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t.shards/variants.tile.shard0.cu -o %t.shards/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.shards/variants.tile.shard0.cu -o %t.shards/sm80.o %}
// RUN: %if nvcc %{ %host-cxx %t.shards/variants.tile.launch.cpp -o %t.shards/launch.o %}
// RUN: %not %tilecc %s -o %t.bad --shards 0 2>&1 | %FileCheck %s --check-prefix=BAD
// RUN: %tilecc %s --emit=plan | %FileCheck %s --check-prefix=PLAN
// RUN: %tilecc %s --emit=plan --target gfx90a | %FileCheck %s --check-prefix=PLAN-HIP
// clang-format on
//
// Which variants a configuration gets, and where each is compiled (one CUDA
// translation serves every arch of a build): the TMA variant's body from
// sm_90 on, its twin's (the same facts without TMA) below sm_90 only, the
// generic one everywhere. A configuration that assumes aligned arguments
// gets no generic variant, and its wrapper refuses other arguments. With
// --shards, the kernels are also compiled in pieces. --emit=plan shows the
// same decisions without the code.
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
TILE_KERNEL void mm(const tile::half *a, const tile::half *b, float *c, int m,
                    int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn), acc,
              tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
}

TILE_CONFIGS(mm, tile::config{.meta = {64, 64, 32}, .num_warps = 4,
                              .num_stages = 2});
template <int BM, int BN, int BK>
TILE_GRID(mm)
tile::grid mm_grid(const tile::half *, const tile::half *, float *, int m,
                   int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

template <int BLOCK>
TILE_KERNEL void copy(const float *x, float *y, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  tile::store(y + offs, tile::load(x + offs, offs < n, 0.0f), offs < n);
}

TILE_CONFIGS(copy, tile::config{.meta = {1024},
                                .assume = tile::assumption::aligned16});
template <int BLOCK>
TILE_GRID(copy)
tile::grid copy_grid(const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// clang-format off
// CHECK: // mm_c0_aligned16_tma: {{.*}}; staged loads copied by TMA (built for sm_90 on; runs where bounds and row strides are positive).
// CHECK: mm_c0_aligned16_tma(
// CHECK: #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 // TMA
// CHECK-NEXT: #line
// CHECK: rt::tma_load_tile(
// CHECK: #endif
// CHECK-NEXT: }
// CHECK: launch_mm_c0_aligned16_tma(
// CHECK: if (!runs_tma)
// CHECK-NEXT: return cudaErrorNotSupported;
// CHECK: int programs_per_sm_mm_c0_aligned16_tma() {
// CHECK-NEXT: if (!rt::runs_tma(mm_c0_aligned16_tma))
// CHECK-NEXT: return 0;
// CHECK: // mm_c0_aligned16: {{.*}}; built below sm_90 only (from sm_90 on, the TMA variant runs, or where it cannot, the next one).
// CHECK: mm_c0_aligned16(
// CHECK: #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900 // no TMA
// CHECK-NEXT: #line
// CHECK: rt::cp_async_v<8>(
// CHECK: #endif
// CHECK-NEXT: }
// CHECK: launch_mm_c0_aligned16(
// CHECK: if (runs_tma)
// CHECK-NEXT: return cudaErrorNotSupported;
// CHECK: int programs_per_sm_mm_c0_aligned16() {
// CHECK-NEXT: if (rt::runs_tma(mm_c0_aligned16))
// CHECK-NEXT: return 0;
// CHECK: // mm_c0_generic: {{.*}}; specialization: none (any arguments).
// CHECK: mm_c0_generic(
// CHECK-NOT: #if
// CHECK: launch_mm_c0_generic(
// CHECK-NOT: programs_per_sm_mm_c0_generic

// The wrapper: the TMA variant, its twin where that declines, then generic;
// occupancy from the fast path that runs on the device.
// WRAP: int programs_per_sm_0() {
// WRAP-NEXT: if (const int n = programs_per_sm_mm_c0_aligned16_tma(); n > 0)
// WRAP-NEXT: return n;
// WRAP-NEXT: if (const int n = programs_per_sm_mm_c0_aligned16(); n > 0)
// WRAP-NEXT: return n;
// WRAP-NEXT: return 1;
// WRAP: if (tilecc_aligned16 && m > 0 && k > 0 && n > 0)
// WRAP-NEXT: if (const cudaError_t tilecc_status =
// WRAP-NEXT: launch_mm_c0_aligned16_tma(
// WRAP: if (tilecc_aligned16)
// WRAP-NEXT: if (const cudaError_t tilecc_status =
// WRAP-NEXT: launch_mm_c0_aligned16(
// WRAP: return launch_mm_c0_generic(

// META: "built_for": "sm_90 on"
// META: "built_for": "below sm_90"
// META: "built_for": "every arch"

// ASSUME: // copy_c0_aligned16: BLOCK=1024
// ASSUME-NOT: copy_c0_generic
// ASSUME-WRAP: if (tilecc_aligned16)
// ASSUME-WRAP-NEXT: return launch_copy_c0_aligned16(
// ASSUME-WRAP-NEXT: break;
// ASSUME-WRAP-NEXT: }
// ASSUME-WRAP-NEXT: tilecc_declined = true;
// ASSUME-WRAP-NEXT: return cudaErrorInvalidValue;

// ALL-ALIGNED: mm_c0_aligned16_tma(
// ALL-ALIGNED: mm_c0_aligned16(
// ALL-ALIGNED-NOT: mm_c0_generic

// SHARD0: // Generated by tilecc: shard 0 of 3 of the kernels of {{.*}}variants.tile.cpp.
// SHARD0-NEXT: #define TILECC_SHARD 0
// SHARD0-NEXT: #include "mm.cu"
// SHARD0-NEXT: #include "copy.cu"
// EMPTY: // Generated by tilecc: shard 2 of 3
// EMPTY-NEXT: // Empty: the kernels fit the shards before it.
// EMPTY-NOT: #include
// GUARD: #if !defined(TILECC_SHARD) || TILECC_SHARD == 0 // shard 0 of 3
// GUARD: // mm_c0_aligned16_tma:
// GUARD: // mm_c0_generic:
// GUARD: #endif // shard 0
// GUARD-NOT: #if !defined(TILECC_SHARD)

// BAD: tilecc: error: --shards must be between 1 and 256, got 0

// PLAN: // mm configuration 0: BM=64, BN=64, BK=32 num_warps=4 num_stages=2 on sm_90a
// PLAN-NEXT: launch mm_c0_aligned16_tma when tilecc_aligned16 && m > 0 && k > 0 && n > 0, unless it declines
// PLAN-NEXT: launch mm_c0_aligned16 when tilecc_aligned16, unless it declines
// PLAN-NEXT: launch mm_c0_generic when always
// PLAN-NEXT: kernel mm_c0_aligned16_tma: 128 threads, __launch_bounds__(128), 17424 bytes of dynamic and 0 of static shared memory
// PLAN-NEXT: staged loads copied by TMA
// PLAN-NEXT: tensor map x_map: rt::smem_tile<rt::f16, 64, 32> boxes of a
// PLAN-NEXT: tensor map y_map: rt::smem_tile<rt::f16, 32, 64> boxes of b
// PLAN-NEXT: tensor map acc_map: rt::smem_tile<float, 64, 64> boxes of c
// PLAN-NEXT: kernel mm_c0_aligned16: 128 threads, __launch_bounds__(128), 17408 bytes of dynamic and 0 of static shared memory
// PLAN-NEXT: built below sm_90 only
// PLAN-NEXT: kernel mm_c0_generic: 128 threads
// PLAN-NEXT: none (any arguments)
// PLAN-NEXT: // copy configuration 0: BLOCK=1024 num_warps=4 num_stages=1 on sm_90a
// PLAN-NEXT: launch copy_c0_aligned16 when tilecc_aligned16{{$}}
// PLAN-NEXT: kernel copy_c0_aligned16: 128 threads, __launch_bounds__(128), 0 bytes of dynamic and 0 of static shared memory
// PLAN-HIP: // mm configuration 0: BM=64, BN=64, BK=32 num_warps=4 num_stages=2 on gfx90a
// PLAN-HIP-NEXT: launch mm_c0_aligned16 when tilecc_aligned16{{$}}
// PLAN-HIP-NEXT: launch mm_c0_generic when always
// The matrix cores' operands, rows padded by 4: (64 + 64) x (32 + 4) halves,
// in two buffers (staged an iteration ahead, the loop carrying them).
// PLAN-HIP-NEXT: kernel mm_c0_aligned16: 256 threads, __launch_bounds__(256), 0 bytes of dynamic and 18432 of static shared memory
// PLAN-HIP-NEXT: pointers 16-byte aligned, integers divisible as their accesses need; matrix-core operands staged in shared memory an iteration ahead (two buffers, taken in turn)
// PLAN-HIP-NOT: tensor map
