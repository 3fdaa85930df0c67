// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: non_pow2.tile.cpp:7:12: error: tile shape dimensions must be powers of two
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: tile shape dimensions must be powers of two
#include <tile/tile.hpp>
template <int BLOCK> TILE_KERNEL void k(float *out) {
  auto v = tile::arange<BLOCK>();
  tile::store(out + v, tile::cast<float>(v));
}
TILE_CONFIGS(k, tile::config{.meta = {100}});
template <int BLOCK> TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
