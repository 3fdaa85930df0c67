// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: dot_untranslated.tile.cpp:12:25: error: tile operation 'dot' is not
// supported by this version of tilecc
#include <tile/tile.hpp>
// tile::dot runs in emulation; its translation (tensor cores) is not there
// yet, and tilecc says so where it is called.
TILE_KERNEL void k(const tile::half *a, float *c) {
  auto r = tile::arange<16>();
  auto offs = tile::expand_dims<1>(r) * 16 + tile::expand_dims<0>(r);
  auto x = tile::load(a + offs);
  tile::store(c + offs, tile::dot(x, x));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(const tile::half *, float *) { return {1}; }
