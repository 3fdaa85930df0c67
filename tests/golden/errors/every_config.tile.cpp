// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: every_config.tile.cpp:11:5: error: 'if' with an initializer is not supported yet
// CHECK-NOT: error:
// Every configuration of a kernel lowers the same body, and makes the same
// error in it: reported once.
#include <tile/tile.hpp>
template <int B> TILE_KERNEL void k(int *x, int n) {
  for (int i = 0; i < n; ++i) {
    tile::store(x + B * i + tile::arange<B>(), 1);
    if (int j = i * 2; j == 4)
      continue;
  }
}
TILE_CONFIGS(k, tile::config{.meta = {64}}, tile::config{.meta = {128}},
             tile::config{.meta = {256}});
template <int B> TILE_GRID(k) tile::grid k_grid(int *, int) { return {1}; }
