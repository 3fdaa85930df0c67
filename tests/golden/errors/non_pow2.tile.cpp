// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: error: {{.*}}tile shape dimensions must be powers of two
// CHECK: non_pow2.tile.cpp:7:12: note: in instantiation
#include <tile/tile.hpp>
template <int BLOCK> TILE_KERNEL void k(float *out) {
  auto v = tile::arange<BLOCK>();
  tile::store(out + v, tile::cast<float>(v));
}
TILE_CONFIGS(k, tile::config{.meta = {100}});
template <int BLOCK> TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
