// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s < %t/scale.launch.cpp
//
// A parameter the kernel's body never reads (here one only the selection
// rule reads, as attention's causal flag) takes no part in the variants'
// checks: flag = 1 must not keep the wrapper from the aligned variant.
#include <tile/tile.hpp>

template <int BLOCK, int FLAG>
TILE_KERNEL void scale(const float *x, float *out, int n,
                       [[maybe_unused]] int flag) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  tile::store(out + offs, tile::load(x + offs, offs < n) * 2.0f, offs < n);
}

TILE_CONFIGS(scale, tile::config{.meta = {1024, 0}, .num_warps = 4},
             tile::config{.meta = {1024, 1}, .num_warps = 4});

template <int BLOCK, int FLAG>
TILE_SELECT(scale)
bool scale_fits(const float *, float *, int, int flag) {
  return flag == FLAG;
}

template <int BLOCK, int FLAG>
TILE_GRID(scale)
tile::grid scale_grid(const float *, float *, int n, int) {
  return {tile::cdiv(n, BLOCK)};
}

// CHECK: const bool tilecc_aligned16 =
// CHECK-NOT: flag % 16
// CHECK: n % 4 == 0;
// CHECK-NOT: flag % 16
// CHECK: case 1:
// CHECK-NEXT: if (tilecc_aligned16)
