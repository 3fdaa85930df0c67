// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/k.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/k.cu -o %t/k.o %}
//
// A helper's `return i;` inside a loop: the loop carries the helper's
// result (a zero of its type until then) beside its `returned` and `broke`
// flags, and what follows the loop gives the other value only where the
// loop did not return (conformance case control_flow runs such helpers,
// nested loops and tiles too, on the GPU).
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

// CHECK-LABEL: k_c0_generic(
// CHECK: bool returned = false;
// CHECK: int result = 0;
// CHECK: while (true) {
// CHECK: if ([[HIT:t[0-9]+]]) {
// CHECK: broke_1 = true;
// CHECK: returned_1 = true;
// CHECK: result_1 = i;
// CHECK: const bool [[REST:t[0-9]+]] = (!returned);
// CHECK: if ([[REST]]) {
// CHECK: [[VALUE:t[0-9]+]] = n;
// CHECK: } else {
// CHECK: [[VALUE]] = result;
// CHECK: *x = [[VALUE]];
