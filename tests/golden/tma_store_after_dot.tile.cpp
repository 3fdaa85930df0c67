// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/add_step.cu
// RUN: %FileCheck %s --check-prefix=WS < %t/add_step.cu
// RUN: %FileCheck %s --check-prefix=BETWEEN < %t/transposed_add.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/add_step.cu -o %t/add_step.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/transposed_add.cu -o %t/transposed_add.o %}
// clang-format on
//
// A tensor-core dot of operands in registers stages them in the scratch
// buffer and ends at a barrier, so that the next op may write there; a TMA
// store starts with thread 0's wait for the store buffer, then a barrier.
// Where the store follows the dot before any other writer of the scratch,
// one barrier does for both (a fused attention backward's dQ step adds
// dS^T K to memory by TMA each iteration): the dot is told so
// (rt::then::tma_store), thread 0 waits for the buffer before the dot's
// barrier, the dot returns without its last one and the store's barrier,
// after its tile is written, frees the scratch. With a producer warpgroup
// the consumers' barrier count comes first. A transpose between the two
// writes the scratch itself: both keep their barriers (transposed_add).
// The store's barrier, after every dot reading the iteration's stage, also
// tells the next iteration's prefetch that the stage is free: the loop
// starts without a barrier of its own.
#include <tile/tile.hpp>

/// For each block of Q's rows: P = K Q^T, then out += trans(P) K (or its
/// transpose, TRANSPOSED, with BM == D), added by TMA.
template <int BM, int BN, int D, int TRANSPOSED>
void add_loop(const tile::half *k, const tile::half *q, float *out, int m) {
  auto rn = tile::arange<BN>();
  auto rd = tile::arange<D>();
  auto k_blk =
      tile::load(k + tile::expand_dims<1>(rn) * D + tile::expand_dims<0>(rd));
  for (int m0 = 0; m0 < m; m0 += BM) {
    auto rows = m0 + tile::arange<BM>();
    auto qt = tile::load(q + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(rows) * D,
                         tile::expand_dims<0>(rows < m));
    auto p = tile::cast<tile::half>(tile::dot(k_blk, qt));
    auto product = tile::dot(tile::trans(p), k_blk);
    auto in_rows = tile::expand_dims<1>(rows < m);
    auto at = out + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd);
    if (TRANSPOSED)
      tile::atomic_add(at, tile::trans(product), in_rows,
                       tile::mem_order::relaxed);
    else
      tile::atomic_add(at, product, in_rows, tile::mem_order::relaxed);
  }
}

template <int BM, int BN, int D>
TILE_KERNEL void add_step(const tile::half *k, const tile::half *q, float *out,
                          int m) {
  add_loop<BM, BN, D, 0>(k, q, out, m);
}
TILE_CONFIGS(add_step,
             tile::config{
                 .meta = {64, 64, 64}, .num_warps = 4, .num_stages = 2},
             tile::config{.meta = {64, 64, 64},
                          .num_warps = 4,
                          .num_stages = 2,
                          .warp_specialize = true});
template <int BM, int BN, int D>
TILE_GRID(add_step)
tile::grid add_step_grid(const tile::half *, const tile::half *, float *, int) {
  return {1};
}

template <int BM, int BN, int D>
TILE_KERNEL void transposed_add(const tile::half *k, const tile::half *q,
                                float *out, int m) {
  add_loop<BM, BN, D, 1>(k, q, out, m);
}
TILE_CONFIGS(transposed_add, tile::config{.meta = {64, 64, 64},
                                          .num_warps = 4,
                                          .num_stages = 2});
template <int BM, int BN, int D>
TILE_GRID(transposed_add)
tile::grid
    transposed_add_grid(const tile::half *, const tile::half *, float *, int) {
  return {1};
}

// clang-format off
// CHECK-LABEL: add_step_c0_aligned16_tma(
// CHECK: for (int m0 = 0; m0 < m; m0 += 64) {
// CHECK-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// CHECK-NEXT: const int m0_ahead = m0 + 1 * 64;
// CHECK: rt::dot_mma_trans_a<[[PL:L[0-9]+]], [[BL:L[0-9]+]], [[PL]], 0, rt::then::tma_store>(
// CHECK-NEXT: p, k_blk_resident, {{t[0-9]+}}, product, scratch);
// CHECK-NOT: __syncthreads
// CHECK: { // add product through shared memory: one TMA reduce-add
// CHECK-NEXT: const rt::smem_tile<float, 64, 64> product_out{
// CHECK-NEXT: rt::dynamic_smem<float>({{[0-9]+}})};
// CHECK-NEXT: // Free: waited for in the dot at line 39, before its barrier.
// CHECK-NEXT: product_out.template store<[[PL]]>(product);
// CHECK-NEXT: rt::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: if (threadIdx.x == 0) {
// CHECK-NEXT: rt::tma_store_tile<rt::tma_write::add>(
// CHECK-LABEL: add_step_c0_aligned16(
// CHECK-NOT: rt::then
// CHECK: rt::dot_mma_trans_a<{{L[0-9]+}}, {{L[0-9]+}}, {{L[0-9]+}}>(
// CHECK-LABEL: add_step_c0_generic(

// WS-LABEL: add_step_c1_aligned16_tma(
// WS: rt::dot_mma_trans_a<{{L[0-9]+}}, {{L[0-9]+}}, {{L[0-9]+}}, 128, rt::then::tma_store>(
// WS-NOT: sync_threads
// WS: // Free: waited for in the dot at line 39, before its barrier.
// WS-NEXT: product_out.template store<
// WS-NEXT: rt::fence_proxy_async();
// WS-NEXT: rt::sync_threads<128>();

// BETWEEN-LABEL: transposed_add_c0_aligned16_tma(
// BETWEEN: rt::dot_mma_trans_a<{{L[0-9]+}}, {{L[0-9]+}}, {{L[0-9]+}}>(
// BETWEEN: rt::transpose<
// BETWEEN: { // add {{t[0-9]+}} through shared memory: one TMA reduce-add
// BETWEEN-NOT: Free
// BETWEEN: rt::tma_store_wait<true>();
// BETWEEN-NEXT: __syncthreads();
// clang-format on
