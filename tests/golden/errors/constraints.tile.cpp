// clang-format off
// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: constraints.tile.cpp:18:14: error: 'fill' cannot be instantiated with this configuration's meta-parameters
// CHECK: constraints.tile.cpp:14:10: note: because '32 > 32' (32 > 32) evaluated to false
// CHECK: 1 error generated.
// clang-format on
// A configuration whose meta-parameters the kernel's constraints reject:
// the error is at that configuration in TILE_CONFIGS, and Clang's note says
// which constraint failed.
#include <tile/tile.hpp>

template <int BLOCK>
requires(BLOCK > 32) TILE_KERNEL void fill(float *out) {
  tile::store(out + tile::program_id(0) * BLOCK + tile::arange<BLOCK>(), 1.0f);
}
TILE_CONFIGS(fill, tile::config{.meta = {128}, .num_warps = 4},
             tile::config{.meta = {32}, .num_warps = 4});
template <int BLOCK> TILE_GRID(fill) tile::grid fill_grid(float *) {
  return {1};
}
