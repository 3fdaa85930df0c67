// clang-format off
// RUN: rm -rf %t && %not %tilecc %s -o %t -- -DPROGRAMS=0 2>&1 | %check-errors --check-prefix=ZERO %s
// RUN: test ! -e %t
// RUN: %not %tilecc %s -o %t -- -DPROGRAMS=32 2>&1 | %check-errors --check-prefix=MANY %s
// RUN: test ! -e %t
// RUN: %not %tilecc %s -o %t --target gfx90a -- -DPROGRAMS=16 2>&1 | %check-errors --check-prefix=WAVES %s
// RUN: test ! -e %t
// ZERO: min_programs_per_sm.tile.cpp:17:39: error: min_programs_per_sm must be at least 1, got 0
// MANY: min_programs_per_sm.tile.cpp:17:39: error: min_programs_per_sm = 32 programs of 128 threads (configuration 0) are more than the 2048 threads an SM of sm_90a holds
// WAVES: min_programs_per_sm.tile.cpp:17:39: error: min_programs_per_sm = 16 programs of 256 threads (configuration 0) are more than the 2048 threads an SM of gfx90a holds
// clang-format on
// Programs an SM must hold at once: at least one, and no more threads
// than an SM holds (warps of 64 threads on gfx90a: 16 programs of 4 warps
// fit an sm_90a SM, not a gfx90a CU).
#include <tile/tile.hpp>

template <int BLOCK> TILE_KERNEL void fill(float *out) {
  tile::store(out + tile::program_id(0) * BLOCK + tile::arange<BLOCK>(), 1.0f);
}
TILE_CONFIGS(fill, tile::config{.meta = {512},
                                .num_warps = 4,
                                .min_programs_per_sm = PROGRAMS});
template <int BLOCK> TILE_GRID(fill) tile::grid fill_grid(float *) {
  return {1};
}
