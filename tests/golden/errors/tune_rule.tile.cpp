// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: tune_rule.tile.cpp:26:14: error: TILE_TUNE names 'missing', which is not a TILE_KERNEL
// CHECK: tune_rule.tile.cpp:29:27: error: a TILE_TUNE rule must not be a template: its key and buffers are the same for every configuration of 'a'
// CHECK: tune_rule.tile.cpp:32:5: error: a TILE_TUNE rule returns tile::tuning, not 'int'
// CHECK: tune_rule.tile.cpp:33:27: error: a TILE_TUNE rule takes the kernel's 2 parameters, in its order; this one takes 1
// CHECK-NOT: error:
// A TILE_TUNE rule is called by the launch wrapper with the kernel's
// arguments, once for every configuration: each way of getting it wrong is
// an error at its line.
#include <tile/tile.hpp>
#define KERNEL(NAME)                                                           \
  template <int B> TILE_KERNEL void NAME(int *x, int n) {                      \
    auto i = tile::program_id(0) * B + tile::arange<B>();                      \
    tile::store(x + i, 1, i < n);                                              \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {64}});                              \
  template <int B> TILE_GRID(NAME) tile::grid NAME##_grid(int *, int n) {      \
    return {tile::cdiv(n, B)};                                                 \
  }
KERNEL(a)
KERNEL(c)
KERNEL(d)

TILE_TUNE(missing)
tile::tuning missing_tuning(int *, int n) { return {.key = {n}}; }

template <int B>
TILE_TUNE(a) tile::tuning a_tuning(int *, int n) { return {.key = {n / B}}; }

TILE_TUNE(c)
int c_tuning(int *, int n) { return n; }
TILE_TUNE(d) tile::tuning d_tuning(int n) { return {.key = {n}}; }
