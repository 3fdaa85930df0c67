// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/doubled_rows.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/doubled_rows.cu -o %t/sm90a.o %}
// clang-format on
//
// Row r of this tile starts at element 2 r: arange + arange is no longer
// contiguous, and its elements do not share the aranges' divisibility (the
// first element's), so no variant may load 16 bytes from row 1, 8 bytes
// past an aligned x.
#include <tile/tile.hpp>

TILE_KERNEL void doubled_rows(const float *x, float *y) {
  auto rows = tile::arange<4>() + tile::arange<4>();
  auto offs =
      tile::expand_dims<1>(rows) + tile::expand_dims<0>(tile::arange<64>());
  tile::store(y + offs, tile::load(x + offs));
}

TILE_CONFIGS(doubled_rows, tile::config{.num_warps = 1});

TILE_GRID(doubled_rows)
tile::grid doubled_rows_grid(const float *, float *) { return {1}; }

// CHECK: doubled_rows_c0_generic: {{.*}}also the kernel of aligned16 launches
// CHECK: load t{{[0-9]+}}: v1
// CHECK: store t{{[0-9]+}}: v1
// CHECK-NOT: v4
