// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: constant_range.tile.cpp:14:44: error: the constant 300 does not fit the tile's element type i8 it is converted to; cast the tile first, or use a constant in range
// A constant takes the tile's type (the weak scalar rule), so one out of
// its range would wrap silently (int8 + 300 is int8 + 44): an error, as
// Triton's "value exceeds the range". A 64-bit or unsigned tile, or a cast,
// holds it.
#include <cstdint>
#include <tile/tile.hpp>
template <int BLOCK>
TILE_KERNEL void k(const std::int8_t *x, std::int8_t *out, int *wide) {
  auto i = tile::arange<BLOCK>();
  tile::store(wide + i, tile::cast<int>(tile::load(x + i)) + 300);
  tile::store(out + i, tile::load(x + i) + 300);
}
TILE_CONFIGS(k, tile::config{.meta = {128}});
template <int BLOCK>
TILE_GRID(k)
tile::grid k_grid(const std::int8_t *, std::int8_t *, int *) { return {1}; }
