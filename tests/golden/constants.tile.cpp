// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/constants.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/constants.cu -o %t/k.o %}
//
// Constants are converted once, as emulation converts them, and printed with
// digits that round-trip their type.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void constants(const float *x, float *out, double *wide,
                           int8_t *small, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask);
  // 1 + 2^-24 is halfway between two floats: converting gives 1.0f, while
  // writing its decimal digits with an f suffix would give the float above.
  tile::store(out + offs, v * 1.000000059604644775390625 + 0.5870, mask);
  tile::store(wide + offs, tile::cast<double>(v) * 0.1, mask);
  tile::store(small + offs, tile::cast<int8_t>(offs) + int8_t(-3), mask);
}

TILE_CONFIGS(constants, tile::config{.meta = {256}, .num_warps = 2});

template <int BLOCK>
TILE_GRID(constants)
tile::grid constants_grid(const float *, float *, double *, int8_t *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// CHECK-LABEL: constants_c0_aligned16(
// CHECK: * 1.0f) + 0.587000012f)
// CHECK: * 0.10000000000000001)
// CHECK: static_cast<int8_t>(
// CHECK-SAME: int8_t(-3)
