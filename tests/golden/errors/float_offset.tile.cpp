// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: error: {{.*}}pointer offsets must be integers
// CHECK: float_offset.tile.cpp:8:17: note: in instantiation
#include <tile/tile.hpp>
TILE_KERNEL void k(float *x) {
  auto offs = tile::cast<float>(tile::arange<128>());
  tile::store(x + offs, 1.0f);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
