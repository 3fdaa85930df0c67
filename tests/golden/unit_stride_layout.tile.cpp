// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/rows_apart.cu
// RUN: %FileCheck %s --check-prefix=WRAP < %t/rows_apart.launch.cpp
// RUN: %if nvcc %{ %nvcc-sm90a %t/rows_apart.cu -o %t/sm90a.o %}
// clang-format on
//
// One set of layouts serves every variant of a configuration, made for the
// most specialized. In the unit variant (strides == 1) rows `stride` apart
// are contiguous too, and 64 rows outnumber 32 columns; but only the
// columns are contiguous whatever the arguments, so the columns come
// first and the aligned variant, the one callers run, loads 16 bytes a
// thread (rope's positions, a row apart, had one element an access).
#include <cstdint>
#include <tile/tile.hpp>

template <int ROWS, int COLS>
TILE_KERNEL void rows_apart(const float *x, float *y, int64_t start,
                            int64_t stride) {
  auto rows = tile::program_id(0) * ROWS + tile::arange<ROWS>();
  // Row offsets summed before they are expanded: stride reads as an inner
  // stride, and makes a unit variant.
  auto offsets = start + tile::cast<int64_t>(rows) * stride;
  auto at = tile::expand_dims<1>(offsets) +
            tile::expand_dims<0>(tile::arange<COLS>());
  tile::store(y + at, tile::load(x + at) * 2.0f);
}
TILE_CONFIGS(rows_apart, tile::config{.meta = {64, 32}, .num_warps = 4});
template <int ROWS, int COLS>
TILE_GRID(rows_apart)
tile::grid rows_apart_grid(const float *, float *, int64_t, int64_t) {
  return {1};
}

// clang-format off
// CHECK: //   [[L:L[0-9]+]] = #blocked<spt=[1, 4], tpw=[4, 8], wpc=[4, 1], order=[1, 0]> over [64, 32]
// CHECK-LABEL: // rows_apart_c0_aligned16:
// CHECK: //   load {{t[0-9]+}}: v4
// CHECK-NEXT: //   store {{t[0-9]+}}: v4
// CHECK: // rows_apart_c0_generic: {{.*}}; also the kernel of unit launches (the same code).
// Rows stride apart start 16 bytes apart only where stride is a multiple
// of 4: (64 p + 1) stride is no multiple of 64 however the rows began.
// WRAP: const bool tilecc_aligned16 = {{.*}} % 16 == 0 &&
// WRAP-NEXT: % 16 == 0 &&
// WRAP-NEXT: start % 4 == 0 && stride % 4 == 0;
// clang-format on
