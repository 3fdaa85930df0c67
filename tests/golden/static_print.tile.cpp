// RUN: rm -rf %t && %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: %not %tilecc %s -o %t.bad -DBAD 2>&1 | %FileCheck %s --check-prefix=BAD
// RUN: test ! -e %t.bad
//
// tl.static_print: tilecc prints constants as it translates the kernel,
// once per configuration, as a remark at the call; the kernel is
// translated as usual. A value known only at run time is an error.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void scaled(float *x, int n) {
  constexpr float scale = 0.5f;
  tile::static_print("BLOCK", BLOCK, "scale", scale, BLOCK * 2);
  tile::store(x + tile::arange<BLOCK>(), scale, tile::arange<BLOCK>() < n);
#ifdef BAD
  tile::static_print("n", n);
#endif
}
TILE_CONFIGS(scaled, tile::config{.meta = {128}}, tile::config{.meta = {256}});
template <int BLOCK>
TILE_GRID(scaled) tile::grid scaled_grid(float *, int) { return {1}; }

// CHECK: static_print.tile.cpp:13:3: remark: BLOCK 128 scale 0.5 256
// CHECK: static_print.tile.cpp:13:3: remark: BLOCK 256 scale 0.5 512
// BAD: static_print.tile.cpp:16:27: error: static_print prints values known when the kernel is translated: string literals, meta-parameters, constexpr numbers
