// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/small_rows.cu
// RUN: %FileCheck %s --check-prefix=WRAP < %t/small_rows.launch.cpp
// RUN: %if nvcc %{ %nvcc-sm90a %t/small_rows.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %host-cxx %t/small_rows.launch.cpp -o %t/launch.o %}
// clang-format on
//
// A variant whose kernel is the same code as a less specialized one's is
// not emitted; its launches run that one. Here a 4 x 8 tile gives each of
// 128 threads at most one element, so the unit, aligned16 and generic
// variants are one kernel: both others must name the generic one, not the
// unit variant the aligned one (which is not emitted either).
#include <tile/tile.hpp>

template <int R, int C>
TILE_KERNEL void small_rows(const float *x, float *y, int stride) {
  auto rows = tile::arange<R>();
  auto cols = tile::arange<C>();
  auto at =
      tile::expand_dims<1>(rows) * C + tile::expand_dims<0>(cols) * stride;
  tile::store(y + at, tile::load(x + at) * 2.0f);
}
TILE_CONFIGS(small_rows, tile::config{.meta = {4, 8}, .num_warps = 4});
template <int R, int C>
TILE_GRID(small_rows)
tile::grid small_rows_grid(const float *, float *, int) {
  return {1};
}

// clang-format off
// CHECK-NOT: small_rows_c0_unit(
// CHECK-NOT: small_rows_c0_aligned16(
// CHECK: // small_rows_c0_generic: {{.*}}; also the kernel of unit launches (the same code); also the kernel of aligned16 launches (the same code).
// CHECK-NOT: small_rows_c0_unit(
// CHECK-NOT: small_rows_c0_aligned16(
// WRAP-NOT: launch_small_rows_c0_unit
// WRAP-NOT: launch_small_rows_c0_aligned16
// WRAP: return launch_small_rows_c0_generic(tilecc_dims, stream, x, y, stride);
// WRAP-NOT: launch_small_rows_c0_unit
// WRAP-NOT: launch_small_rows_c0_aligned16
// clang-format on
