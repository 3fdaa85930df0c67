// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: break.tile.cpp:10:7: error: 'break' is not supported in a tile kernel yet; make the loop's bound say where it ends, or skip the rest of the iterations with 'continue'
#include <tile/tile.hpp>
TILE_KERNEL void k(int *x, int n) {
  for (int i = 0; i < n; ++i) {
    if (i == 5)
      continue;
    if (i == 7)
      break;
    tile::store(x + i, 1);
  }
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *, int) { return {1}; }
