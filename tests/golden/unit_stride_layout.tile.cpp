// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/columns_apart.cu
// RUN: %FileCheck %s --check-prefix=WRAP < %t/columns_apart.launch.cpp
// RUN: %if nvcc %{ %nvcc-sm90a %t/columns_apart.cu -o %t/sm90a.o %}
// RUN: %tilecc %s -o %t.rows && %FileCheck %s --check-prefix=ROWS < %t.rows/rows_apart.cu
// RUN: %FileCheck %s --check-prefix=ROWS-WRAP < %t.rows/rows_apart.launch.cpp
// clang-format on
//
// One set of layouts serves every variant of a configuration, made for the
// most specialized. Columns `stride` apart are contiguous only in the unit
// variant (stride == 1), where 64 columns outnumber 32 rows; the rows are
// contiguous whatever the arguments, so they come first, and the aligned
// variant, which callers with stride != 1 run, loads 16 bytes a thread
// rather than one element.
#include <cstdint>
#include <tile/tile.hpp>

template <int ROWS, int COLS>
TILE_KERNEL void columns_apart(const float *x, float *y, int stride) {
  auto rows = tile::program_id(0) * ROWS + tile::arange<ROWS>();
  auto at = tile::expand_dims<1>(rows) +
            tile::expand_dims<0>(tile::arange<COLS>()) * stride;
  tile::store(y + at, tile::load(x + at) * 2.0f);
}
TILE_CONFIGS(columns_apart, tile::config{.meta = {32, 64}, .num_warps = 4});
template <int ROWS, int COLS>
TILE_GRID(columns_apart)
tile::grid columns_apart_grid(const float *, float *, int) {
  return {1};
}

// Rows `stride` apart, the offsets summed before they are expanded: stride
// is a row stride, so no unit variant; the aligned variant asks it for the
// divisibility its 16-byte vectors need ((64 p + 1) stride is no multiple
// of 64, whatever the rows' first element divides by).
template <int ROWS, int COLS>
TILE_KERNEL void rows_apart(const float *x, float *y, int64_t start,
                            int64_t stride) {
  auto rows = tile::program_id(0) * ROWS + tile::arange<ROWS>();
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
// CHECK: //   [[L:L[0-9]+]] = #blocked<spt=[4, 1], {{.*}} order=[0, 1]> over [32, 64]
// CHECK-LABEL: // columns_apart_c0_aligned16:
// CHECK: //   load {{t[0-9]+}}: v4
// CHECK-NEXT: //   store {{t[0-9]+}}: v4
// In the unit variant a column's run starts at r + c: one element an
// access, the generic kernel's code.
// CHECK: // columns_apart_c0_generic: {{.*}}; also the kernel of unit launches (the same code).
// WRAP: const bool tilecc_unit = {{.*}}
// WRAP: stride == 1;
// ROWS: //   {{L[0-9]+}} = #blocked<spt=[1, 4], tpw=[4, 8], wpc=[4, 1], order=[1, 0]> over [64, 32]
// ROWS-NOT: rows_apart_c0_unit
// ROWS-LABEL: // rows_apart_c0_aligned16:
// ROWS: //   load {{t[0-9]+}}: v4
// ROWS-NEXT: //   store {{t[0-9]+}}: v4
// ROWS-WRAP: const bool tilecc_aligned16 = {{.*}} % 16 == 0 &&
// ROWS-WRAP-NEXT: % 16 == 0 &&
// ROWS-WRAP-NEXT: start % 4 == 0 && stride % 4 == 0;
// clang-format on
