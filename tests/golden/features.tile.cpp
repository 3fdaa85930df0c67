// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/features.cu
// RUN: %tilecc %s -o %t.hip --target gfx90a && %FileCheck %s --check-prefix=HIP < %t.hip/features.hip
//
// Generated code compiles warning-free for every target.
// RUN: %if nvcc %{ %nvcc-sm90a %t/features.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/features.cu -o %t/sm80.o %}
// RUN: %if nvcc %{ %host-cxx %t/features.launch.cpp -o %t/launch.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/features.hip -o %t.hip/k.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/features.launch.cpp -o %t.hip/launch.o %}
// A kernel that touches most of the elementwise language: 2-D tiles built
// from 1-D index vectors, a runtime-bounded loop carrying a tile, a scalar
// `if`, an inlined helper and lambda, half-precision memory and casts.
#include <tile/tile.hpp>

static float scaled(float v, float s) { return v * s; }

template <int BM, int BN>
TILE_KERNEL void features(const tile::half *x, tile::half *y, float *stats,
                          int m, int n, int stride, int reps, float alpha) {
  int pid_m = tile::program_id(0);
  int pid_n = tile::program_id(1);
  auto rows = pid_m * BM + tile::arange<BM>();
  auto cols = pid_n * BN + tile::arange<BN>();
  auto offs = tile::expand_dims<1>(rows) * stride + tile::expand_dims<0>(cols);
  auto mask = tile::expand_dims<1>(rows < m) && tile::expand_dims<0>(cols < n);
  auto v = tile::cast<float>(tile::load(x + offs, mask, 0.0f));
  auto acc = tile::zeros<float, BM, BN>();
  for (int r = 0; r < reps; ++r)
    acc += tile::exp(v * 0.5f) + r;
  auto square = [](auto t) { return t * t; };
  float a = scaled(alpha, 2.0f);
  if (reps > 1)
    a = a + 1.0f;
  auto out = tile::where(mask, tile::maximum(square(acc) * a, 0.0f), -1.0f);
  tile::store(y + offs, tile::cast<tile::half>(out), mask);
  if (pid_m == 0 && pid_n == 0)
    tile::store(stats, a);
}

TILE_CONFIGS(features, tile::config{.meta = {32, 64}, .num_warps = 4});

template <int BM, int BN>
TILE_GRID(features)
tile::grid features_grid(const tile::half *, tile::half *, float *, int m,
                         int n, int, int, float) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// 2-D tiles: the contiguous dimension is fastest, 8 halves (16 bytes) per
// thread along it; row and column indices live in slices of that layout, so
// expand_dims and broadcasting need no data movement.
// CHECK: L0 = #slice<dim=1, #blocked<spt=[1, 8], tpw=[4, 8], wpc=[4, 1], order=[1, 0]>> over [32]
// CHECK: L2 = #blocked<spt=[1, 8], tpw=[4, 8], wpc=[4, 1], order=[1, 0]> over [32, 64]
// CHECK-LABEL: features_c0_aligned16(const rt::f16 *x, rt::f16 *y, float *stats,
// CHECK: int rows[2];
// CHECK: offs[e] =
// CHECK-NEXT: ((rows[rt::broadcast_index<L0, L3>(rt::broadcast_index<L3, L2>(e))] *
// CHECK: mask[e] = ((rows[rt::broadcast_index<L0, L2>(e)] < m) &&
// CHECK-NEXT: (cols[rt::broadcast_index<L1, L2>(e)] < n));
// CHECK: rt::ld_global_v8(&t{{[0-9]+}}[e], (x + offs[e]), mask[e], rt::f16(0.0f));
// A loop carrying a tile, with a runtime bound.
// CHECK: for (int r = 0; r < reps; r += 1) {
// CHECK: acc_1[e] = acc_2[e];
// The helper is inlined where it is defined.
// CHECK: #line 15 "{{.*}}features.tile.cpp"
// CHECK-NEXT: const float a = (alpha * 2.0f);
// CHECK: if (t{{[0-9]+}}) {
// CHECK: } else {
// CHECK: rt::st_global_v8((y + offs[e]), &t{{[0-9]+}}[e], mask[e]);
// CHECK-LABEL: features_c0_generic(
// CHECK: rt::ld_global_v1(

// On AMD, a wavefront is 64 lanes.
// HIP: #include <tile/rt/rt.cuh>
// HIP: L2 = #blocked<spt=[1, 8], tpw=[8, 8], wpc=[4, 1], order=[1, 0]> over [32, 64]
// HIP: hipError_t launch_features_c0_aligned16(dim3 grid, hipStream_t stream
