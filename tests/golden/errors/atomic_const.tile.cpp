// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: atomic_const.tile.cpp:7:9: error: atomics need a pointer to non-const
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: atomics need a pointer to non-const
#include <tile/tile.hpp>
TILE_KERNEL void k(const int *counts) {
  tile::atomic_add(counts + tile::arange<16>(), 1);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(const int *) { return {1}; }
