// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: ptr_plus_ptr.tile.cpp:8:14: error: pointer offsets must be integers
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: pointer offsets must be integers
#include <tile/tile.hpp>
TILE_KERNEL void k(float *x, float *y) {
  auto p = x + tile::arange<128>();
  auto q = p + y;
  tile::store(q, 1.0f);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *, float *) { return {1}; }
