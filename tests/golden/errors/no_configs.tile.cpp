// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: no_configs.tile.cpp:5:18: error: kernel 'k' has no configurations
#include <tile/tile.hpp>
TILE_KERNEL void k(int *x) { tile::store(x, 1); }
TILE_GRID(k) tile::grid k_grid(int *) { return {1}; }
