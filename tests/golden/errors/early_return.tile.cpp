// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: early_return.tile.cpp:7:5: error: only a final 'return' is supported
#include <tile/tile.hpp>
TILE_KERNEL void k(int *x, int n) {
  if (n == 0)
    return;
  tile::store(x, 1);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *, int) { return {1}; }
