// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: unknown_call.tile.cpp:7:18: error: call to 'mystery' cannot be translated
#include <tile/tile.hpp>
float mystery(float);
TILE_KERNEL void k(float *x) {
  tile::store(x, mystery(1.0f));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
