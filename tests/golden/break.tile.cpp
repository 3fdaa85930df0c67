// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/k.cu
// RUN: %tilecc %s --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %if nvcc %{ %nvcc-sm90a %t/k.cu -o %t/sm90a.o %}
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/k.cu -o %t.80/sm80.o %}
// RUN: rm -rf %t.hip && %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/k.hip -o %t.hip/k.o %}
//
// `break`, and `return` inside a loop: the loop becomes a while loop that
// carries a flag the jump sets and reads it before its condition (which is
// not evaluated again after a jump, as in C++); a `return` also sets a
// flag under which the rest of the kernel runs.
#include <tile/tile.hpp>
TILE_KERNEL void k(int *x, int n) {
  for (int i = 0; i < n; ++i) {
    if (i == 5)
      continue;
    if (i == 7)
      break;
    tile::store(x + i, 1);
  }
  for (int i = 0; i < n; ++i) {
    if (i == 9)
      return;
    tile::store(x + n + i, 2);
  }
  tile::store(x, 3);
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(int *, int) { return {1}; }

// IR: %{{[0-9]+}}.broke, %{{[0-9]+}}.i = while %{{[0-9]+}}, %{{[0-9]+}} : i1, i32  // line 15
// IR-NEXT: { (%[[B:[0-9]+]].broke: i1, %[[I:[0-9]+]].i: i32)
// IR-NEXT: %[[GO:[0-9]+]] = logical_not %[[B]].broke : i1
// IR-NEXT: %[[C:[0-9]+]] = if %[[GO]] : i1
// IR-NEXT: {
// IR-NEXT: %[[LT:[0-9]+]] = lt %[[I]].i, %1.n : i1
// IR-NEXT: yield %[[LT]]
// IR: %{{[0-9]+}}.broke = if %{{[0-9]+}} : i1  // line 18
// IR-NEXT: {
// IR-NEXT: %[[T:[0-9]+]] = const 1 : i1  // line 19
// IR-NEXT: yield %[[T]]
// IR: %[[R:[0-9]+]].returned, %{{[0-9]+}}.broke, %{{[0-9]+}}.i = while
// IR: %{{[0-9]+}}.broke, %{{[0-9]+}}.returned = if %{{[0-9]+}} : i1, i1  // line 23
// IR: %[[LIVE:[0-9]+]] = logical_not %[[R]].returned : i1  // line 22
// IR-NEXT: if %[[LIVE]]  // line 22
// IR-NEXT: {
// IR-NEXT: %{{[0-9]+}} = const 3 : i32  // line 27
// IR-NEXT: store %0.x

// CHECK-LABEL: k_c0_generic(
// CHECK: bool broke = false;
// CHECK-NEXT: int i = 0;
// CHECK-NEXT: while (true) {
// CHECK: = (!broke);
// CHECK: broke_{{[0-9]+}} = true;
// CHECK: bool returned = false;
// CHECK: returned_{{[0-9]+}} = true;
// CHECK: const bool [[LIVE:t[0-9]+]] = (!returned);
// CHECK-NEXT: if ([[LIVE]]) {
// CHECK-NEXT: #line 27
// CHECK-NEXT: *x = 3;
