// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: mutable_lambda.tile.cpp:12:15: error: mutable lambdas cannot be used in a tile kernel
// A mutable lambda's copies are state that lives across its calls (inside
// loops too); tilecc inlines each call, so it has nowhere to keep them.
// Function pointers are values a tile kernel cannot hold.
#include <tile/tile.hpp>

template <class F> int call(F f) { return f(); }

TILE_KERNEL void k(int *x, int n) {
  auto next = [n]() mutable { return ++n; };
  tile::store(x, call(next));
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *, int) { return {1}; }
