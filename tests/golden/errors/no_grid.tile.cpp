// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: no_grid.tile.cpp:5:18: error: kernel 'k' has no grid rule
#include <tile/tile.hpp>
TILE_KERNEL void k(int *x) { tile::store(x, 1); }
TILE_CONFIGS(k, tile::config{});
