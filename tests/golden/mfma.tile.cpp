// RUN: rm -rf %t && %tilecc %s -o %t --target gfx90a && %FileCheck %s < %t/mm.hip
// RUN: %FileCheck %s --check-prefix=BF16 < %t/mm_bf16.hip
// RUN: %FileCheck %s --check-prefix=NARROW < %t/narrow.hip
// RUN: %FileCheck %s --check-prefix=FMA < %t/shallow.hip
// RUN: %FileCheck %s --check-prefix=I8 < %t/mm_i8.hip
// RUN: %FileCheck %s --check-prefix=F32 < %t/mm_f32.hip
// RUN: %if hipcc %{ %hipcc-gfx90a %t/mm.hip -o %t/mm.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t/mm_bf16.hip -o %t/mm_bf16.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t/narrow.hip -o %t/narrow.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t/shallow.hip -o %t/shallow.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t/mm_i8.hip -o %t/mm_i8.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t/mm_f32.hip -o %t/mm_f32.o %}
//
// dot on AMD matrix cores (gfx90a): fp16 and bf16 products accumulate in
// fp32 through v_mfma_f32_32x32x8, int8 ones in int32 through
// v_mfma_i32_32x32x8i8, fp32 ones through v_mfma_f32_32x32x2f32 (2 deep)
// (rt::dot_mfma). The accumulator's layout is the
// instruction's: 4 rows a thread, 2 x 32 lanes of a wavefront of 64, each
// wavefront repeating the 32 x 32 tile over its block (warp_reps), and the
// row statistics an epilogue takes of it are its slices. Both operands go
// through scratch, rows padded by 4 elements. A block of 16 rows runs on
// 16 x 16 x 16 instructions (4 rows a thread, 4 x 16 lanes); a product
// neither tiles (one 16 x 16 tile for two wavefronts) stays on the FMA
// path.
#include <tile/tile.hpp>

