// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: range_for.tile.cpp:11:16: error: a range-based 'for' loop in a tile kernel must iterate over tile::range(lo, hi, step, num_stages)
#include <array>
#include <tile/tile.hpp>
// tile::range's num_stages is a constant from 1 to 8 (Triton's is a
// constexpr); range-based loops iterate over tile::range only.
TILE_KERNEL void k(float *x, int n, int stages) {
  auto offs = tile::arange<128>();
  auto v = tile::zeros<float, 128>();
  for (int i : std::array<int, 2>{0, 1})
    v += tile::load(x + i * 128 + offs);
  tile::store(x + offs, v);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *, int, int) { return {1}; }
