// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/mm_tma.cu
// RUN: %FileCheck %s --check-prefix=WRAP < %t/mm_tma.launch.cpp
// RUN: %FileCheck %s --check-prefix=FEW < %t/mm_tma.cu
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/mm_tma.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_tma.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/mm_tma.cu -o %t/sm80.o %}
// clang-format on
//
// On sm_90a, a pipelined K loop whose loads read boxes of 2-D tensors
// (pointers base + row * stride + column, masked by the tensor's bounds)
// gets a variant whose copies are TMA loads: the wrapper encodes one tensor
// map per load, one thread asks for each stage's boxes, and the stage's
// mbarrier says when they have landed. The masked store of C is a box too:
// the tile goes through shared memory and one TMA store. B is given transposed (N x K,
// rows k apart), as in C = A B^T. The variant is tried first where the pointers are aligned
// and the bounds positive; where the kernel was built without sm_90 code it
// declines and the cp.async variant runs. sm_80 has no TMA variant.
// A block of 32 rows, too few for a warpgroup's 64 (wgmma), runs on
// mma.sync from the same TMA-staged tiles: its accumulator gets sm_80's
// warp split (4 warps along N), which rt::mma_tiles takes for mma.sync,
// rather than CUDA cores (rt::dot_fma).
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
TILE_KERNEL void mm_tma(const tile::half *a, const tile::half *b, float *c,
                        int m, int n, int k, int lda) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * lda + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(rn) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rn < n) && tile::expand_dims<0>(kk < k));
    acc = tile::dot(x, tile::trans(y), acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn), acc,
              tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
}

TILE_CONFIGS(
    mm_tma,
    tile::config{.meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3},
    tile::config{.meta = {32, 64, 32}, .num_warps = 4, .num_stages = 2});
