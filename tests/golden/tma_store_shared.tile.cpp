// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/mm_twice.cu
// RUN: %FileCheck %s --check-prefix=WIDER < %t/mm_then_wider.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_twice.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_then_wider.cu -o %t/wider.o %}
// clang-format on
//
// TMA stores stage their tile in shared memory, and each waits for the
// reads of the stores before it (thread 0's bulk groups) before writing
// there: so all of a kernel's TMA stores share one buffer rather than one
// each. A persistent attention program that writes two row blocks per tile
// (its causal pairs) fits its stores that way. Stores that come after
// every pipeline, outside loops, write over the rings, whose copies have
// all landed by then (mm_twice: the rings' 96 KB hold the 32 KB buffer).
// Otherwise the buffer comes after the largest of the kernel's rings, not
// after those before the first store: a later loop's larger ring would
// overwrite a store that may still read it (mm_then_wider).
#include <tile/tile.hpp>

/// A B for one BM x BN block, BK of K at a time.
template <int BM, int BN, int BK>
tile::tensor<float, BM, BN> product(const tile::half *a, const tile::half *b,
                                    const tile::tensor<int, BM> &rm,
                                    const tile::tensor<int, BN> &rn, int m,
                                    int n, int k) {
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
  return acc;
}

// C = A B and D = 2 A B, both stored by TMA.
template <int BM, int BN, int BK>
TILE_KERNEL void mm_twice(const tile::half *a, const tile::half *b,
                          tile::half *c, tile::half *d, int m, int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto acc = product<BM, BN, BK>(a, b, rm, rn, m, n, k);
  auto in = tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n);
  auto at = tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn);
  tile::store(c + at, tile::cast<tile::half>(acc), in);
  tile::store(d + at, tile::cast<tile::half>(acc * 2.0f), in);
}
TILE_CONFIGS(mm_twice, tile::config{.meta = {128, 128, 64},
                                    .num_warps = 4,
                                    .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(mm_twice)
tile::grid mm_twice_grid(const tile::half *, const tile::half *, tile::half *,
                         tile::half *, int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// C = A B, then D = A B again with twice the K step: two stages of the
// second loop (2 x 64 KB) pass the first's end (2 x 32 KB).
template <int BM, int BN, int BK>
TILE_KERNEL void mm_then_wider(const tile::half *a, const tile::half *b,
                               tile::half *c, tile::half *d, int m, int n,
                               int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto in = tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n);
  auto at = tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn);
  tile::store(c + at,
              tile::cast<tile::half>(product<BM, BN, BK>(a, b, rm, rn, m, n, k)),
              in);
  tile::store(
      d + at,
      tile::cast<tile::half>(product<BM, BN, 2 * BK>(a, b, rm, rn, m, n, k)),
      in);
}
TILE_CONFIGS(mm_then_wider, tile::config{.meta = {128, 128, 64},
                                         .num_warps = 4,
                                         .num_stages = 2});
template <int BM, int BN, int BK>
TILE_GRID(mm_then_wider)
tile::grid mm_then_wider_grid(const tile::half *, const tile::half *,
                              tile::half *, tile::half *, int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// clang-format off
// CHECK-LABEL: // mm_twice_c0_aligned16_tma:
// CHECK: store [[C:t[0-9]+]]: tma
// CHECK: store [[D:t[0-9]+]]: tma
// CHECK: { // store [[C]] through shared memory: one TMA store
// CHECK-NEXT: const rt::smem_tile<rt::f16, 128, 128> [[C]]_out{
// CHECK-NEXT: rt::dynamic_smem<rt::f16>(0)};
// CHECK-NEXT: if (threadIdx.x == 0)
// CHECK-NEXT: rt::tma_store_wait<true>();
// CHECK: { // store [[D]] through shared memory: one TMA store
// CHECK-NEXT: const rt::smem_tile<rt::f16, 128, 128> [[D]]_out{
// CHECK-NEXT: rt::dynamic_smem<rt::f16>(0)};
// CHECK-NEXT: if (threadIdx.x == 0)
// CHECK-NEXT: rt::tma_store_wait<true>();
// The rings (3 x 32 KB) and their barriers: the buffer is inside them.
// CHECK-LABEL: launch_mm_twice_c0_aligned16_tma(
// CHECK: mm_twice_c0_aligned16_tma<<<grid, 128, 99352, stream>>>(
// clang-format on

// clang-format off
// The second loop's ring ends at 128 KB, its barriers at 129 KB: C's
// store, made before that loop, takes its buffer there, as D's does.
// WIDER-LABEL: // mm_then_wider_c0_aligned16_tma:
// WIDER: { // store [[C:t[0-9]+]] through shared memory: one TMA store
// WIDER-NEXT: const rt::smem_tile<rt::f16, 128, 128> [[C]]_out{
// WIDER-NEXT: rt::dynamic_smem<rt::f16>(132096)};
// WIDER: rt::f16 *const y_1_ring = rt::dynamic_smem<rt::f16>(65536);
// WIDER: { // store [[D:t[0-9]+]] through shared memory: one TMA store
// WIDER-NEXT: const rt::smem_tile<rt::f16, 128, 128> [[D]]_out{
// WIDER-NEXT: rt::dynamic_smem<rt::f16>(132096)};
// WIDER-LABEL: launch_mm_then_wider_c0_aligned16_tma(
// WIDER: mm_then_wider_c0_aligned16_tma<<<grid, 128, 165888, stream>>>(
// clang-format on
