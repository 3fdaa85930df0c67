// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: program_id_axis.tile.cpp:6:35: error: program_id axis must be 0, 1, or 2 but got 3
#include <tile/tile.hpp>
TILE_KERNEL void k(int *x) {
  tile::store(x, tile::program_id(3));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *) { return {1}; }
