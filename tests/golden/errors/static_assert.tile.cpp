// clang-format off
// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: static_assert.tile.cpp:16:17: error: static assertion failed due to requirement '32 % 64 == 0': BLOCK must be a multiple of 64
// CHECK: static_assert.tile.cpp:21:{{[0-9]+}}: note: in instantiation of function template specialization 'fill<32>' requested here
// CHECK-NOT: note: in instantiation
// CHECK: 1 error generated.
// clang-format on
// A kernel's static_assert fails for one configuration: the error is at
// the assertion, and the note that says which instance asked for it
// points at that configuration in TILE_CONFIGS, not at text tilecc
// added.
#include <tile/tile.hpp>

template <int BLOCK> TILE_KERNEL void fill(float *out) {
  static_assert(BLOCK % 64 == 0, "BLOCK must be a multiple of 64");
  tile::store(out + tile::program_id(0) * BLOCK + tile::arange<BLOCK>(), 1.0f);
}
TILE_CONFIGS(fill,
             tile::config{.meta = {128}, .num_warps = 4},
             tile::config{.meta = {32}, .num_warps = 4});
template <int BLOCK> TILE_GRID(fill) tile::grid fill_grid(float *) {
  return {1};
}
