// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t --target sm_80 && %FileCheck %s < %t/twice.cu
// RUN: %if nvcc %{ %nvcc-sm80 %t/twice.cu -o %t/twice.o %}
// clang-format on
//
// A function called twice is lowered twice, each call's loop with its own
// variables: a variable declared in the loop's body and assigned there (v)
// is the iteration's, not a value the loop carries, even though the first
// call left it one (the second loop would otherwise start from the first's
// v, out of scope in the generated code).
#include <tile/tile.hpp>

template <int B> tile::tensor<float, B> clamped_sum(const float *x, int n) {
  auto acc = tile::zeros<float, B>();
  for (int i = 0; i < n; i += B) {
    auto v = tile::load(x + i + tile::arange<B>(), i + tile::arange<B>() < n,
                        0.0f);
    v = tile::minimum(v, tile::full<B>(1.0f));
    acc = acc + v;
  }
  return acc;
}

template <int B>
TILE_KERNEL void twice(const float *x, const float *y, float *out, int n) {
  auto a = clamped_sum<B>(x, n);
  auto b = clamped_sum<B>(y, n);
  tile::store(out + tile::arange<B>(), a + b);
}

TILE_CONFIGS(twice, tile::config{.meta = {128}, .num_warps = 4});
template <int B>
TILE_GRID(twice)
tile::grid twice_grid(const float *, const float *, float *, int) {
  return {1};
}

// clang-format off
// CHECK-LABEL: __global__
// CHECK: for (int i = 0; i < n; i += 128) {
// The second call's accumulator, the one value its loop carries.
// CHECK: acc_{{[0-9]+}}[e] = 0.0f;
// CHECK: acc_{{[0-9]+}}[e] = acc_{{[0-9]+}}[e];
// CHECK-NEXT: for (int i_1 = 0; i_1 < n; i_1 += 128) {
// CHECK-NOT: _next
// CHECK: rt::st_global_v1(
