// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: error: {{.*}}reduction axis out of range
// CHECK: reduce_axis.tile.cpp:9:26: note: in instantiation
#include <tile/tile.hpp>
TILE_KERNEL void k(float *out) {
  auto v = tile::cast<float>(tile::arange<128>());
  tile::store(out, tile::sum<0>(v));
  tile::store(out, tile::sum<1>(v));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
