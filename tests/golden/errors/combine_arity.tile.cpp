// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: combine_arity.tile.cpp:11:26: error: combine must take two values of the tile's element type and return one
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: combine must take two values of the tile's element type and return one
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
