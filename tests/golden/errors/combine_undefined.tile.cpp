// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: combine_undefined.tile.cpp:11:39: error: the combine must be a lambda
// or a function whose definition is visible
#include <tile/tile.hpp>
// Declared only: its body is elsewhere, so it cannot become the reduction's
// combine.
float larger(float a, float b);
TILE_KERNEL void k(float *out) {
  auto v = tile::cast<float>(tile::arange<128>());
  tile::store(out, tile::reduce<0>(v, larger));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
