// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: shape_mismatch.tile.cpp:9:26: error: cannot broadcast tile shapes
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: cannot broadcast tile shapes
#include <tile/tile.hpp>
TILE_KERNEL void k(int *out) {
  auto a = tile::arange<64>();
  auto b = tile::arange<128>();
  tile::store(out + b, a + b);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *) { return {1}; }
