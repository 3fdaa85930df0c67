// clang-format off
// RUN: rm -rf %t && %not %tilecc %s -o %t -- -DWS=false -DWARPS=8 2>&1 | %check-errors --check-prefix=NO-WS %s
// RUN: test ! -e %t
// RUN: %not %tilecc %s -o %t -- -DWS=true -DWARPS=4 2>&1 | %check-errors --check-prefix=ONE-GROUP %s
// RUN: test ! -e %t
// NO-WS: pingpong.tile.cpp:14:39: error: pingpong needs warp_specialize and two consumer warpgroups (num_warps 8 or more), got no warp_specialize, 8 warps
// ONE-GROUP: pingpong.tile.cpp:14:39: error: pingpong needs warp_specialize and two consumer warpgroups (num_warps 8 or more), got 4 warps
// clang-format on
// Consumer warpgroups take turns beside a producer warpgroup: pingpong
// without warp_specialize, or with one consumer warpgroup, is a mistake
// in the configuration, reported at the kernel.
#include <tile/tile.hpp>

template <int BLOCK> TILE_KERNEL void fill(float *out) {
  tile::store(out + tile::program_id(0) * BLOCK + tile::arange<BLOCK>(), 1.0f);
}
TILE_CONFIGS(fill, tile::config{.meta = {512},
                                .num_warps = WARPS,
                                .warp_specialize = WS,
                                .pingpong = true});
template <int BLOCK> TILE_GRID(fill) tile::grid fill_grid(float *) {
  return {1};
}
