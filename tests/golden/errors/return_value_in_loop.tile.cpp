// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: return_value_in_loop.tile.cpp:12:7: error: a 'return' with a value inside a loop is not supported in a tile kernel yet
// A `return` inside a loop ends the loops around it and skips what follows
// them (golden break); a helper's value returned from inside a loop would
// also have to be carried out of them.
#include <tile/tile.hpp>

int first_at_least(int n, int limit) {
  for (int i = 0; i < n; ++i)
    if (i * i >= limit)
      return i;
  return n;
}

TILE_KERNEL void k(int *x, int n) { tile::store(x, first_at_least(n, 10)); }
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *, int) { return {1}; }
