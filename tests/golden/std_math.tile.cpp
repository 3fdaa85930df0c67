// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/scalar_math.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/scalar_math.cu -o %t/k90.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/scalar_math.cu -o %t/k80.o %}
// RUN: rm -rf %t.hip && %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/scalar_math.hip -o %t.hip/k.o %}
//
// <cmath> and <algorithm> functions on scalars lower to the tile
// operations that compute the same value (std::sqrt, ::sqrtf and
// __builtin_sqrtf alike); std::max, std::min and std::clamp keep their
// definitions' comparisons, so that a NaN gives what C++ gives, where
// std::fmax and std::fmin are tile::maximum and tile::minimum. Arguments
// convert as C++ converts them: std::sqrt of an int is a double.
#include <tile/tile.hpp>
#include <algorithm>
#include <cmath>

template <int BLOCK>
TILE_KERNEL void scalar_math(const float *x, float *out, float s, int k,
                             int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  // CHECK-LABEL: scalar_math_c0_generic(
  // CHECK: [[ABS:t[0-9]+]] = rt::abs(s);
  // CHECK-NEXT: rt::sqrt([[ABS]]);
  // CHECK: rt::exp2(s);
  // CHECK: rt::fma(s, 2.0f, 1.0f);
  // CHECK: rt::maximum(s, 0.5f);
  // CHECK: rt::sqrt(2.0f);
  float r = std::sqrt(std::fabs(s)) + std::exp2(s) + std::fma(s, 2.0f, 1.0f) +
            std::fmax(s, 0.5f) + sqrtf(2.0f);
  // std::max(r, 2.0f) is `r < 2.0f ? 2.0f : r`.
  // CHECK: [[LT:t[0-9]+]] = (r < 2.0f);
  // CHECK-NEXT: ([[LT]] ? 2.0f : r);
  // CHECK: [[GT:t[0-9]+]] = (1.0f < s);
  // CHECK-NEXT: ([[GT]] ? 1.0f : s);
  // CHECK: [[HI:t[0-9]+]] = (1.0f < s);
  // CHECK-NEXT: [[C:t[0-9]+]] = ([[HI]] ? 1.0f : s);
  // CHECK-NEXT: [[LO:t[0-9]+]] = (s < -1.0f);
  // CHECK-NEXT: ([[LO]] ? -1.0f : [[C]]);
  float m = std::max(r, 2.0f) - std::min(s, 1.0f) + std::clamp(s, -1.0f, 1.0f);
  // CHECK: (k < 3);
  // CHECK: rt::abs(k);
  int ki = std::max(k, 3) + std::abs(k);
  // CHECK: [[D:t[0-9]+]] = rt::convert<double>(k);
  // CHECK-NEXT: const double d = rt::sqrt([[D]]);
  double d = std::sqrt(k);
  // CHECK: rt::tanh(s);
  // CHECK: rt::pow(s, 2.5f);
  float h = std::tanh(s) + std::pow(s, 2.5f);
  // CHECK: (s != s);
  // CHECK: == INFINITY);
  // CHECK: < INFINITY);
  bool odd = std::isnan(s) || std::isinf(s) || !std::isfinite(r);
  auto a = tile::load(x + offs, mask, 0.0f);
  tile::store(out + offs,
              a * m + float(ki) + float(d) + h + (odd ? 1.0f : 0.0f), mask);
}
TILE_CONFIGS(scalar_math, tile::config{.meta = {256}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(scalar_math)
tile::grid scalar_math_grid(const float *, float *, float, int, int n) {
  return {tile::cdiv(n, BLOCK)};
}
