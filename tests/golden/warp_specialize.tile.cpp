// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/mm_ws.cu
// RUN: %FileCheck %s --check-prefix=PRE < %t/mm_row_scaled.cu
// RUN: %FileCheck %s --check-prefix=PERS < %t/mm_persistent.cu
// RUN: %FileCheck %s --check-prefix=NOT < %t/mm_guarded.cu
// RUN: %FileCheck %s --check-prefix=TWO < %t/mm_halves.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_halves.cu -o %t/halves.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_persistent.cu -o %t/persistent.o -Xptxas=-v 2>&1 | %not grep C7514 %}
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/mm_ws.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_ws.cu -o %t/sm90a.o -Xptxas=-v 2>&1 | %not grep C7514 %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/mm_ws.cu -o %t/sm80.o %}
// clang-format on
//
// warp_specialize: on sm_90a, the TMA variant gets a producer warpgroup
// (warps num_warps to num_warps + 3). The program splits at its top, once
// the stage ring and its full and empty barriers are set up: the producer
// gives up registers (setmaxnreg.dec), and one of its threads computes the
// scalars the loops' bounds and box starts need and walks every pipelined
// loop, waiting on each stage's empty barrier before it arms the full one
// and asks for the boxes; then the producer returns. The consumers take the
// registers (setmaxnreg.inc) and run the whole body; in the loop they wait
// for each stage, and each warp arrives on a stage's empty barrier once its
// dots are done with it (for a dot left in flight, when the next one has
// returned; the last one's stage after the final wait if a later loop
// takes the ring): no block barrier in the loop; the others become named
// barriers among the consumers (rt::sync_threads<N>), reductions' included.
// The launch bound keeps ptxas's register count at entry within the
// consumers' (two programs' worth for 4 + 4 warps). The basic block ends
// after the last wait, so that nothing sits between it and the loop (ptxas
// would serialize the wgmmas, C7514). What runs before the loop, a load
// included, is the consumers'.
// A loop inside another (the persistent form) has the producer walk the
// outer loop too, and a dot left in flight releases its last stage after
// each inner loop, since the next outer iteration's copies refill it. A
// loop inside an `if` is not specialized and says why; sm_80 has no TMA
// variant.
#include <algorithm>
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
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
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
                          .warp_specialize = true},
             tile::config{.meta = {256, 64, 64},
                          .num_warps = 16,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {128, 128, 64},
                          .num_warps = 8,
                          .num_stages = 2,
                          .min_programs_per_sm = 2,
                          .warp_specialize = true},
             tile::config{.meta = {128, 64, 64},
                          .num_warps = 8,
                          .num_stages = 2,
                          .min_programs_per_sm = 2,
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
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
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

// K in two halves, one loop each, and C's column sums: the producer walks
// both loops through one ring; the sums' partials meet at a named barrier.
template <int BM, int BN, int BK>
TILE_KERNEL void mm_halves(const tile::half *a, const tile::half *b, float *c,
                           float *col_sums, int m, int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  const int half_k = k / 2;
  for (int k0 = 0; k0 < half_k; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  for (int k0 = half_k; k0 < k; k0 += BK) {
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
  tile::atomic_add(col_sums + rn, tile::sum<0>(acc), rn < n);
}

TILE_CONFIGS(mm_halves, tile::config{.meta = {128, 128, 64},
                                     .num_warps = 4,
                                     .num_stages = 3,
                                     .warp_specialize = true});
template <int BM, int BN, int BK>
TILE_GRID(mm_halves)
tile::grid mm_halves_grid(const tile::half *, const tile::half *, float *,
                          float *, int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// The block (pid_m, pid_n) of C, for the kernels below.
template <int BM, int BN, int BK>
void mm_block(const tile::half *a, const tile::half *b, float *c, int m, int n,
              int k, int pid_m, int pid_n) {
  auto rm = pid_m * BM + tile::arange<BM>();
  auto rn = pid_n * BN + tile::arange<BN>();
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

// One block of C after another: the loop over K is inside another.
template <int BM, int BN, int BK>
TILE_KERNEL void mm_persistent(const tile::half *a, const tile::half *b,
                               float *c, int m, int n, int k) {
  const int blocks_n = tile::cdiv(n, BN);
  const int blocks = tile::cdiv(m, BM) * blocks_n;
  for (int pid = tile::program_id(0); pid < blocks;
       pid += tile::num_programs(0))
    mm_block<BM, BN, BK>(a, b, c, m, n, k, pid / blocks_n, pid % blocks_n);
}

TILE_CONFIGS(mm_persistent, tile::config{.meta = {128, 128, 64},
                                         .num_warps = 4,
                                         .num_stages = 3,
                                         .warp_specialize = true});
template <int BM, int BN, int BK>
TILE_GRID(mm_persistent)
tile::grid mm_persistent_grid(const tile::half *, const tile::half *, float *,
                              int m, int n, int) {
  return {std::min(tile::cdiv(m, BM) * tile::cdiv(n, BN), tile::num_sms())};
}

// A loop inside an `if`: the producer would have to take the branch too.
template <int BM, int BN, int BK>
TILE_KERNEL void mm_guarded(const tile::half *a, const tile::half *b, float *c,
                            int m, int n, int k) {
  if (k >= BK)
    mm_block<BM, BN, BK>(a, b, c, m, n, k, tile::program_id(0),
                         tile::program_id(1));
}

TILE_CONFIGS(mm_guarded, tile::config{.meta = {128, 128, 64},
                                      .num_warps = 4,
                                      .num_stages = 3,
                                      .warp_specialize = true});
template <int BM, int BN, int BK>
TILE_GRID(mm_guarded)
tile::grid mm_guarded_grid(const tile::half *, const tile::half *, float *,
                           int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// clang-format off
// CHECK: // mm_ws_c0_aligned16_tma: {{.*}}; staged loads copied by TMA (built for sm_90 on; runs where bounds and row strides are positive); warp-specialized: warps 8-11 issue the copies of the loop at line 48 (setmaxnreg 40 / 232).
// CHECK: __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT: mm_ws_c0_aligned16_tma(
// CHECK: const __grid_constant__ CUtensorMap {{t[0-9]+}}_map) {
// CHECK-NEXT: #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 // TMA
// CHECK-NEXT: using x_stage = rt::smem_tile<rt::f16, 128, 64>;
// CHECK-NEXT: rt::f16 *const x_ring = rt::dynamic_smem<rt::f16>(0);
// CHECK-NEXT: using y_stage = rt::smem_tile<rt::f16, 64, 256>;
// CHECK-NEXT: rt::f16 *const y_ring = rt::dynamic_smem<rt::f16>(49152);
// CHECK-NEXT: rt::mbarrier *const full = rt::dynamic_smem<rt::mbarrier>(147456);
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
// CHECK-NEXT: int read_stage = 0;
// CHECK-NEXT: unsigned phase = 0;
// CHECK-NEXT: // The producer warpgroup: one thread issues the copies.
// CHECK-NEXT: if (threadIdx.x >= 256) {
// CHECK-NEXT: rt::setmaxnreg_dec<40>();
// CHECK-NEXT: if (threadIdx.x == 256) {
// CHECK-NEXT: int fill_stage = 0;
// CHECK-NEXT: unsigned fill_phase = 0;
// CHECK: const int [[ROW:t[0-9]+]] = ({{t[0-9]+}} * 128);
// CHECK: const int [[COL:t[0-9]+]] = ({{t[0-9]+}} * 256);
// CHECK-NEXT: #line 48 "{{.*}}warp_specialize.tile.cpp"
// CHECK-NEXT: for (int k0 = 0; k0 < k; k0 += 64) {
// CHECK-NEXT: rt::mbarrier_wait(empty + fill_stage, fill_phase ^ 1);
// CHECK-NEXT: rt::mbarrier_arrive_expect_tx(full + fill_stage, 49152);
// CHECK-NEXT: rt::tma_load_tile(x_stage{x_ring + fill_stage * x_stage::elems}, &x_map,
// CHECK-NEXT: full + fill_stage, k0, [[ROW]]);
// CHECK-NEXT: rt::tma_load_tile(y_stage{y_ring + fill_stage * y_stage::elems}, &y_map,
// CHECK-NEXT: full + fill_stage, [[COL]], k0);
// CHECK-NEXT: fill_stage = fill_stage + 1 == 3 ? 0 : fill_stage + 1;
// CHECK-NEXT: fill_phase ^= fill_stage == 0;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return;
// CHECK-NEXT: }
// CHECK-NEXT: rt::setmaxnreg_inc<232>();
// CHECK-NOT: tma_load_tile
// CHECK: { // pipeline: x, y in 3 shared-memory stages, filled by a producer warpgroup as they are released; one dot left in flight
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
// No barrier after the loop: the producer's barriers guard the ring.
// CHECK-NEXT: }
// CHECK: if (threadIdx.x == 0)
// CHECK-NEXT: rt::tma_store_wait<true>();
// CHECK-NEXT: rt::sync_threads<256>();
// CHECK: rt::fence_proxy_async();
// CHECK-NEXT: rt::sync_threads<256>();
// CHECK-NEXT: if (threadIdx.x == 0) {
// CHECK-NEXT: rt::tma_store_tile(&{{t[0-9]+}}_map, {{t[0-9]+}}_out, [[COL]], [[ROW]]);
// CHECK-LABEL: launch_mm_ws_c0_aligned16_tma(
// CHECK: mm_ws_c0_aligned16_tma<<<grid, 384, 148528, stream>>>(
// CHECK: // mm_ws_c0_aligned16: {{.*}}; specialization: pointers 16-byte aligned, integers divisible as their accesses need; built below sm_90 only
// CHECK-NEXT: // Tiles:
// CHECK-NOT: setmaxnreg
// CHECK: mm_ws_c0_aligned16<<<grid, 256, 148480, stream>>>(
// CHECK: // mm_ws_c1_aligned16_tma: {{.*}}; warp-specialized: warps 4-7 issue the copies of the loop at line 48 (setmaxnreg 40 / 216).
// CHECK: __global__ void __launch_bounds__(256, 2)
// CHECK-NEXT: mm_ws_c1_aligned16_tma(
// CHECK: rt::mbarrier_init(empty + s, 4);
// CHECK: if (threadIdx.x >= 128) {
// CHECK: rt::setmaxnreg_inc<216>();
// CHECK: mm_ws_c1_aligned16_tma<<<grid, 256, 132160, stream>>>(
// CHECK: // mm_ws_c2_aligned16_tma: {{.*}}; warp-specialized: warps 4-7 issue the copies of the loop at line 48 (setmaxnreg 40 / 216).
// CHECK: { // pipeline: x, y in 2 shared-memory stages, filled by a producer warpgroup as they are released
// CHECK-NEXT: for (int k0 = 0; k0 < k; k0 += 64) {
// CHECK-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// CHECK-NOT: __syncthreads
// CHECK: rt::mma_tiles<{{L[0-9]+}}, rt::f16>(
// CHECK: if (threadIdx.x % 32 == 0)
// CHECK-NEXT: rt::mbarrier_arrive(empty + read_stage);
// CHECK: read_stage = read_stage + 1 == 2 ? 0 : read_stage + 1;
// CHECK: mm_ws_c2_aligned16_tma<<<grid, 256, 66592, stream>>>(
// Sixteen consumer warps: the program holds the launch bound's 96
// registers for each of its 640 threads at entry, not a whole SM's 65536
// (an inc beyond that pool never returns). A producer keeping 40 would
// leave the consumers 104 each, under 128, so it keeps 24 and they take
// 112.
// CHECK: // mm_ws_c3_aligned16_tma: {{.*}}; warp-specialized: warps 16-19 issue the copies of the loop at line 48 (setmaxnreg 24 / 112).
// CHECK: __global__ void __launch_bounds__(640, 1)
// CHECK-NEXT: mm_ws_c3_aligned16_tma(
// CHECK: rt::setmaxnreg_dec<24>();
// CHECK: rt::setmaxnreg_inc<112>();
// CHECK: mm_ws_c3_aligned16_tma<<<grid, 640, {{[0-9]+}}, stream>>>(
// Two programs of 8 + 4 warps an SM start each thread with 80 registers,
// fewer than the 90 ptxas needs to compile a 64 x 128 wgmma (it counts
// them at entry, setmaxnreg or not: docs/decisions.md), so 128 columns a
// warp get no producer and the launch bound of 8 warps; 64 columns need 58.
// CHECK: // mm_ws_c4_aligned16_tma: {{.*}}; staged loads copied by TMA (built for sm_90 on; runs where bounds and row strides are positive); not warp-specialized: 2 programs of 384 threads an SM start each thread with 80 registers, and the 64 x 128 wgmma of the dot at line 56 needs 90 (ptxas).
// CHECK: __global__ void __launch_bounds__(256, 2)
// CHECK-NEXT: mm_ws_c4_aligned16_tma(
// CHECK-NOT: setmaxnreg
// CHECK: // mm_ws_c5_aligned16_tma: {{.*}}; warp-specialized: warps 8-11 issue the copies of the loop at line 48 (setmaxnreg 24 / 104).
// CHECK: __global__ void __launch_bounds__(384, 2)
// CHECK-NEXT: mm_ws_c5_aligned16_tma(
// PRE: // mm_row_scaled_c0_aligned16_tma: {{.*}}; warp-specialized: warps 4-7 issue the copies of the loop at line 106 (setmaxnreg 40 / 216).
// PRE: return;
// PRE-NEXT: }
// PRE-NEXT: rt::setmaxnreg_inc<216>();
// PRE: rt::ld_global_v{{[0-9]+}}(&scale[e],
// PRE: for (int k0 = 0; k0 < k; k0 += 64) {
// TWO: // mm_halves_c0_aligned16_tma: {{.*}}; warp-specialized: warps 4-7 issue the copies of the loops at lines 142, 152 (setmaxnreg 40 / 216).
// TWO: if (threadIdx.x == 128) {
// TWO-NEXT: int fill_stage = 0;
// TWO-NEXT: unsigned fill_phase = 0;
// TWO: const int half_k = (k / 2);
// TWO-NEXT: #line 142 "{{.*}}warp_specialize.tile.cpp"
// TWO-NEXT: for (int k0 = 0; k0 < half_k; k0 += 64) {
// TWO: fill_phase ^= fill_stage == 0;
// TWO-NEXT: }
// TWO-NEXT: #line 152 "{{.*}}warp_specialize.tile.cpp"
// TWO-NEXT: for (int k0_1 = half_k; k0_1 < k; k0_1 += 64) {
// TWO-NEXT: rt::mbarrier_wait(empty + fill_stage, fill_phase ^ 1);
// TWO: rt::setmaxnreg_inc<216>();
// TWO: for (int k0 = 0; k0 < half_k; k0 += 64) {
// TWO-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// TWO: rt::mma_wait_all([[ACC1:acc_[0-9]+]]);
// TWO-NEXT: rt::end_basic_block();
// TWO-NEXT: if (0 < half_k && threadIdx.x % 32 == 0)
// TWO-NEXT: rt::mbarrier_arrive(empty + (read_stage == 0 ? 2 : read_stage - 1));
// TWO-NEXT: }
// TWO: for (int k0_1 = half_k; k0_1 < k; k0_1 += 64) {
// TWO-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// TWO: if (k0_1 != half_k && threadIdx.x % 32 == 0)
// TWO: rt::mma_wait_all(acc);
// TWO-NEXT: rt::end_basic_block();
// TWO-NEXT: }
// TWO: rt::reduce<0, {{L[0-9]+}}, {{L[0-9]+}}, 128>(
// TWO-NOT: __syncthreads
// TWO: rt::tma_store_wait<false>();
// PERS: // mm_persistent_c0_aligned16_tma: {{.*}}; warp-specialized: warps 4-7 issue the copies of the loop at line 186 (setmaxnreg 40 / 216).
// PERS: if (threadIdx.x == 128) {
// PERS: for (int pid = [[PID:t[0-9]+]]; pid < blocks; pid += [[STEP:t[0-9]+]]) {
// PERS: const int [[ROW:t[0-9]+]] = ({{t[0-9]+}} * 128);
// PERS: const int [[COL:t[0-9]+]] = ({{t[0-9]+}} * 128);
// PERS-NEXT: #line 186 "{{.*}}warp_specialize.tile.cpp"
// PERS-NEXT: for (int k0 = 0; k0 < k; k0 += 64) {
// PERS-NEXT: rt::mbarrier_wait(empty + fill_stage, fill_phase ^ 1);
// PERS: &x_map, full + fill_stage, k0, [[ROW]]);
// PERS: &y_map, full + fill_stage, [[COL]], k0);
// PERS: fill_phase ^= fill_stage == 0;
// PERS-NEXT: }
// PERS-NEXT: }
// PERS-NEXT: }
// PERS-NEXT: return;
// PERS: rt::setmaxnreg_inc<216>();
// PERS: for (int pid = [[PID]]; pid < blocks; pid += [[STEP]]) {
// The ring's position, carried across tiles, stays in uniform registers.
// PERS-NEXT: read_stage = rt::warp_uniform(read_stage);
// PERS-NEXT: phase = rt::warp_uniform(phase);
// PERS: rt::mma_wait_all(acc);
// PERS-NEXT: rt::end_basic_block();
// PERS-NEXT: if (0 < k && threadIdx.x % 32 == 0)
// PERS-NEXT: rt::mbarrier_arrive(empty + (read_stage == 0 ? 2 : read_stage - 1));
// PERS: rt::tma_store_tile(&acc_map, acc_out, [[COL]], [[ROW]]);
// NOT: // mm_guarded_c0_aligned16_tma: {{.*}}; not warp-specialized: the loop at line 186 is inside the if at line 226.
// NOT-NOT: setmaxnreg
// SM80-NOT: _tma(
// SM80-NOT: setmaxnreg
// clang-format on
