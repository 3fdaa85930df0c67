// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/scores.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/scores.cu -o %t/scores.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/scores.cu -o %t/scores80.o %}
// RUN: rm -rf %t.80 && %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/scores.cu
// RUN: %FileCheck %s --check-prefix=FEW < %t/scores.cu
//
// A 64-row product in an 8-warp program: four warps stack along M (one
// warpgroup's 64 rows) and two along N. Warps are numbered M first, unlike
// threads, so that warps 0-3 are the warpgroup of the first half of N and
// 4-7 of the second: each issues its wgmmas with its own B columns. (sm_80
// splits warps Triton's way, in the threads' order.) A 32-row product over
// four warps, too few rows for a warpgroup, takes that split on sm_90a too
// and runs on mma.sync rather than CUDA cores.
#include <tile/tile.hpp>

template <int BM, int BN, int D>
TILE_KERNEL void scores(const tile::half *k, const tile::half *q, float *out) {
  auto rn = tile::arange<BN>();
  auto rm = tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto kb =
      tile::load(k + tile::expand_dims<1>(rn) * D + tile::expand_dims<0>(rd));
  auto qt =
      tile::load(q + tile::expand_dims<1>(rd) + tile::expand_dims<0>(rm) * D);
  auto p = tile::cast<tile::half>(tile::dot(kb, qt));
  tile::store(out + tile::expand_dims<1>(rm) * D + tile::expand_dims<0>(rd),
              tile::dot(tile::trans(p), kb));
}
TILE_CONFIGS(scores, tile::config{.meta = {64, 64, 64}, .num_warps = 8},
             tile::config{.meta = {32, 64, 64}, .num_warps = 4});
template <int BM, int BN, int D>
TILE_GRID(scores)
tile::grid scores_grid(const tile::half *, const tile::half *, float *) {
  return {1};
}

// clang-format off
// CHECK: [[ACC:L[0-9]+]] = #blocked<spt=[1, 2], tpw=[8, 4], wpc=[4, 2], order=[1, 0], warp_reps=[2, 4], warp_order=[0, 1]> over [64, 64]
// CHECK: using [[ACC]] =
// CHECK-NEXT: rt::blocked<rt::dims{64, 64}, rt::dims{1, 2}, rt::dims{8, 4},
// CHECK-NEXT: rt::dims{4, 2}, rt::dims{1, 0}, rt::dims{2, 4}, rt::dims{0, 1}>;
// CHECK-LABEL: scores_c0_aligned16(
// CHECK: rt::dot_mma<{{L[0-9]+}}, {{L[0-9]+}}, [[ACC]]>(kb, qt,
// CHECK: rt::dot_mma_trans_a<[[ACC]], {{L[0-9]+}}, [[ACC]]>(p, kb,
// SM80: = #blocked<spt=[1, 2], tpw=[8, 4], wpc=[2, 4], order=[1, 0], warp_reps=[2, 2]> over [64, 64]
// SM80-NOT: warp_order=
// FEW: [[FEW:L[0-9]+]] = #blocked<spt=[1, 2], tpw=[8, 4], wpc=[1, 4], order=[1, 0], warp_reps=[2, 2]> over [32, 64]
// FEW-LABEL: scores_c1_aligned16(
// FEW-NOT: dot_fma
// FEW: rt::dot_mma<{{L[0-9]+}}, {{L[0-9]+}}, [[FEW]]>(
// FEW-NOT: dot_fma
// clang-format on
