// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/flip.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/flip.cu -o %t/k.o %}
//
// A conditional operator whose condition is known at translation time (a
// template argument's test) lowers only the operand it picks, as C++
// evaluates it: the unflipped configuration reads no gridDim, and the
// atomic of the operand not taken is not emitted.
#include <tile/tile.hpp>

template <int BLOCK, int FLIP>
TILE_KERNEL void flip(const float *x, float *out, int *visits, int n) {
  const int block = FLIP ? tile::num_programs(0) - 1 - tile::program_id(0)
                         : tile::program_id(0);
  const int before =
      FLIP ? tile::atomic_add(visits, 2) : tile::atomic_add(visits + 1, 1);
  auto offs = block * BLOCK + tile::arange<BLOCK>();
  tile::store(out + offs, tile::load(x + offs, offs < n) + float(before),
              offs < n);
}

TILE_CONFIGS(flip, tile::config{.meta = {256, 0}, .num_warps = 2},
             tile::config{.meta = {256, 1}, .num_warps = 2});

template <int BLOCK, int FLIP>
TILE_GRID(flip)
tile::grid flip_grid(const float *, float *, int *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// CHECK-LABEL: flip_c0_aligned16(
// CHECK-NOT: gridDim
// CHECK: static_cast<int>(blockIdx.x);
// CHECK-NOT: gridDim
// CHECK: int *const [[SECOND:t[0-9]+]] = (visits + 1);
// CHECK: rt::atomic_add([[SECOND]], 1, true)
// CHECK-NOT: rt::atomic
// CHECK-LABEL: flip_c0_generic(
// CHECK-LABEL: flip_c1_aligned16(
// CHECK: static_cast<int>(gridDim.x);
// CHECK: rt::atomic_add(visits, 2, true)
// CHECK-NOT: rt::atomic
// CHECK-LABEL: flip_c1_generic(
