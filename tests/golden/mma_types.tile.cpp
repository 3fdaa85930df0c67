// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s --check-prefix=I8 < %t/mm_i8.cu
// RUN: %FileCheck %s --check-prefixes=TF32,TF32-90 < %t/mm_tf32.cu
// RUN: %FileCheck %s --check-prefix=IEEE < %t/mm_ieee.cu
// RUN: %FileCheck %s --check-prefix=COMPUTED < %t/computed_i8.cu
// RUN: %FileCheck %s --check-prefix=F16ACC < %t/mm_f16acc.cu
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=I8 < %t.80/mm_i8.cu
// RUN: %FileCheck %s --check-prefixes=TF32,TF32-80 < %t.80/mm_tf32.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_i8.cu -o %t/i8.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/computed_i8.cu -o %t/computed_i8.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_tf32.cu -o %t/tf32.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/mm_tf32.cu -o %t.80/tf32.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_f16acc.cu -o %t/f16acc.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/mm_f16acc.cu -o %t.80/f16acc.o %}
// clang-format on
//
// Tensor cores beyond fp16: 8-bit integers accumulate in int32 (k32 per
// instruction, so BK is a multiple of 32) and fp32 operands at TF32
// precision (k8); at IEEE precision fp32 stays on CUDA cores. wgmma and
// ldmatrix transpose only 16-bit elements: B given transposed (N x K) is
// staged K-major and both paths read it as is; fp32 B in row-major order
// is staged as it comes: on sm_90a its dot multiplies C^T = B^T A^T, the
// accumulator in the transpose of a wgmma layout (warps stacked along N,
// two rows per thread) and B^T's fragments gathered into registers, where
// wgmma takes its A; mma.sync (sm_80) gathers them as they are. A
// computed int8 A, in the accumulator's layout, goes to the tensor cores
// from registers (rt::dot_mma exchanges each row's column pairs into
// fragments: wgmma's register form); its B is staged. A half accumulator
// of half operands runs on
// tensor cores too (rt::mma_tiles sums in float and rounds once per dot),
// never left in flight.
#include <cstdint>
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
TILE_KERNEL void mm_i8(const int8_t *a, const int8_t *b_t, int32_t *c, int m,
                       int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<int32_t, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(a + tile::expand_dims<1>(rm) * k +
                        tile::expand_dims<0>(kk));
    auto y = tile::load(b_t + tile::expand_dims<1>(kk) +
                        tile::expand_dims<0>(rn) * k);
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn), acc);
}

