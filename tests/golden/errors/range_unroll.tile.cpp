// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: range_unroll.tile.cpp:14:42: error: loop_unroll_factor must be between 0 (the compiler's choice) and 1024, not -2
// CHECK: range_unroll.tile.cpp:23:42: error: loop_unroll_factor must be a compile-time constant
// tile::range's loop_unroll_factor is a constant (Triton's is a
// constexpr) from 0 to 1024: the device compiler's #pragma unroll takes
// only a constant, and a negative count means nothing.
#include <tile/tile.hpp>
TILE_KERNEL void negative(float *x, int n) {
  auto offs = tile::arange<128>();
  auto v = tile::zeros<float, 128>();
  for (int i : tile::range(0, n, 128, 0, 4))
    v += tile::load(x + i + offs, i + offs < n, 0.0f);
  for (int i : tile::range(0, n, 128, 0, -2))
    v += tile::load(x + i + offs, i + offs < n, 0.0f);
  tile::store(x + offs, v);
}
TILE_CONFIGS(negative, tile::config{});
TILE_GRID(negative) tile::grid negative_grid(float *, int) { return {1}; }
TILE_KERNEL void variable(float *x, int n, int factor) {
  auto offs = tile::arange<128>();
  auto v = tile::zeros<float, 128>();
  for (int i : tile::range(0, n, 128, 0, factor))
    v += tile::load(x + i + offs, i + offs < n, 0.0f);
  tile::store(x + offs, v);
}
TILE_CONFIGS(variable, tile::config{});
TILE_GRID(variable) tile::grid variable_grid(float *, int, int) { return {1}; }
