// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/mm2_persistent.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm2_persistent.cu -o %t/sm90a.o %}
// clang-format on
//
// A persistent kernel whose body has two pipelined K loops (C = A B + A2
// B2). Each could run its prefetches on into the next block, but the
// stages of a pipeline flattened that way stay filled through the whole
// outer body, where the other loop's stages take the same shared memory:
// neither is flattened, each is a pipeline of its own.
#include <tile/tile.hpp>

/// acc + a b over the block (rm, rn) of C.
template <int BM, int BN, int BK>
tile::tensor<float, BM, BN>
accumulate(const tile::half *a, const tile::half *b,
           const tile::tensor<int, BM> &rm, const tile::tensor<int, BN> &rn,
           int m, int n, int k, tile::tensor<float, BM, BN> acc) {
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
  return acc;
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm2_persistent(const tile::half *a, const tile::half *b,
                                const tile::half *a2, const tile::half *b2,
                                float *c, int m, int n, int k) {
  const int blocks_n = tile::cdiv(n, BN);
  const int blocks = tile::cdiv(m, BM) * blocks_n;
  for (int pid = tile::program_id(0); pid < blocks;
       pid += tile::num_programs(0)) {
    auto rm = pid / blocks_n * BM + tile::arange<BM>();
    auto rn = pid % blocks_n * BN + tile::arange<BN>();
    auto acc = accumulate<BM, BN, BK>(a, b, rm, rn, m, n, k,
                                      tile::zeros<float, BM, BN>());
    acc = accumulate<BM, BN, BK>(a2, b2, rm, rn, m, n, k, acc);
    tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn),
                acc, tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
  }
}

TILE_CONFIGS(mm2_persistent, tile::config{.meta = {128, 128, 64},
                                          .num_warps = 4,
                                          .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(mm2_persistent)
tile::grid mm2_persistent_grid(const tile::half *, const tile::half *,
                               const tile::half *, const tile::half *, float *,
                               int, int, int) {
  return {tile::num_sms()};
}

// clang-format off
// CHECK-LABEL: mm2_persistent_c0_aligned16_tma(
// CHECK-NOT: across the enclosing loop
// CHECK: for (int pid = {{t[0-9]+}}; pid < blocks; pid += {{t[0-9]+}}) {
// CHECK: { // pipeline: x, y in 3 shared-memory stages, prefetched 2 iterations ahead; one dot left in flight
// CHECK: rt::tma_load_tile(x_stage{x_ring + stage * x_stage::elems}, &x_map,
// CHECK: for (int k0 = 0; k0 < k; k0 += 64) {
// CHECK: { // pipeline: x_1, y_1 in 3 shared-memory stages, prefetched 2 iterations ahead; one dot left in flight
// CHECK: rt::tma_load_tile(x_1_stage{x_1_ring + stage_1 * x_1_stage::elems},
// CHECK: for (int k0_1 = 0; k0_1 < k; k0_1 += 64) {
// CHECK-LABEL: mm2_persistent_c0_aligned16(
// clang-format on
