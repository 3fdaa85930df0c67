// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: dot_shared_memory.tile.cpp:17:25: error: dot of tensor<f32, [128, 64]>
// and tensor<f32, [64, 128]> stages 65536 bytes of operands in shared memory,
// more than the 49152 a program may use: use smaller tiles
#include <tile/tile.hpp>
// The operands of a dot are staged in shared memory, which holds 48 KB per
// program: reported at translation time, with the numbers.
TILE_KERNEL void k(const float *a, const float *b, float *c) {
  auto r = tile::arange<128>();
  auto q = tile::arange<64>();
  auto x =
      tile::load(a + tile::expand_dims<1>(r) * 64 + tile::expand_dims<0>(q));
  auto y =
      tile::load(b + tile::expand_dims<1>(q) * 128 + tile::expand_dims<0>(r));
  auto offs = tile::expand_dims<1>(r) * 128 + tile::expand_dims<0>(r);
  tile::store(c + offs, tile::dot(x, y, tile::input_precision::ieee));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(const float *, const float *, float *) {
  return {1};
}
