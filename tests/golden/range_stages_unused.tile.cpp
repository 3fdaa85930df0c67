// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t 2>&1 | %FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
// RUN: %FileCheck %s < %t/scale_rows.cu
// RUN: %tilecc %s -o %t.80 --target sm_80 2>&1 | %FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
// RUN: %tilecc %s -o %t.hip --target gfx90a 2>&1 | %FileCheck %s --check-prefix=HIP --allow-empty
// RUN: %tilecc %s -o %t.quiet -Wno-unused-stages 2>&1 | %FileCheck %s --check-prefix=HIP --allow-empty
// RUN: %if nvcc %{ %nvcc-sm90a %t/scale_rows.cu -o %t/scale_rows.o %}
// clang-format on
//
// A loop that names its stages (tile::range's num_stages) but whose loads
// cannot be staged is left a plain loop, and says so with a warning at the
// loop (the files are still written): a load of memory the loop writes
// would be copied iterations before the write; a scalar load is never
// staged. Where some loads are staged and one is not, the warning is at
// that load. A loop whose loads are staged, or that names fewer than 2 stages,
// says nothing. Targets without cp.async (gfx90a) take the hint as a
// register prefetch of dot operands instead, and do not warn;
// -Wno-unused-stages silences the warning (named after it, as Clang names
// its warnings).
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void scale_rows(float *x, const float *w, const float *scales,
                            float *total, int n_rows, int n_cols) {
  auto cols = tile::arange<BLOCK>();
  auto sum = tile::zeros<float, BLOCK>();
  // Staged: reads x, writes nothing.
  for (int row : tile::range(0, n_rows, 1, 3))
    sum += tile::load(x + row * n_cols + cols, cols < n_cols, 0.0f);
  // WARN: range_stages_unused.tile.cpp:[[@LINE+4]]:3: warning: the loop's 3
  // WARN-SAME: stages are not used: the load at line [[@LINE+4]] reads memory
  // WARN-SAME: the loop writes, which a copy issued iterations ahead would
  // WARN-SAME: read before the write
  for (int row : tile::range(0, n_rows, 1, 3)) {
    auto v = tile::load(x + row * n_cols + cols, cols < n_cols, 0.0f);
    tile::store(x + row * n_cols + cols, v * 2.0f, cols < n_cols);
  }
  for (int row : tile::range(0, n_rows, 1, 3)) {
    auto scale = tile::load(w + row * n_cols + cols, cols < n_cols, 0.0f);
    // WARN: range_stages_unused.tile.cpp:[[@LINE+4]]:14: warning: this load
    // WARN-SAME: is not staged in the loop's 3 stages: it reads memory the
    // WARN-SAME: loop writes, which a copy issued iterations ahead would read
    // WARN-SAME: before the write [-Wunused-stages]
    auto v = tile::load(x + row * n_cols + cols, cols < n_cols, 0.0f);
    tile::store(x + row * n_cols + cols, v * scale, cols < n_cols);
  }
  float s = 0.0f;
  // WARN: range_stages_unused.tile.cpp:[[@LINE+4]]:3: warning: the loop's 2
  // WARN-SAME: stages are not used: it has no tile load of its own to
  // WARN-SAME: prefetch (loads of scalars, or under an if or an inner loop,
  // WARN-SAME: are not staged)
  for (int row : tile::range(0, n_rows, 1, 2))
    s += tile::load(scales + row);
  for (int row : tile::range(0, n_rows, 1, 1))
    s += tile::load(scales + row);
  tile::store(total + cols, sum * s, cols < n_cols);
}
TILE_CONFIGS(scale_rows, tile::config{.meta = {256}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(scale_rows)
tile::grid
    scale_rows_grid(float *, const float *, const float *, float *, int, int) {
  return {1};
}

// clang-format off
// CHECK-LABEL: scale_rows_c0_aligned16(
// CHECK: { // pipeline: {{.*}} (by its own threads) in 3 shared-memory stages
// CHECK: { // pipeline: scale (by its own threads) in 3 shared-memory stages
// CHECK-NOT: pipeline
// CHECK-LABEL: launch_scale_rows_c0_aligned16(
// HIP-NOT: warning:
// clang-format on
