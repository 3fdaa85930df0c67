// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: early_return.tile.cpp:12:7: error: a 'return' inside a loop is not supported in a tile kernel yet
// A `return` before the loop, or in a branch, is lowered (golden
// early_exit); one inside a loop would have to end the loop too.
#include <tile/tile.hpp>
TILE_KERNEL void k(int *x, int n) {
  if (n == 0)
    return;
  for (int i = 0; i < n; ++i) {
    if (i == 3)
      return;
    tile::store(x + i, 1);
  }
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *, int) { return {1}; }
