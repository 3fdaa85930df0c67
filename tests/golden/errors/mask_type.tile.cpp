// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: mask_type.tile.cpp:8:33: error: load and store masks must be bool tiles or bool values
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: load and store masks must be bool tiles or bool values
#include <tile/tile.hpp>
TILE_KERNEL void k(const float *x, float *out) {
  auto offs = tile::arange<128>();
  tile::store(out + offs, tile::load(x + offs, offs, 0.0f));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(const float *, float *) { return {1}; }
