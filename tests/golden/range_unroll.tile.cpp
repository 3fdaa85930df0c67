// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/sums.cu
// RUN: %tilecc %s -o %t.ir --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %FileCheck %s --check-prefix=HIP < %t.hip/sums.hip
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/sums.hip -o %t.hip/sums.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/sums.cu -o %t/sums90.o %}
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/sums.cu -o %t.80/sums80.o %}
// clang-format on
//
// tile::range(lo, hi, step, num_stages, loop_unroll_factor), Triton's
// tl.range(..., loop_unroll_factor=): the loop is unrolled that many times
// by the device compiler (`#pragma unroll N` on the loop), 1 not at all, 0
// (the default) as it chooses. A pipelined loop takes the pragma on its
// steady-state loop, after the prologue that fills the stages.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void sums(const float *x, float *y, int n) {
  auto cols = tile::arange<BLOCK>();
  auto acc = tile::zeros<float, BLOCK>();
  for (int i : tile::range(0, n, BLOCK, 0, 4))
    acc += tile::load(x + i + cols, i + cols < n, 0.0f);
  auto again = tile::zeros<float, BLOCK>();
  for (int i : tile::range(0, n, BLOCK, 1, 1))
    again += tile::load(x + i + cols, i + cols < n, 0.0f);
  auto staged = tile::zeros<float, BLOCK>();
  for (int i : tile::range(0, n, BLOCK, 3, 2))
    staged += tile::load(x + i + cols, i + cols < n, 0.0f);
  tile::store(y + cols, acc + again + staged);
}
TILE_CONFIGS(sums, tile::config{.meta = {256}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(sums)
tile::grid sums_grid(const float *, float *, int) { return {1}; }

// clang-format off
// IR: for {unroll = 4}
// IR: for {num_stages = 1, unroll = 1}
// IR: for {num_stages = 3, unroll = 2}
// CHECK-LABEL: sums_c0_aligned16(
// CHECK: #pragma unroll 4
// CHECK-NEXT: for (int i = 0; i < n; i += 256) {
// CHECK: #pragma unroll 1
// CHECK-NEXT: for (int i_1 = 0; i_1 < n; i_1 += 256) {
// CHECK: { // pipeline: {{.*}} in 3 shared-memory stages
// CHECK: #pragma unroll 2
// CHECK-NEXT: for (int i_2 = 0; i_2 < n; i_2 += 256) {
// CHECK-NEXT: rt::cp_async_wait<1>();
// HIP: #pragma unroll 4
// HIP-NEXT: for (int i = 0; i < n; i += 256) {
// HIP: #pragma unroll 2
// HIP-NEXT: for (int i_2 = 0; i_2 < n; i_2 += 256) {
// clang-format on
