// RUN: rm -rf %t && %not %tilecc %s -o %t --kernel nope 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: missing_kernel.tile.cpp:1:1: error: no TILE_KERNEL named 'nope' in this file
#include <tile/tile.hpp>
TILE_KERNEL void k(int *x) { tile::store(x, 1); }
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *) { return {1}; }
