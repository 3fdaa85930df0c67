// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: scan_axis.tile.cpp:9:48: error: scan axis out of range
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: scan axis out of range
#include <tile/tile.hpp>
TILE_KERNEL void k(float *out) {
  auto v = tile::cast<float>(tile::arange<128>());
  // A 1-D tile has only axis 0.
  tile::store(out + tile::arange<128>(), tile::cumsum<1>(v));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
