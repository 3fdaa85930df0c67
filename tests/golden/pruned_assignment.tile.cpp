// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/take_rows.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/take_rows.cu -o %t/sm90a.o %}
// clang-format on
//
// A variable assigned only in the branch of an 'if' whose condition is a
// template constant: where the branch is pruned, the loop does not carry
// the variable (nvcc would warn, under -Werror fail, on an unused one).
#include <tile/tile.hpp>

template <int BLOCK, int AHEAD>
TILE_KERNEL void take_rows(const float *x, float *y, int n_rows,
                           int *counter) {
  auto cols = tile::arange<BLOCK>();
  int row = tile::program_id(0);
  int after = AHEAD == 2 ? tile::num_programs(0) + tile::atomic_add(counter, 1)
                         : 0;
  while (row < n_rows) {
    tile::store(y + row * BLOCK + cols, tile::load(x + row * BLOCK + cols));
    const int later = tile::num_programs(0) + tile::atomic_add(counter, 1);
    if (AHEAD == 2) {
      row = after;
      after = later;
    } else {
      row = later;
    }
  }
}

TILE_CONFIGS(take_rows, tile::config{.meta = {256, 1}},
             tile::config{.meta = {256, 2}});
template <int BLOCK, int AHEAD>
TILE_GRID(take_rows)
tile::grid take_rows_grid(const float *, float *, int, int *) {
  return {tile::num_sms()};
}

// clang-format off
// CHECK-LABEL: take_rows_c0_aligned16(
// CHECK-NOT: after
// CHECK: while (true) {
// CHECK-NOT: after
// CHECK-LABEL: take_rows_c1_aligned16(
// CHECK: const int after = (
// CHECK: int after_1 = after;
// CHECK: while (true) {
// CHECK: const int after_1_next = later;
// clang-format on
