// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: grid_helper.tile.cpp:23:11: error: grid rule 'k_grid' uses 'blocks_for', which its launch wrapper cannot see: a grid rule may use only its own parameters and variables and what tile:: and std:: declare
// CHECK-NOT: error:
// CHECK: grid_helper.tile.cpp:28:30: error: select rule 'k_fits' uses 'limit', which its launch wrapper cannot see
// CHECK-NOT: error:
// CHECK: grid_helper.tile.cpp:31:23: error: tuning rule 'k_tuning' uses 'limit', which its launch wrapper cannot see: a tuning rule may use only its own parameters and variables and what tile:: and std:: declare
// CHECK-NOT: error:
// The launch wrapper gets the body of a grid, select or tuning rule
// printed into it, not the rest of the file: a helper function or a
// variable of the file is reported (once, though every configuration repeats it), not left
// for the wrapper's compiler to trip over.
#include <algorithm>
#include <tile/tile.hpp>
template <int B> TILE_KERNEL void k(int *x, int n) {
  tile::store(x + tile::program_id(0) * B + tile::arange<B>(), 1);
}
TILE_CONFIGS(k, tile::config{.meta = {64}}, tile::config{.meta = {128}});
int blocks_for(int n, int b) { return tile::cdiv(n, b); }
constexpr int limit = 1 << 20;
template <int B> TILE_GRID(k) tile::grid k_grid(int *, int n) {
  const int local = std::max(n, 1);
  return {blocks_for(local, B)};
}
template <int B> TILE_SELECT(k) bool k_fits(int *, int n) {
  for (int i = 0; i < 1; ++i)
    n += i;
  return n < B * 1024 && n < limit;
}
TILE_TUNE(k) tile::tuning k_tuning(int *, int n) {
  return {.key = {n / limit}};
}
