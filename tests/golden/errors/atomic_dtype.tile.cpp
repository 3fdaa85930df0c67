// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: error: {{.*}}atomic_add does not support this element type
// CHECK: atomic_dtype.tile.cpp:7:9: note: in instantiation
#include <tile/tile.hpp>
TILE_KERNEL void k(int8_t *counts) {
  tile::atomic_add(counts + tile::arange<16>(), 1);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int8_t *) { return {1}; }
