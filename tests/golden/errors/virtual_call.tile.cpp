// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: virtual_call.tile.cpp:9:6: error: classes with virtual functions cannot be used in a tile kernel
#include <tile/tile.hpp>
struct Op {
  virtual float apply(float v) const { return v; }
};
TILE_KERNEL void k(float *x) {
  Op op;
  tile::store(x, op.apply(1.0f));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *) { return {1}; }
