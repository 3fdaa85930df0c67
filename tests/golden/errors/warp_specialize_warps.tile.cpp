// clang-format off
// RUN: rm -rf %t && %not %tilecc %s -o %t -- -DWARPS=2 2>&1 | %check-errors --check-prefix=TWO %s
// RUN: test ! -e %t
// RUN: %not %tilecc %s -o %t -- -DWARPS=1 2>&1 | %check-errors --check-prefix=ONE %s
// RUN: test ! -e %t
// TWO: warp_specialize_warps.tile.cpp:14:39: error: warp_specialize needs whole consumer warpgroups (num_warps a multiple of 4), got num_warps = 2
// ONE: warp_specialize_warps.tile.cpp:14:39: error: warp_specialize needs whole consumer warpgroups (num_warps a multiple of 4), got num_warps = 1
// clang-format on
// setmaxnreg moves the registers of whole warpgroups: with 1 or 2
// consumer warps, the producer warpgroup's warps would share a warpgroup
// with them. An error at the kernel.
#include <tile/tile.hpp>

template <int BLOCK> TILE_KERNEL void fill(float *out) {
  tile::store(out + tile::program_id(0) * BLOCK + tile::arange<BLOCK>(), 1.0f);
}
TILE_CONFIGS(fill, tile::config{.meta = {512},
                                .num_warps = WARPS,
                                .warp_specialize = true});
template <int BLOCK> TILE_GRID(fill) tile::grid fill_grid(float *) {
  return {1};
}
