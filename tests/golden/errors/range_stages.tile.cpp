// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: range_stages.tile.cpp:11:37: error: num_stages must be a compile-time constant
#include <array>
#include <tile/tile.hpp>
// tile::range's num_stages is a constant from 1 to 8 (Triton's is a
// constexpr); range-based loops iterate over tile::range only.
TILE_KERNEL void k(float *x, int n, int stages) {
  auto offs = tile::arange<128>();
  auto v = tile::zeros<float, 128>();
  for (int i : tile::range(0, n, 1, stages))
    v += tile::load(x + i * 128 + offs);
  tile::store(x + offs, v);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *, int, int) { return {1}; }
