// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: heap.tile.cpp:6:14: error: heap allocation cannot be used in a tile kernel
#include <tile/tile.hpp>
TILE_KERNEL void k(float *x) {
  float *p = new float(1.0f);
  tile::store(x, *p);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
