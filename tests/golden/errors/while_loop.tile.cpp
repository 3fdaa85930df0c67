// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: while_loop.tile.cpp:10:10: error: the condition of a 'while' loop cannot assign variables in a tile kernel
#include <tile/tile.hpp>
TILE_KERNEL void k(int *x, int n) {
  auto offs = tile::arange<128>();
  int i = 0;
  // The condition runs before every iteration; it may have side effects
  // (atomics) but cannot assign variables.
  while ((i += 1) < n) {
  }
  tile::store(x + offs, i);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *, int) { return {1}; }
