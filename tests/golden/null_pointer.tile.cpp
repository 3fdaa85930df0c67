// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/scale.cu
// RUN: %tilecc %s --kernel scale --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %if nvcc %{ %nvcc-sm90a %t/scale.cu -o %t/sm90a.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/scale.hip -o %t.hip/k.o %}
//
// nullptr (and 0 as a pointer) is a constant of the pointer type it
// converts to: a helper's optional output, say, that a caller without one
// passes as nullptr. The generated C++ spells it typed, so that a ?: with
// a pointer parameter keeps that type; where nothing reads it, nothing is
// emitted.
#include <tile/tile.hpp>

/// y = 2 x; also into copy when COPY.
template <int BLOCK, int COPY>
void twice(const float *x, float *y, float *copy, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto v = tile::load(x + offs, offs < n) * 2.0f;
  tile::store(y + offs, v, offs < n);
  if (COPY)
    tile::store(copy + offs, v, offs < n);
}

template <int BLOCK>
TILE_KERNEL void scale(const float *x, float *y, float *copy, int n,
                       int with_copy) {
  twice<BLOCK, 0>(x, y, nullptr, n);
  float *const out = with_copy ? copy : nullptr;
  twice<BLOCK, 1>(x, y, out, n);
}
TILE_CONFIGS(scale, tile::config{.meta = {256}, .num_warps = 4});

template <int BLOCK>
TILE_GRID(scale)
tile::grid scale_grid(const float *, float *, float *, int n, int) {
  return {tile::cdiv(n, BLOCK)};
}

// IR: [[NULL:%[0-9]+]] = const 0 : ptr<f32>
// IR-NEXT: %{{[0-9]+}}.out = where %{{[0-9]+}}, %2.copy, [[NULL]] : ptr<f32>

// CHECK-LABEL: scale_c0_aligned16(
// CHECK-NOT: nullptr
// CHECK: float *const out = ({{t[0-9]+}} ? copy : static_cast<float *>(nullptr));
// CHECK-NOT: nullptr
// CHECK-LABEL: scale_c0_generic(
