// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: tuple_combine.tile.cpp:11:24: error: combine must take the values of two elements, (a0, b0, ..., a1, b1, ...), and return a std::tuple of one value per tile
// CHECK: tile/{{[a-z_/]+}}.hpp:{{[0-9]+}}:{{[0-9]+}}: note: static assertion failed{{.*}}: combine must take the values of two elements, (a0, b0, ..., a1, b1, ...), and return a std::tuple of one value per tile
#include <tile/tile.hpp>
TILE_KERNEL void k(float *out) {
  auto v = tile::cast<float>(tile::arange<128>());
  auto i = tile::arange<128>();
  // Two tiles reduce together: the combine must return two values.
  auto one = [](float a, int ia, float b, int ib) { return a + b + ia + ib; };
  auto [m, at] = tile::reduce<0>(std::tuple{v, i}, one);
  tile::store(out, m + at);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
