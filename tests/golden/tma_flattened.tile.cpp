// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/mm_persistent.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_persistent.cu -o %t/sm90a.o %}
// clang-format on
//
// A persistent kernel (tutorial 09): each program walks blocks of C, and
// each block's K loop is a TMA pipeline. The pipeline is set up once around
// the outer loop and its prefetches follow a cursor over the loop nest, so
// the next block's first stages load while this block finishes. When the
// cursor moves to the next block it re-runs the outer body's scalar ops
// that say where the boxes start and keeps their results.
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
TILE_KERNEL void mm_persistent(const tile::half *a, const tile::half *b,
                               float *c, int m, int n, int k) {
  const int blocks_n = tile::cdiv(n, BN);
  const int blocks = tile::cdiv(m, BM) * blocks_n;
  for (int pid = tile::program_id(0); pid < blocks;
       pid += tile::num_programs(0)) {
    const int pid_m = pid / blocks_n, pid_n = pid % blocks_n;
    auto rm = pid_m * BM + tile::arange<BM>();
    auto rn = pid_n * BN + tile::arange<BN>();
    auto acc = tile::zeros<float, BM, BN>();
    for (int k0 = 0; k0 < k; k0 += BK) {
      auto kk = k0 + tile::arange<BK>();
      auto x = tile::load(
          a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
          tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
      auto y = tile::load(
          b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
          tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
      acc = tile::dot(x, y, acc);
    }
    tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn),
                acc, tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
  }
}

TILE_CONFIGS(mm_persistent, tile::config{.meta = {128, 128, 64},
                                         .num_warps = 4,
                                         .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(mm_persistent)
tile::grid mm_persistent_grid(const tile::half *, const tile::half *, float *,
                              int, int, int) {
  return {tile::num_sms()};
}

// clang-format off
// CHECK-LABEL: mm_persistent_c0_aligned16_tma(
// CHECK: { // pipeline: x, y in 3 shared-memory stages, prefetched 2 iterations ahead across the enclosing loop; one dot left in flight
// CHECK: rt::mbarrier_init(full + s, 1);
// CHECK: int read_stage = 0;
// CHECK-NEXT: unsigned phase = 0;
// CHECK-NEXT: int next_pid = [[FIRST:t[0-9]+]];
// CHECK-NEXT: int next_k0 = 0;
// CHECK-NEXT: int next_[[ROW:t[0-9]+]] = 0;
// CHECK-NEXT: int next_[[COL:t[0-9]+]] = 0;
// CHECK-NEXT: if (next_pid < blocks) {
// CHECK-NEXT: const int pid = next_pid;
// CHECK: const int pid_m = (pid / blocks_n);
// CHECK: next_[[ROW]] = [[ROW]];
// CHECK-NEXT: next_[[COL]] = [[COL]];
// CHECK: for (int stage = 0; stage < 2; ++stage) {
// CHECK-NEXT: {
// CHECK-NEXT: const int k0 = next_k0;
// CHECK-NEXT: if (next_pid < blocks && k0 < k && threadIdx.x == 0) {
// CHECK-NEXT: rt::mbarrier_arrive_expect_tx(full + stage, 32768);
// CHECK-NEXT: rt::tma_load_tile(x_stage{x_ring + stage * x_stage::elems}, &x_map,
// CHECK-NEXT: full + stage, k0, next_[[ROW]]);
// CHECK: next_k0 += 64;
// CHECK-NEXT: if (next_k0 >= k) {
// CHECK-NEXT: next_k0 = 0;
// CHECK-NEXT: next_pid += [[STEP:t[0-9]+]];
// CHECK-NEXT: if (next_pid < blocks) {
// CHECK: for (int pid = [[FIRST]]; pid < blocks; pid += [[STEP]]) {
// CHECK: for (int k0 = 0; k0 < k; k0 += 64) {
// CHECK-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// CHECK: rt::mma_tiles<{{L[0-9]+}}, rt::f16, 1>(
// CHECK-NEXT: rt::operand<true>(x_stage{x_ring + read_stage * x_stage::elems}),
// CHECK-NEXT: rt::operand<false>(y_stage{y_ring + read_stage * y_stage::elems}),
// CHECK-NEXT: acc{{[_0-9]*}});
// CHECK-NEXT: {
// CHECK-NEXT: const int k0 = next_k0;
// CHECK-NEXT: if (next_pid < blocks && k0 < k && threadIdx.x == 0) {
// CHECK-NEXT: rt::mbarrier_arrive_expect_tx(full + (read_stage + 2) % 3, 32768);
// CHECK: next_pid += [[STEP]];
// CHECK: phase ^= read_stage == 0;
// CHECK-NEXT: }
// CHECK-NEXT: rt::mma_wait_all({{acc[_0-9]*}});
// CHECK-NEXT: __syncthreads();
// CHECK: { // store acc through shared memory: one TMA store
// CHECK-NEXT: const rt::smem_tile<float, 128, 128> acc_out{
// CHECK-NEXT: rt::dynamic_smem<float>(99328)};
// CHECK: rt::tma_store_tile(&acc_map, acc_out, [[COL]], [[ROW]]);
// CHECK-LABEL: mm_persistent_c0_aligned16(
// CHECK-NOT: across the enclosing loop
// CHECK: rt::cp_async_commit();
// clang-format on
