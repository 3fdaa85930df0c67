// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: error: {{.*}}pointer offsets must be integers
// CHECK: ptr_plus_ptr.tile.cpp:8:14: note: in instantiation
#include <tile/tile.hpp>
TILE_KERNEL void k(float *x, float *y) {
  auto p = x + tile::arange<128>();
  auto q = p + y;
  tile::store(q, 1.0f);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *, float *) { return {1}; }
