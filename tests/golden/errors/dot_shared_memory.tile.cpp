// RUN: rm -rf %t && %not %tilecc %s -o %t --target gfx90a 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: dot_shared_memory.tile.cpp:20:25: error: the kernel needs 135168
// CHECK-SAME: bytes of shared memory (configuration 0, 135168 of them for
// CHECK-SAME: layout conversions, transposes and dots), more than the 65536
// CHECK-SAME: gfx90a allows: use smaller tiles
#include <tile/tile.hpp>
// The operands of a dot are staged in shared memory, which holds 64 KB per
// program on gfx90a: reported at the dot, with the numbers ((128 + 128)
// rows of 128 + 4 floats for the matrix cores). (NVIDIA targets
// take them in dynamic shared memory: golden/scratch.tile.cpp.)
TILE_KERNEL void k(const float *a, const float *b, float *c) {
  auto r = tile::arange<128>();
  auto q = tile::arange<128>();
  auto x =
      tile::load(a + tile::expand_dims<1>(r) * 128 + tile::expand_dims<0>(q));
  auto y =
      tile::load(b + tile::expand_dims<1>(q) * 128 + tile::expand_dims<0>(r));
  auto offs = tile::expand_dims<1>(r) * 128 + tile::expand_dims<0>(r);
  tile::store(c + offs, tile::dot(x, y, tile::input_precision::ieee));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(const float *, const float *, float *) {
  return {1};
}