template <class T, int BM, int BN, int BK>
void product(const T *a, const T *b, float *c, float *row_max, int k) {
  auto rm = tile::arange<BM>();
  auto rn = tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto x = tile::load(a + tile::expand_dims<1>(rm) * k +
                        tile::expand_dims<0>(k0 + rk));
    auto y = tile::load(b + tile::expand_dims<1>(k0 + rk) * BN +
                        tile::expand_dims<0>(rn));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * BN + tile::expand_dims<0>(rn),
              acc);
  tile::store(row_max + rm, tile::max<1>(acc));
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm(const tile::half *a, const tile::half *b, float *c,
                    float *row_max, int k) {
  product<tile::half, BM, BN, BK>(a, b, c, row_max, k);
}
TILE_CONFIGS(mm, tile::config{.meta = {128, 128, 32}, .num_warps = 4});
template <int BM, int BN, int BK>
TILE_GRID(mm)
tile::grid
    mm_grid(const tile::half *, const tile::half *, float *, float *, int) {
  return {1};
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm_bf16(const tile::bfloat16 *a, const tile::bfloat16 *b,
                         float *c, float *row_max, int k) {
  product<tile::bfloat16, BM, BN, BK>(a, b, c, row_max, k);
}
TILE_CONFIGS(mm_bf16, tile::config{.meta = {64, 32, 16}, .num_warps = 2},
             tile::config{.meta = {16, 32, 16}, .num_warps = 1});
template <int BM, int BN, int BK>
TILE_GRID(mm_bf16)
tile::grid mm_bf16_grid(const tile::bfloat16 *, const tile::bfloat16 *, float *,
                        float *, int) {
  return {1};
}

template <int BM, int BN, int BK>
TILE_KERNEL void narrow(const tile::half *a, const tile::half *b, float *c,
                        float *row_max, int k) {
  product<tile::half, BM, BN, BK>(a, b, c, row_max, k);
}
TILE_CONFIGS(narrow, tile::config{.meta = {16, 32, 16}, .num_warps = 1});
template <int BM, int BN, int BK>
TILE_GRID(narrow)
tile::grid
    narrow_grid(const tile::half *, const tile::half *, float *, float *, int) {
  return {1};
}

template <int BM, int BN, int BK>
TILE_KERNEL void shallow(const tile::half *a, const tile::half *b, float *c,
                         float *row_max, int k) {
  product<tile::half, BM, BN, BK>(a, b, c, row_max, k);
}
TILE_CONFIGS(shallow, tile::config{.meta = {16, 16, 16}, .num_warps = 2});
template <int BM, int BN, int BK>
TILE_GRID(shallow)
tile::grid shallow_grid(const tile::half *, const tile::half *, float *,
                        float *, int) {
  return {1};
}

TILE_KERNEL void mm_i8(const int8_t *a, const int8_t *b, int *c) {
  auto r = tile::arange<32>();
  auto x =
      tile::load(a + tile::expand_dims<1>(r) * 32 + tile::expand_dims<0>(r));
  auto y =
      tile::load(b + tile::expand_dims<1>(r) * 32 + tile::expand_dims<0>(r));
  tile::store(c + tile::expand_dims<1>(r) * 32 + tile::expand_dims<0>(r),
              tile::dot(x, y));
}
TILE_CONFIGS(mm_i8, tile::config{.num_warps = 1},
             tile::config{.num_warps = 4});
TILE_GRID(mm_i8) tile::grid mm_i8_grid(const int8_t *, const int8_t *, int *) {
  return {1};
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm_f32(const float *a, const float *b, float *c,
                        float *row_max, int k) {
  product<float, BM, BN, BK>(a, b, c, row_max, k);
}
TILE_CONFIGS(mm_f32, tile::config{.meta = {64, 64, 16}, .num_warps = 2},
             tile::config{.meta = {16, 32, 16}, .num_warps = 1});
template <int BM, int BN, int BK>
TILE_GRID(mm_f32)
tile::grid mm_f32_grid(const float *, const float *, float *, float *, int) {
  return {1};
}

// Two wavefronts along each dimension, two 32 x 32 tiles each way.
// CHECK: // [[ROWS:L[0-9]+]] = #slice<dim=1, #blocked<spt=[4, 1], tpw=[2, 32], wpc=[2, 2], order=[1, 0], warp_reps=[8, 2], mfma>> over [128]
// CHECK: // [[ACC:L[0-9]+]] = #blocked<spt=[4, 1], tpw=[2, 32], wpc=[2, 2], order=[1, 0], warp_reps=[8, 2], mfma> over [128, 128]
// CHECK-LABEL: mm_c0_generic(
// (128 + 128) x (32 + 4) halves.
// CHECK: __shared__ unsigned char scratch[18432];
// CHECK: rt::dot_mfma<{{L[0-9]+}}, {{L[0-9]+}}, [[ACC]]>(x, y, acc_1, acc_2, scratch);
// CHECK: rt::reduce<1, [[ACC]], [[ROWS]]>(

// The 16 x 32 block's on 16 x 16 x 16 (bf16_1k).
// BF16: #blocked<spt=[4, 1], tpw=[2, 32], wpc=[2, 1], order=[1, 0], warp_reps=[4, 1], mfma> over [64, 32]
// BF16: [[B16:L[0-9]+]] = #blocked<spt=[4, 1], tpw=[4, 16], wpc=[1, 1], order=[1, 0], warp_reps=[1, 2], mfma> over [16, 32]
// BF16: rt::dot_mfma<
// BF16: rt::dot_mfma<{{L[0-9]+}}, {{L[0-9]+}}, [[B16]]>(

// One wavefront, two 16 x 16 tiles along N; (16 + 32) x (16 + 4) halves.
// NARROW: // [[ACC16:L[0-9]+]] = #blocked<spt=[4, 1], tpw=[4, 16], wpc=[1, 1], order=[1, 0], warp_reps=[1, 2], mfma> over [16, 32]
// NARROW: __shared__ unsigned char scratch[1920];
// NARROW: rt::dot_mfma<{{L[0-9]+}}, {{L[0-9]+}}, [[ACC16]]>(

// FMA-NOT: dot_mfma
// FMA: rt::dot_fma<

// (32 + 32) x (32 + 4) bytes. Four wavefronts over 32 x 32: 16 x 16 tiles
// (i32_16x16x16i8).
// I8: [[I16:L[0-9]+]] = #blocked<spt=[4, 1], tpw=[4, 16], wpc=[2, 2], order=[1, 0], warp_reps=[1, 1], mfma> over [32, 32]
// I8: __shared__ unsigned char scratch[2304];
// I8: int {{t[0-9]+}}[16];
// I8: rt::dot_mfma<
// I8: rt::dot_mfma<{{L[0-9]+}}, {{L[0-9]+}}, [[I16]]>(

// (64 + 64) x (16 + 4) floats, eight instructions along K.
// The 16 x 32 block's on 16 x 16 x 4 (f32).
// F32: #blocked<spt=[4, 1], tpw=[2, 32], wpc=[2, 1], order=[1, 0], warp_reps=[4, 2], mfma> over [64, 64]
// F32: [[F16:L[0-9]+]] = #blocked<spt=[4, 1], tpw=[4, 16], wpc=[1, 1], order=[1, 0], warp_reps=[1, 2], mfma> over [16, 32]
// F32: __shared__ unsigned char scratch[10240];
// F32: rt::dot_mfma<
// F32: rt::dot_mfma<{{L[0-9]+}}, {{L[0-9]+}}, [[F16]]>(
