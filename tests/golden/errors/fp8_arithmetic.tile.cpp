// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: fp8_arithmetic.tile.cpp:14:17: error: invalid operands to binary expression
#include <tile/tile.hpp>
// 8-bit floats are for storage and dot: arithmetic on them is refused by
// Clang where it is written (cast to float first).
template <int BLOCK>
TILE_KERNEL void k(const tile::float8_e4m3 *x, tile::float8_e4m3 *y) {
  auto offs = tile::arange<BLOCK>();
  auto v = tile::load(x + offs);
  tile::store(y + offs,
              tile::cast<tile::float8_e4m3>(tile::cast<float>(v) * 2.0f));
  tile::store(y + offs + BLOCK,
              v + v);
}
TILE_CONFIGS(k, tile::config{.meta = {256}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(k)
tile::grid k_grid(const tile::float8_e4m3 *, tile::float8_e4m3 *) {
  return {1};
}
