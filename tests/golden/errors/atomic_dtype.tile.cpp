// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: atomic_dtype.tile.cpp:7:9: error: atomic_add does not support this element type
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: atomic_add does not support this element type
#include <tile/tile.hpp>
TILE_KERNEL void k(int8_t *counts) {
  tile::atomic_add(counts + tile::arange<16>(), 1);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int8_t *) { return {1}; }
