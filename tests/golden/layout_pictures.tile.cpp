// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: python3 %scripts/layout_pictures.py %t/mm.json %t/pictures --tiles acc --window 9x4 | %FileCheck %s --check-prefix=FILES
// RUN: %FileCheck %s < %t/pictures/mm_c0_aligned16.acc.9x4.svg
// RUN: python3 %scripts/layout_pictures.py %t/mm.json %t/pictures --tiles r
// RUN: %FileCheck %s --check-prefix=ROW < %t/pictures/mm_c0_aligned16.r.svg
// RUN: not python3 %scripts/layout_pictures.py %t/mm.json %t/pictures --tiles nothing 2>&1 | %FileCheck %s --check-prefix=MISSING
//
// scripts/layout_pictures.py draws the layouts of a kernel's tiles from
// the metadata tilecc writes, running the runtime's own layout arithmetic:
// a tensor-core accumulator shows mma's fragment (thread 0 holds
// (0, 0), (0, 1), (8, 0), (8, 1) as its elements 0, 1, 16, 17: the warp's
// eight column repetitions are numbered before its two row ones; thread 4
// starts row 1), a 1-D tile of 64 an element per thread, its 128 threads holding two
// copies.
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