// C = A B, both row-major, accumulated in TC.
template <class T, class TC, int BM, int BN, int BK, int IEEE>
void mm_rows(const T *a, const T *b, TC *c, int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<TC, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(a + tile::expand_dims<1>(rm) * k +
                        tile::expand_dims<0>(kk));
    auto y = tile::load(b + tile::expand_dims<1>(kk) * n +
                        tile::expand_dims<0>(rn));
    acc = tile::dot(x, y, acc,
                    IEEE ? tile::input_precision::ieee
                         : tile::input_precision::tf32);
  }
  tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn), acc);
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm_tf32(const float *a, const float *b, float *c, int n,
                         int k) {
  mm_rows<float, float, BM, BN, BK, 0>(a, b, c, n, k);
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm_ieee(const float *a, const float *b, float *c, int n,
                         int k) {
  mm_rows<float, float, BM, BN, BK, 1>(a, b, c, n, k);
}

template <int BM, int BN, int BK>
TILE_KERNEL void computed_i8(const int8_t *a, const int8_t *b, int32_t *c) {
  auto rm = tile::arange<BM>(), rn = tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto x = tile::load(a + tile::expand_dims<1>(rm) * BK +
                      tile::expand_dims<0>(rk));
  auto y = tile::load(b + tile::expand_dims<1>(rk) * BN +
                      tile::expand_dims<0>(rn));
  tile::store(c + tile::expand_dims<1>(rm) * BN + tile::expand_dims<0>(rn),
              tile::dot(tile::maximum(x, int8_t(0)), y));
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm_f16acc(const tile::half *a, const tile::half *b,
                           tile::half *c, int n, int k) {
  mm_rows<tile::half, tile::half, BM, BN, BK, 0>(a, b, c, n, k);
}

TILE_CONFIGS(mm_i8, tile::config{
                        .meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3});
TILE_CONFIGS(mm_tf32, tile::config{
                          .meta = {64, 64, 32}, .num_warps = 4, .num_stages = 3});
TILE_CONFIGS(mm_ieee, tile::config{
                          .meta = {32, 32, 16}, .num_warps = 4, .num_stages = 2});
TILE_CONFIGS(computed_i8, tile::config{.meta = {64, 64, 64}, .num_warps = 4});

template <int BM, int BN, int BK>
TILE_GRID(mm_i8)
tile::grid mm_i8_grid(const int8_t *, const int8_t *, int32_t *, int m, int n,
                      int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}
template <int BM, int BN, int BK>
TILE_GRID(mm_tf32)
tile::grid mm_tf32_grid(const float *, const float *, float *, int n, int) {
  return {n / BM, tile::cdiv(n, BN)};
}
template <int BM, int BN, int BK>
TILE_GRID(mm_ieee)
tile::grid mm_ieee_grid(const float *, const float *, float *, int n, int) {
  return {n / BM, tile::cdiv(n, BN)};
}
TILE_CONFIGS(mm_f16acc, tile::config{.meta = {128, 128, 64},
                                     .num_warps = 4,
                                     .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(mm_f16acc)
tile::grid mm_f16acc_grid(const tile::half *, const tile::half *, tile::half *,
                          int n, int) {
  return {n / BM, tile::cdiv(n, BN)};
}
template <int BM, int BN, int BK>
TILE_GRID(computed_i8)
tile::grid computed_i8_grid(const int8_t *, const int8_t *, int32_t *) {
  return {1};
}

// clang-format off
// I8-LABEL: mm_i8_c0_aligned16(
// I8: using x_stage = rt::smem_tile<int8_t, 128, 64>;
// I8: using y_stage = rt::smem_tile<int8_t, 128, 64>;
// I8: rt::cp_async_v<16>(y_dst.template at<{{L[0-9]+}}, true>(e)
// I8: int acc_{{[0-9]+}}[128];
// I8: rt::mma_tiles<{{L[0-9]+}}, int8_t, 1>(
// I8-NEXT: rt::operand<true>(x_stage{x_ring + read_stage * x_stage::elems}),
// I8-NEXT: rt::operand<true>(y_stage{y_ring + read_stage * y_stage::elems}),

// TF32-90: #blocked<spt=[2, 1], tpw=[4, 8], wpc=[1, 4], order=[0, 1], warp_reps=[8, 2]> over [64, 64]
// TF32-80: #blocked<spt=[1, 2], tpw=[8, 4], wpc=[2, 2], order=[1, 0], warp_reps=[2, 4]> over [64, 64]
// TF32-LABEL: mm_tf32_c0_aligned16(
// TF32: using x_stage = rt::smem_tile<float, 64, 32>;
// TF32: using y_stage = rt::smem_tile<float, 32, 64>;
// TF32: rt::mma_tiles<{{L[0-9]+}}, float, 1>(
// TF32-NEXT: rt::operand<true>(x_stage{x_ring + read_stage * x_stage::elems}),
// TF32-NEXT: rt::operand<false>(y_stage{y_ring + read_stage * y_stage::elems}),

// IEEE-LABEL: mm_ieee_c0_aligned16(
// IEEE-NOT: rt::mma_tiles
// IEEE: rt::dot_fma<rt::precision::ieee,

// COMPUTED-LABEL: computed_i8_c0_aligned16(
// COMPUTED-NOT: rt::fragment<
// COMPUTED: rt::dot_mma<

// F16ACC-LABEL: mm_f16acc_c0_aligned16(
// F16ACC: { // pipeline: x, y in 3 shared-memory stages, prefetched 2 iterations ahead
// F16ACC-NOT: one dot left in flight
// F16ACC: rt::f16 acc_{{[0-9]+}}[128];
// F16ACC: rt::mma_tiles<{{L[0-9]+}}, rt::f16>(
// F16ACC-NOT: rt::mma_wait_all(
// F16ACC: rt::cp_async_wait<0>();
// clang-format on
