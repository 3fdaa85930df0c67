// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: error: {{.*}}combine must take two values of the tile's element type and return one
// CHECK: combine_arity.tile.cpp:11:26: note: in instantiation
#include <tile/tile.hpp>
TILE_KERNEL void k(float *out) {
  auto v = tile::cast<float>(tile::arange<128>());
  // A combine takes the accumulated value and the next one: two, not
  // three.
  auto add3 = [](float a, float b, float c) { return a + b + c; };
  tile::store(out, tile::reduce<0>(v, add3));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
