// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: store_const.tile.cpp:8:9: error: cannot store through a pointer to const
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: cannot store through a pointer to const
#include <tile/tile.hpp>
TILE_KERNEL void k(const float *x) {
  auto offs = tile::arange<128>();
  tile::store(x + offs, 1.0f);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(const float *) { return {1}; }
