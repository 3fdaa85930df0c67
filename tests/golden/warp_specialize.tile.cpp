// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/mm_ws.cu
// RUN: %FileCheck %s --check-prefix=PRE < %t/mm_row_scaled.cu
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/mm_ws.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_ws.cu -o %t/sm90a.o -Xptxas=-v 2>&1 | %not grep C7514 %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/mm_ws.cu -o %t/sm80.o %}
// clang-format on
//
// warp_specialize: on sm_90a, the TMA variant's pipelined K loop gets a
// producer warpgroup of its own (warps num_warps to num_warps + 3). After
// the stage barriers are set up, the producer gives up registers
// (setmaxnreg.dec) and one of its threads walks the loop, waiting on each
// stage's empty barrier before it arms the full one and asks for the
// boxes; then the producer returns. The consumers take the registers
// (setmaxnreg.inc), wait for each stage, leave the dot in flight and, once
// the previous dot has retired, each warp arrives on that stage's empty
// barrier: no block barrier in the loop. The launch bound keeps ptxas's
// register count at entry within the consumers' (two programs' worth for
// 4 + 4 warps). The basic block ends after the last wait, so that nothing
// sits between it and the loop (ptxas would serialize the wgmmas, C7514).
// A loop whose dots are not left in flight, or a kernel that loads before
// the loop, is not specialized and says why; sm_80 has no TMA variant.
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
TILE_KERNEL void mm_ws(const tile::half *a, const tile::half *b, tile::half *c,
                       int m, int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x =
        tile::load(a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
                   tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y =
        tile::load(b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
                   tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn),
              tile::cast<tile::half>(acc),
              tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
}

TILE_CONFIGS(mm_ws,
             tile::config{.meta = {128, 256, 64},
                          .num_warps = 8,
                          .num_stages = 3,
                          .warp_specialize = true},
             tile::config{.meta = {128, 128, 64},
                          .num_warps = 4,
                          .num_stages = 4,
                          .warp_specialize = true},
             tile::config{.meta = {128, 128, 64},
                          .num_warps = 4,
                          .num_stages = 2,
                          .warp_specialize = true});
template <int BM, int BN, int BK>
TILE_GRID(mm_ws)
tile::grid mm_ws_grid(const tile::half *, const tile::half *, tile::half *,
                      int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// Rows of C scaled by s: s is loaded before the loop.
template <int BM, int BN, int BK>
TILE_KERNEL void mm_row_scaled(const tile::half *a, const tile::half *b,
                               const float *s, float *c, int m, int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto scale = tile::load(s + rm, rm < m, 0.0f);
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x =
        tile::load(a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
                   tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y =
        tile::load(b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
                   tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn),
              acc * tile::expand_dims<1>(scale),
              tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
}

TILE_CONFIGS(mm_row_scaled, tile::config{.meta = {128, 128, 64},
                                         .num_warps = 4,
                                         .num_stages = 3,
                                         .warp_specialize = true});
template <int BM, int BN, int BK>
TILE_GRID(mm_row_scaled)
tile::grid mm_row_scaled_grid(const tile::half *, const tile::half *,
                              const float *, float *, int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// clang-format off
// CHECK: // mm_ws_c0_aligned16_tma: {{.*}}; staged loads copied by TMA; warp-specialized: warps 8-11 issue the copies of the loop at line 33 (setmaxnreg 40 / 232).
// CHECK: __global__ void __launch_bounds__(384)
// CHECK-NEXT: mm_ws_c0_aligned16_tma(
// CHECK: { // pipeline: x, y in 3 shared-memory stages, filled by a producer warpgroup as they are released; one dot left in flight
// CHECK: rt::mbarrier *const full = rt::dynamic_smem<rt::mbarrier>(147456);
// CHECK-NEXT: rt::mbarrier *const empty = full + 3;
// CHECK-NEXT: if (threadIdx.x == 0) {
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int s = 0; s < 3; ++s) {
// CHECK-NEXT: rt::mbarrier_init(full + s, 1);
// CHECK-NEXT: rt::mbarrier_init(empty + s, 8);
// CHECK-NEXT: }
// CHECK-NEXT: rt::fence_mbarrier_init();
// CHECK-NEXT: }
// CHECK-NEXT: __syncthreads();
// CHECK-NOT: tma_load_tile
// CHECK: // The producer warpgroup: one thread issues the copies.
// CHECK-NEXT: if (threadIdx.x >= 256) {
// CHECK-NEXT: rt::setmaxnreg_dec<40>();
// CHECK-NEXT: if (threadIdx.x == 256) {
// CHECK-NEXT: int fill_stage = 0;
// CHECK-NEXT: unsigned fill_phase = 0;
// CHECK-NEXT: for (int k0 = 0; k0 < k; k0 += 64) {
// CHECK-NEXT: rt::mbarrier_wait(empty + fill_stage, fill_phase ^ 1);
// CHECK-NEXT: rt::mbarrier_arrive_expect_tx(full + fill_stage, 49152);
// CHECK-NEXT: rt::tma_load_tile(x_stage{x_ring + fill_stage * x_stage::elems},
// CHECK-NEXT: &x_map, full + fill_stage, k0, [[ROW:t[0-9]+]]);
// CHECK-NEXT: rt::tma_load_tile(y_stage{y_ring + fill_stage * y_stage::elems},
// CHECK-NEXT: &y_map, full + fill_stage, [[COL:t[0-9]+]], k0);
// CHECK-NEXT: fill_stage = fill_stage + 1 == 3 ? 0 : fill_stage + 1;
// CHECK-NEXT: fill_phase ^= fill_stage == 0;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return;
// CHECK-NEXT: }
// CHECK-NEXT: rt::setmaxnreg_inc<232>();
// CHECK-NEXT: for (int k0 = 0; k0 < k; k0 += 64) {
// CHECK-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// CHECK-NOT: __syncthreads
// CHECK: rt::mma_tiles<{{L[0-9]+}}, rt::f16, 1>(
// CHECK-NEXT: rt::operand<true>(x_stage{x_ring + read_stage * x_stage::elems}),
// CHECK-NEXT: rt::operand<false>(y_stage{y_ring + read_stage * y_stage::elems}),
// CHECK-NEXT: [[ACC:acc_[0-9]+]]);
// CHECK-NEXT: if (k0 != 0 && threadIdx.x % 32 == 0)
// CHECK-NEXT: rt::mbarrier_arrive(empty + (read_stage == 0 ? 2 : read_stage - 1));
// CHECK-NEXT: read_stage = read_stage + 1 == 3 ? 0 : read_stage + 1;
// CHECK-NEXT: phase ^= read_stage == 0;
// CHECK-NEXT: }
// CHECK-NEXT: rt::mma_wait_all([[ACC]]);
// CHECK-NEXT: rt::end_basic_block();
// CHECK-NEXT: __syncthreads();
// CHECK: rt::tma_store_tile(&{{t[0-9]+}}_map, {{t[0-9]+}}_out, [[COL]], [[ROW]]);
// CHECK-LABEL: launch_mm_ws_c0_aligned16_tma(
// CHECK: mm_ws_c0_aligned16_tma<<<grid, 384, 215040, stream>>>(
// CHECK: // mm_ws_c0_aligned16: {{.*}}; specialization: pointers 16-byte aligned, integers divisible by 16.
// CHECK-NEXT: // Tiles:
// CHECK-NOT: setmaxnreg
// CHECK: mm_ws_c0_aligned16<<<grid, 256, 148480, stream>>>(
// CHECK: // mm_ws_c1_aligned16_tma: {{.*}}; warp-specialized: warps 4-7 issue the copies of the loop at line 33 (setmaxnreg 40 / 216).
// CHECK: __global__ void __launch_bounds__(256, 2)
// CHECK-NEXT: mm_ws_c1_aligned16_tma(
// CHECK: rt::mbarrier_init(empty + s, 4);
// CHECK: if (threadIdx.x >= 128) {
// CHECK: rt::setmaxnreg_inc<216>();
// CHECK: mm_ws_c1_aligned16_tma<<<grid, 256, 165888, stream>>>(
// CHECK: // mm_ws_c2_aligned16_tma: {{.*}}; staged loads copied by TMA; not warp-specialized: the dots of the loop at line 33 are not left in flight (they need 3 stages or more and must only accumulate).
// CHECK-NEXT: // Tiles:
// CHECK-NOT: setmaxnreg
// CHECK: mm_ws_c2_aligned16_tma<<<grid, 128, 100352, stream>>>(
// PRE: // mm_row_scaled_c0_aligned16_tma: {{.*}}; staged loads copied by TMA; not warp-specialized: the producer warpgroup would run the load at line 75 before the pipelined loop.
// SM80-NOT: _tma(
// SM80-NOT: setmaxnreg
// clang-format on