template <int BM, int BN, int BK>
TILE_GRID(mm_tma)
tile::grid mm_tma_grid(const tile::half *, const tile::half *, float *, int m,
                       int n, int, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// clang-format off
// CHECK-LABEL: mm_tma_c0_aligned16_tma(
// CHECK: const __grid_constant__ CUtensorMap x_map,
// CHECK-NEXT: const __grid_constant__ CUtensorMap y_map,
// CHECK-NEXT: const __grid_constant__ CUtensorMap acc_map) {
// CHECK-NOT: cp_async
// CHECK: using x_stage = rt::smem_tile<rt::f16, 128, 64>;
// CHECK: using y_stage = rt::smem_tile<rt::f16, 128, 64>;
// CHECK: rt::mbarrier *const full = rt::dynamic_smem<rt::mbarrier>(98304);
// CHECK-NEXT: if (threadIdx.x == 0) {
// CHECK: rt::mbarrier_init(full + s, 1);
// CHECK-NEXT: rt::fence_mbarrier_init();
// CHECK-NEXT: }
// CHECK-NEXT: __syncthreads();
// CHECK: for (int stage = 0; stage < 2; ++stage) {
// CHECK: const int k0 = 0 + stage * 64;
// CHECK-NEXT: if (k0 < k && threadIdx.x == 0) {
// CHECK-NEXT: rt::mbarrier_arrive_expect_tx(full + stage, 32768);
// CHECK-NEXT: rt::tma_load_tile(x_stage{x_ring + stage * x_stage::elems}, &x_map,
// CHECK-NEXT: full + stage, k0, [[ROW:t[0-9]+]]);
// CHECK-NEXT: rt::tma_load_tile(y_stage{y_ring + stage * y_stage::elems}, &y_map,
// CHECK-NEXT: full + stage, k0, [[COL:t[0-9]+]]);
// CHECK: for (int k0 = 0; k0 < k; k0 += 64) {
// CHECK-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// CHECK-NOT: cp_async
// CHECK: rt::mma_tiles<{{L[0-9]+}}, rt::f16, 1>(
// CHECK-NEXT: rt::operand<true>(x_stage{x_ring + read_stage * x_stage::elems}),
// CHECK-NEXT: rt::operand<true>(y_stage{y_ring + read_stage * y_stage::elems}),
// One warpgroup: its own wait for the previous dot frees that stage.
// CHECK-NEXT: acc{{[_0-9]*}});
// CHECK-NEXT: const int k0_ahead = k0 + 2 * 64;
// CHECK: rt::mbarrier_arrive_expect_tx(full + (read_stage + 2) % 3, 32768);
// CHECK: full + (read_stage + 2) % 3, k0, [[ROW]]);
// CHECK: full + (read_stage + 2) % 3, k0, [[COL]]);
// CHECK: read_stage = read_stage + 1 == 3 ? 0 : read_stage + 1;
// CHECK-NEXT: phase ^= read_stage == 0;
// CHECK-NEXT: }
// CHECK-NEXT: rt::mma_wait_all({{acc[_0-9]*}});
// CHECK-NEXT: __syncthreads();
// CHECK: { // store acc through shared memory: one TMA store
// The ring's copies have all landed: C goes out through its memory.
// CHECK-NEXT: const rt::smem_tile<float, 128, 128> acc_out{rt::dynamic_smem<float>(0)};
// CHECK-NEXT: if (threadIdx.x == 0)
// CHECK-NEXT: rt::tma_store_wait<true>();
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: acc_out.template store<{{L[0-9]+}}>(acc);
// CHECK-NEXT: rt::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: if (threadIdx.x == 0) {
// CHECK-NEXT: rt::tma_store_tile(&acc_map, acc_out, [[COL]], [[ROW]]);
// CHECK-NEXT: rt::tma_store_commit();
// CHECK: if (threadIdx.x == 0)
// CHECK-NEXT: rt::tma_store_wait<false>();
// CHECK-NEXT: #endif
// CHECK-NEXT: }
// CHECK-LABEL: launch_mm_tma_c0_aligned16_tma(
// CHECK: static const bool runs_tma = rt::runs_tma(mm_tma_c0_aligned16_tma);
// CHECK-NEXT: if (!runs_tma)
// CHECK-NEXT: return cudaErrorNotSupported;
// CHECK: rt::encode_tensor_map<rt::smem_tile<rt::f16, 128, 64>>(&x_map, a, k,
// CHECK-NEXT: m, lda);
// CHECK: rt::encode_tensor_map<rt::smem_tile<rt::f16, 128, 64>>(&y_map, b, k,
// CHECK-NEXT: n, k);
// CHECK: rt::encode_tensor_map<rt::smem_tile<float, 128, 128>>(&acc_map, c, n,
// CHECK-NEXT: m, n);
// CHECK: mm_tma_c0_aligned16_tma<<<grid, 128, 99352, stream>>>(
// CHECK: lda, x_map, y_map,
// CHECK-NEXT: acc_map);
// CHECK-LABEL: mm_tma_c0_aligned16(
// CHECK: rt::cp_async_v<8>(
// WRAP: if (tilecc_aligned16 && m > 0 && k > 0 && lda > 0 && n > 0)
// WRAP-NEXT: if (const cudaError_t tilecc_status = launch_mm_tma_c0_aligned16_tma(
// WRAP: tilecc_status != cudaErrorNotSupported)
// WRAP-NEXT: return tilecc_status;
// WRAP-NEXT: if (tilecc_aligned16)
// SM80-NOT: _tma(
// SM80-NOT: mbarrier
// FEW: //   [[L:L[0-9]+]] = #blocked<spt=[1, 2], tpw=[8, 4], wpc=[1, 4], order=[1, 0], warp_reps=[2, 2]> over [32, 64]
// FEW-LABEL: // mm_tma_c1_aligned16_tma: BM=32, BN=64, BK=32 num_warps=4;
// FEW: //   acc : tensor<f32, [32, 64]> [[L]] (16 per thread)
// FEW-NOT: dot_fma
// FEW: rt::mma_tiles<[[L]], rt::f16>(
// FEW-NEXT: rt::operand<true>(x_stage{x_ring + read_stage * x_stage::elems}),
// FEW-NOT: dot_fma
// FEW-LABEL: mm_tma_c1_aligned16(
// FEW-NOT: dot_fma
// FEW: rt::mma_tiles<[[L]], rt::f16>(
// clang-format on
