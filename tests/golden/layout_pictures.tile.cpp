// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: python3 %scripts/layout_pictures.py %t/mm.json %t/pictures --tiles acc --window 9x4 | %FileCheck %s --check-prefix=FILES
// RUN: %FileCheck %s < %t/pictures/mm_c0_aligned16.acc.9x4.svg
// RUN: python3 %scripts/layout_pictures.py %t/mm.json %t/pictures --tiles r
// RUN: %FileCheck %s --check-prefix=ROW < %t/pictures/mm_c0_aligned16.r.svg
// RUN: not python3 %scripts/layout_pictures.py %t/mm.json %t/pictures --tiles nothing 2>&1 | %FileCheck %s --check-prefix=MISSING
// RUN: python3 %scripts/layout_pictures.py %t/mm_loop.json %t/pictures --smem | %FileCheck %s --check-prefix=SMEM-FILES
// RUN: %FileCheck %s --check-prefix=SWIZZLE < %t/pictures/mm_loop_c0_aligned16.x_stage.smem.svg
// RUN: not python3 %scripts/layout_pictures.py %t/mm.json %t/pictures --smem 2>&1 | %FileCheck %s --check-prefix=NO-SMEM
//
// scripts/layout_pictures.py draws the layouts of a kernel's tiles from
// the metadata tilecc writes, running the runtime's own layout arithmetic:
// a tensor-core accumulator shows mma's fragment (thread 0 holds
// (0, 0), (0, 1), (8, 0), (8, 1) as its elements 0, 1, 16, 17: the warp's
// eight column repetitions are numbered before its two row ones; thread 4
// starts row 1), a 1-D tile of 64 an element per thread, its 128 threads holding two
// copies. With --smem it draws a loop's operand stages in shared memory:
// 128-byte rows of eight 16-byte chunks, row r's chunk q at q ^ (r % 8).
#include <tile/tile.hpp>

TILE_KERNEL void mm(const tile::half *a, const tile::half *b, float *c) {
  auto r = tile::arange<64>();
  auto offs = tile::expand_dims<1>(r) * 64 + tile::expand_dims<0>(r);
  auto acc = tile::dot(tile::load(a + offs), tile::load(b + offs));
  tile::store(c + offs, acc);
  tile::store(c + r, tile::cast<float>(r));
}
TILE_CONFIGS(mm, tile::config{.num_warps = 4});

TILE_GRID(mm) tile::grid mm_grid(const tile::half *, const tile::half *, float *) {
  return {1};
}

TILE_KERNEL void mm_loop(const tile::half *a, const tile::half *b, float *c,
                         int k) {
  auto r = tile::arange<64>();
  auto acc = tile::zeros<float, 64, 64>();
  for (int k0 = 0; k0 < k; k0 += 64) {
    auto x = tile::load(a + tile::expand_dims<1>(r) * k + k0 +
                        tile::expand_dims<0>(r));
    auto y = tile::load(b + (k0 + tile::expand_dims<1>(r)) * 64 +
                        tile::expand_dims<0>(r));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(r) * 64 + tile::expand_dims<0>(r), acc);
}
TILE_CONFIGS(mm_loop, tile::config{.num_warps = 4, .num_stages = 2});
TILE_GRID(mm_loop)
tile::grid mm_loop_grid(const tile::half *, const tile::half *, float *, int) {
  return {1};
}

// FILES: mm_c0_aligned16.acc.9x4.svg
// CHECK: mm_c0_aligned16: acc [64, 64], layout [[L:L[0-9]+]], rows 0-8 and columns 0-3
// CHECK: >T0:0</text>
// CHECK-NEXT: class=
// CHECK-NEXT: >T0:1</text>
// CHECK-NEXT: class=
// CHECK-NEXT: >T1:0</text>
// CHECK-NEXT: class=
// CHECK-NEXT: >T1:1</text>
// CHECK-NEXT: class=
// CHECK-NEXT: >T4:0</text>
// CHECK: >T29:1</text>
// CHECK-NEXT: class=
// CHECK-NEXT: >T0:16</text>
// CHECK-NEXT: class=
// CHECK-NEXT: >T0:17</text>
// ROW: >T0:0 x2</text>
// ROW-NEXT: class=
// ROW-NEXT: >T1:0 x2</text>
// MISSING: no tile nothing in mm_c0_aligned16

// SMEM-FILES: mm_loop_c0_aligned16.x_stage.smem.svg
// SMEM-FILES-NEXT: mm_loop_c0_aligned16.y_stage.smem.svg
// SWIZZLE: x_stage = rt::smem_tile&lt;rt::f16, 64, 64&gt;, rows 0-15 of slab 0 of 1 (columns 0-63)
// SWIZZLE: 128-byte rows of 8 16-byte chunks
// SWIZZLE: >c0-7<
// SWIZZLE-NEXT: <rect
// SWIZZLE-NEXT: >c8-15<
// SWIZZLE: >c56-63<
// SWIZZLE-NEXT: <text x="4" y="{{[0-9]+}}" font-size="9">1</text>
// SWIZZLE-NEXT: <rect
// SWIZZLE-NEXT: >c8-15<
// SWIZZLE-NEXT: <rect
// SWIZZLE-NEXT: >c0-7<
// SWIZZLE: font-size="9">7</text>
// SWIZZLE-NEXT: <rect
// SWIZZLE-NEXT: >c56-63<
// NO-SMEM: mm_c0_aligned16 keeps no operand tiles in shared memory
