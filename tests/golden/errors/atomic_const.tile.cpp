// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: error: {{.*}}atomics need a pointer to non-const
// CHECK: atomic_const.tile.cpp:7:9: note: in instantiation
#include <tile/tile.hpp>
TILE_KERNEL void k(const int *counts) {
  tile::atomic_add(counts + tile::arange<16>(), 1);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(const int *) { return {1}; }
