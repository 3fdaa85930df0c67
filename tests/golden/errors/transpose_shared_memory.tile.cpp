// RUN: rm -rf %t && %not %tilecc %s -o %t --target gfx90a 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: transpose_shared_memory.tile.cpp:17:15: error: the kernel needs
// CHECK-SAME: 131072 bytes of shared memory (configuration 0, 131072 of them
// CHECK-SAME: for layout conversions, transposes and dots), more than the
// CHECK-SAME: 65536 gfx90a allows: use smaller tiles
#include <tile/tile.hpp>
// A kernel without a pipelined loop can need too much shared memory too:
// here the buffer a transpose passes its 128 KB tile through, more than
// gfx90a's 64 KB, reported at the transpose rather than left to hipcc.
template <int M, int N> TILE_KERNEL void transpose(const float *x, float *y) {
  auto r = tile::arange<M>();
  auto c = tile::arange<N>();
  auto v =
      tile::load(x + tile::expand_dims<1>(r) * N + tile::expand_dims<0>(c));
  tile::store(y + tile::expand_dims<1>(c) * M + tile::expand_dims<0>(r),
              tile::trans(v));
}
TILE_CONFIGS(transpose, tile::config{.meta = {128, 256}, .num_warps = 8});
template <int M, int N>
TILE_GRID(transpose)
tile::grid transpose_grid(const float *, float *) {
  return {1};
}
