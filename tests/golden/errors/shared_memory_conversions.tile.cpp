// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: shared_memory_conversions.tile.cpp:22:3: error: a loop
// CHECK-SAME: software-pipelined with num_stages = 7 needs 263224 bytes of
// CHECK-SAME: shared memory (configuration 0, 32768 of them for layout
// CHECK-SAME: conversions, transposes and dots), more than the 232448 sm_90a
// CHECK-SAME: allows
//
// The stages alone would fit, but the launch also needs the static shared
// memory of the kernel's own buffers: here the conversion of A's rows from
// their load's layout to the dot's operand layout (128 x 128 halves).
#include <tile/tile.hpp>

template <int BM, int BN, int D>
TILE_KERNEL void row_block_dots(const tile::half *a, const tile::half *b,
                                float *out, int n) {
  auto rm = tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto a_rows =
      tile::load(a + tile::expand_dims<1>(rm) * D + tile::expand_dims<0>(rd));
  auto acc = tile::zeros<float, BM, BN>();
  for (int n0 = 0; n0 < n; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    auto b_cols = tile::load(b + tile::expand_dims<1>(rd) * n +
                                 tile::expand_dims<0>(cols),
                             tile::expand_dims<0>(cols < n));
    acc = acc + tile::dot(a_rows, b_cols);
  }
  tile::store(out + tile::expand_dims<1>(rm) * BN +
                  tile::expand_dims<0>(tile::arange<BN>()),
              acc);
}

TILE_CONFIGS(row_block_dots, tile::config{.meta = {128, 128, 128},
                                          .num_warps = 8,
                                          .num_stages = 7});
template <int BM, int BN, int D>
TILE_GRID(row_block_dots)
tile::grid
    row_block_dots_grid(const tile::half *, const tile::half *, float *, int) {
  return {1};
}
