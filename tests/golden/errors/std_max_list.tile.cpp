// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: std_max_list.tile.cpp:9:13: error: std::max of an initializer list or with a comparator is not supported in a tile kernel: call it with two values
#include <algorithm>
#include <tile/tile.hpp>
template <int B>
TILE_KERNEL void k(float *x, float a, float b, float c) {
  auto i = tile::arange<B>();
  float m = std::max({a, b, c});
  tile::store(x + i, tile::zeros<float, B>() + m);
}
TILE_CONFIGS(k, tile::config{.meta = {32}, .num_warps = 1});
template <int B>
TILE_GRID(k)
tile::grid k_grid(float *, float, float, float) { return {1}; }
