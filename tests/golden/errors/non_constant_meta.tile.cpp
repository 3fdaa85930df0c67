// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: non_constant_meta.tile.cpp:9:1: error: constexpr variable 'k_tile_configs' must be initialized by a constant expression
#include <tile/tile.hpp>
int block_from_env = 128;
template <int BLOCK> TILE_KERNEL void k(int *x) {
  tile::store(x + tile::arange<BLOCK>(), 1);
}
TILE_CONFIGS(k, tile::config{.meta = {block_from_env}});
template <int BLOCK> TILE_GRID(k) tile::grid k_grid(int *) { return {1}; }
