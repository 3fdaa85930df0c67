// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: mask_shape.tile.cpp:9:33: error: cannot broadcast tile shapes
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: cannot broadcast tile shapes
#include <tile/tile.hpp>
TILE_KERNEL void k(const float *x, float *out) {
  auto offs = tile::arange<128>();
  auto mask = tile::arange<64>() < 10;
  tile::store(out + offs, tile::load(x + offs, mask, 0.0f));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(const float *, float *) { return {1}; }
