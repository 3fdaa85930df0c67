// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: reduce_scalar.tile.cpp:7:20: error: no matching function for call to 'sum'
#include <tile/tile.hpp>
TILE_KERNEL void k(float *out, float x) {
  // A scalar has no axis to reduce.
  tile::store(out, tile::sum<0>(x));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *, float) { return {1}; }
