// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %FileCheck %s
// RUN: test ! -e %t
// CHECK: while_loop.tile.cpp:10:3: error: 'WhileStmt' statements are not supported in a tile kernel yet
#include <tile/tile.hpp>
struct Flag {
  bool on;
};
TILE_KERNEL void k(int *x) {
  auto offs = tile::arange<128>();
  while (offs(0) < 4) {
  }
  tile::store(x + offs, 1);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *) { return {1}; }
