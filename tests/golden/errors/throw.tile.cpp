// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: throw.tile.cpp:7:5: error: exceptions cannot be used in a tile kernel
#include <tile/tile.hpp>
TILE_KERNEL void k(float *x, int n) {
  if (n < 0)
    throw n;
  tile::store(x, 1.0f);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *, int) { return {1}; }
