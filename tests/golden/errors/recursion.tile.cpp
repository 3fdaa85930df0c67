// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: recursion.tile.cpp:5:43: error: recursive call to 'fact' cannot be translated
#include <tile/tile.hpp>
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
TILE_KERNEL void k(int *x, int n) {
  tile::store(x, fact(n));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *, int) { return {1}; }
