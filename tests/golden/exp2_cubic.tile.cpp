// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/softmax_rows.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/softmax_rows.cu -o %t/sm90a.o %}
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/softmax_rows.cu -o %t.80/sm80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %FileCheck %s < %t.hip/softmax_rows.hip
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/softmax_rows.hip -o %t.hip/softmax_rows.o %}
// RUN: %tilecc-bin %s --emit=ir | %FileCheck %s --check-prefix=IR
//
// tile::exp2_cubic<K>: each element's exp2 goes through rt::exp2_cubic<K>
// with its index among the thread's elements, which picks (once the loop
// is unrolled) the polynomial for K of every 8 and MUFU.EX2 for the rest;
// the scalar form is element 0's. The IR keeps K as the op's eighths.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void softmax_rows(const float *x, float *y, float *top, int n) {
  const int row = tile::program_id(0);
  auto cols = tile::arange<BLOCK>();
  auto v = tile::load(x + row * n + cols, cols < n, -INFINITY);
  const float m = tile::max(v);
  auto p = tile::exp2_cubic<2>(v - m);
  tile::store(y + row * n + cols, p / tile::sum(p), cols < n);
  tile::store(top + row, tile::exp2_cubic<8>(m));
}
TILE_CONFIGS(softmax_rows, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(softmax_rows)
tile::grid softmax_rows_grid(const float *, float *, float *, int) {
  return {1};
}

// CHECK-LABEL: softmax_rows_c0_aligned16(
// CHECK: float p[{{4|8}}];
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int e = 0; e < {{4|8}}; ++e)
// CHECK-NEXT: p[e] = rt::exp2_cubic<2>(e, ({{.*}} - m));
// CHECK: rt::exp2_cubic<8>(0, m)

// IR: exp2_cubic {eighths = 2} {{%[0-9]+}} : tensor<f32, [1024]>
// IR: exp2_cubic {eighths = 8} %{{[0-9]+}}.m : f32
