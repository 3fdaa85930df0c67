// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/chain.cu
// RUN: %FileCheck %s --check-prefix=SYNC < %t/chain.cu
// RUN: %tilecc %s --emit=layouts | %FileCheck %s --check-prefix=LAYOUTS
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/chain.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/chain.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/chain.cu -o %t.80/sm80.o %}
// clang-format on
//
// Two chained dots, as in attention: the first dot's a is loaded before
// the loop and the second's is computed from the first's result. Neither
// is staged: both dots put all four warps along M, a takes the layout of
// the mma accumulator (whose registers are mma's A fragments; the loaded
// tile converts to it once, before the loop, through a swizzled tile that
// each thread writes 8 and reads 2 elements at a time), and the dots read
// it from registers (rt::fragment) while the loop pipelines the b loads.
// Dots with a in registers are not left in flight. The unaligned variant
// keeps the pipeline and copies at once (rt::copy_v).
#include <tile/tile.hpp>

template <int BM, int BN, int D>
TILE_KERNEL void chain(const tile::half *q, const tile::half *k,
                       const tile::half *v, float *o, int n) {
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto qt = tile::load(q + tile::expand_dims<1>(rows) * D +
                       tile::expand_dims<0>(rd));
  auto acc = tile::zeros<float, BM, D>();
  for (int n0 = 0; n0 < n; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    auto kt = tile::load(k + tile::expand_dims<1>(rd) +
                         tile::expand_dims<0>(cols) * D);
    auto s = tile::dot(qt, kt);
    auto vb = tile::load(v + tile::expand_dims<1>(cols) * D +
                         tile::expand_dims<0>(rd));
    acc = tile::dot(tile::cast<tile::half>(tile::exp2(s)), vb, acc);
  }
  tile::store(o + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd),
              acc);
}
TILE_CONFIGS(chain, tile::config{.meta = {64, 64, 64}, .num_warps = 4,
                                 .num_stages = 3});

template <int BM, int BN, int D>
TILE_GRID(chain)
tile::grid chain_grid(const tile::half *, const tile::half *,
                      const tile::half *, float *, int n) {
  return {n / BM};
}

// clang-format off
// CHECK-LABEL: chain_c0_aligned16(
// Every conversion of the kernel passes through one buffer, as large as
// the largest tile (Q's 64 x 64 halves).
// CHECK: alignas(16) __shared__ unsigned char [[SCRATCH:scratch]][8192];
// CHECK: { // #blocked<spt=[1, 8], tpw=[4, 8], wpc=[4, 1], order=[1, 0]> -> #blocked<spt=[1, 2], tpw=[8, 4], wpc=[4, 1], order=[1, 0], warp_reps=[2, 8]>
// CHECK-NEXT: rt::f16 *const [[QS:t[0-9]+_smem]] = reinterpret_cast<rt::f16 *>([[SCRATCH]]);
// CHECK-NEXT: rt::smem_tile<rt::f16, 64, 64>{[[QS]]}.template store<L{{[0-9]+}}>(qt);
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: rt::smem_tile<rt::f16, 64, 64>{[[QS]]}.template load<[[ACC:L[0-9]+]]>([[Q:t[0-9]+]]);
// CHECK-NEXT: __syncthreads();
// CHECK: { // pipeline: kt, vb in 3 shared-memory stages, prefetched 2 iterations ahead
// CHECK: for (int n0 = 0; n0 < n; n0 += 64) {
// CHECK: rt::cp_async_v<8>(kt_dst_1
// CHECK: rt::cp_async_v<8>(vb_dst_1
// CHECK: rt::mma_tiles<[[ACC]], rt::f16>(
// CHECK-NEXT: rt::fragment<[[ACC]]>([[Q]]),
// CHECK-NEXT: rt::operand<true>(kt_stage{kt_ring + read_stage * kt_stage::elems}),
// CHECK: [[P:t[0-9]+]][e] = rt::convert<rt::f16>(rt::exp2(s[e]));
// CHECK: rt::mma_tiles<[[ACC]], rt::f16>(
// CHECK-NEXT: rt::fragment<[[ACC]]>([[P]]),
// CHECK-NEXT: rt::operand<false>(vb_stage{vb_ring + read_stage * vb_stage::elems}),
// CHECK-LABEL: chain_c0_generic(
// CHECK: rt::copy_v<1>(kt_dst
// CHECK: rt::fragment<[[ACC]]>([[Q]]),
// The layout dump covers the convert_layout ops that layout assignment
// adds, with their axis info.
// LAYOUTS: [[QA:%[0-9]+]] = convert_layout %{{[0-9]+}}.qt : tensor<f16, {{\[}}64, 64]> #blocked<{{.*}}warp_reps=[2, 8]> {contiguity=[1, 1]
// LAYOUTS: %{{[0-9]+}}.s = dot [[QA]], %{{[0-9]+}}.kt,
// SYNC-NOT: rt::mma_tiles<{{.*}}, 1>(

// SM80: { // #blocked<spt=[1, 8], tpw=[4, 8], wpc=[4, 1], order=[1, 0]> -> #blocked<spt=[1, 2], tpw=[8, 4], wpc=[4, 1], order=[1, 0], warp_reps=[2, 8]>
// SM80: rt::fragment<
// clang-format on
