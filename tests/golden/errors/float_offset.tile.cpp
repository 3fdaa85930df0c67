// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: float_offset.tile.cpp:8:17: error: pointer offsets must be integers
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: pointer offsets must be integers
#include <tile/tile.hpp>
TILE_KERNEL void k(float *x) {
  auto offs = tile::cast<float>(tile::arange<128>());
  tile::store(x + offs, 1.0f);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
