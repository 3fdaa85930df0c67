// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/mm.cu
// RUN: %FileCheck %s --check-prefix=NOTMA < %t/mm.cu
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/mm.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/mm.cu -o %t/sm80.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/mm.cu -o %t.80/sm80.o %}
// clang-format on
//
// A K loop whose loads feed a dot of fp16 tiles: the accumulator gets an
// mma layout (a warp owns 16 rows and a run of 8-column chunks; on sm_90a
// four warps stack into a warpgroup), the loads become cp.async copies into
// num_stages swizzled shared-memory buffers issued num_stages - 1 iterations
// ahead, and the dot reads the current stage on tensor cores, left in
// flight (wgmma) until the loop ends, accumulating in place (no copy of the
// accumulator reads registers a wgmma is writing); the wait after the loop
// fences them. The prefetch refilling the previous iteration's stage
// follows each thread's wait for the previous dot: with one warpgroup that
// wait covers the whole product, with two (8 warps) a barrier comes first. Variants whose pointers are not
// 16-byte aligned keep the pipeline but copy element by element at once
// (rt::copy_v): cp.async moves at least 4 bytes. B's load has
// no mask, so the extent of its tensor is unknown and there is no TMA
// variant (tma_pipeline.tile.cpp has one).
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
    auto y =
        tile::load(b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn), acc);
}

TILE_CONFIGS(mm,
             tile::config{
                 .meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3},
             tile::config{
                 .meta = {128, 128, 64}, .num_warps = 8, .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(mm)
tile::grid mm_grid(const tile::half *, const tile::half *, float *, int m,
                   int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// clang-format off
// CHECK: L{{[0-9]+}} = #blocked<spt=[1, 2], tpw=[8, 4], wpc=[4, 1], order=[1, 0], warp_reps=[2, 16]> over [128, 128]
// CHECK-LABEL: mm_c0_aligned16(
// CHECK: { // pipeline: x, y in 3 shared-memory stages, prefetched 2 iterations ahead; one dot left in flight
// CHECK: using x_stage = rt::smem_tile<rt::f16, 128, 64>;
// CHECK: rt::f16 *const x_ring = rt::dynamic_smem<rt::f16>(0);
// CHECK: using y_stage = rt::smem_tile<rt::f16, 64, 128>;
// CHECK: rt::f16 *const y_ring = rt::dynamic_smem<rt::f16>(49152);
// CHECK: for (int stage = 0; stage < 2; ++stage) {
// CHECK: rt::cp_async_v<8>(x_dst.template at<[[LX:L[0-9]+]], false>(e)
// CHECK: rt::cp_async_v<8>(y_dst.template at<[[LY:L[0-9]+]], false>(e)
// CHECK: rt::cp_async_commit();
// CHECK: for (int k0 = 0; k0 < k; k0 += 64) {
// CHECK-NEXT: rt::cp_async_wait<1>();
// CHECK-NEXT: rt::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK: rt::mma_tiles<[[LC:L[0-9]+]], rt::f16, 1>(
// CHECK-NEXT: rt::operand<true>(x_stage{x_ring + read_stage * x_stage::elems}),
// CHECK-NEXT: rt::operand<false>(y_stage{y_ring + read_stage * y_stage::elems}),
// CHECK-NEXT: [[ACC:acc_[0-9]+]]);
// CHECK-NEXT: const int k0_ahead = k0 + 2 * 64;
// CHECK: y_stage{y_ring + (read_stage + 2) % 3 * y_stage::elems};
// CHECK: rt::cp_async_commit();
// CHECK: read_stage = read_stage + 1 == 3 ? 0 : read_stage + 1;
// CHECK: rt::mma_wait_all([[ACC]]);
// CHECK-NEXT: rt::cp_async_wait<0>();
// CHECK: rt::st_global_v2(
// CHECK: mm_c0_aligned16<<<grid, 128, 99328, stream>>>
// CHECK-LABEL: mm_c0_generic(
// CHECK: { // pipeline: x, y in 3 shared-memory stages
// CHECK: rt::copy_v<1>(x_dst.template at<{{L[0-9]+}}, false>(e),
// CHECK: rt::copy_v<1>(y_dst.template at<{{L[0-9]+}}, false>(e),
// CHECK: rt::mma_tiles<[[LC]], rt::f16, 1>(
// CHECK-LABEL: mm_c1_aligned16(
// CHECK: rt::mma_tiles<{{L[0-9]+}}, rt::f16, 1>(
// CHECK-NEXT: rt::operand<true>(x_stage{x_ring + read_stage * x_stage::elems}),
// CHECK-NEXT: rt::operand<false>(y_stage{y_ring + read_stage * y_stage::elems}),
// CHECK-NEXT: acc{{[_0-9]*}});
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: const int k0_ahead = k0 + 2 * 64;
// SM80: #blocked<spt=[1, 2], tpw=[8, 4], wpc=[2, 2], order=[1, 0], warp_reps=[2, 8]> over [128, 128]
// SM80: rt::mma_tiles<{{L[0-9]+}}, rt::f16, 1>(
// NOTMA-NOT: CUtensorMap
// clang-format on
