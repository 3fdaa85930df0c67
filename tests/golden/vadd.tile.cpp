// RUN: rm -rf %t && %tilecc %s -o %t --depfile %t.d
// RUN: %FileCheck %s --check-prefix=CU < %t/vadd.cu
// RUN: %FileCheck %s --check-prefix=LAUNCH < %t/vadd.launch.cpp
// RUN: %FileCheck %s --check-prefix=HDR < %t/vadd.launch.h
// RUN: %FileCheck %s --check-prefix=JSON < %t/vadd.json
// RUN: %FileCheck %s --check-prefix=DEP < %t.d
//
// Output is a pure function of the input: a second run is byte-identical.
// RUN: rm -rf %t.2 && %tilecc %s -o %t.2 && diff -r %t %t.2
//
// The two views of the compiler's state.
// RUN: %tilecc %s --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %tilecc %s --emit=layouts | %FileCheck %s --check-prefix=LAYOUT
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void vadd(const float *x, const float *y, float *out, int n) {
  int pid = tile::program_id(0);
  auto offs = pid * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto a = tile::load(x + offs, mask, 0.0f);
  auto b = tile::load(y + offs, mask, 0.0f);
  tile::store(out + offs, a + b, mask);
}

TILE_CONFIGS(vadd, tile::config{.meta = {1024}, .num_warps = 4},
             tile::config{.meta = {256}, .num_warps = 2});

template <int BLOCK>
TILE_GRID(vadd)
tile::grid vadd_grid(const float *, const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// 16-byte accesses where alignment and n % 16 are known, one element at a
// time where they are not; each thread holds 4 contiguous floats.
// CU: L0 = #blocked<spt=[4], tpw=[32], wpc=[4], order=[0]> over [1024]
// CU: L1 = #blocked<spt=[4], tpw=[32], wpc=[2], order=[0]> over [256]
// CU: __global__ void __launch_bounds__(128)
// CU-NEXT: vadd_c0_aligned16(const float *x, const float *y, float *out, int n) {
// CU: #line 18 "{{.*}}vadd.tile.cpp"
// CU-NEXT: const int pid = static_cast<int>(blockIdx.x);
// CU: int offs[8];
// CU: offs[e] = (t{{[0-9]+}} + L0::coord(e, 0));
// CU: bool mask[8];
// CU: for (int e = 0; e < 8; e += 4)
// CU-NEXT: rt::ld_global_v4(&a[e], (x + offs[e]), mask[e], 0.0f);
// CU: rt::ld_global_v4(&b[e], (y + offs[e]), mask[e], 0.0f);
// CU: rt::st_global_v4((out + offs[e]), &t{{[0-9]+}}[e], mask[e]);
// CU: #line {{[0-9]+}} "vadd.cu"
// CU-LABEL: vadd_c0_generic(
// CU: rt::ld_global_v1(&a[e], (x + offs[e]), mask[e], 0.0f);
// CU: __global__ void __launch_bounds__(64)
// CU-NEXT: vadd_c1_aligned16(
// CU: float a[4];
// CU: rt::ld_global_v4(
// CU-LABEL: vadd_c1_generic(

// The wrapper checks the specialization at run time, most specialized first.
// LAUNCH: static tile::grid grid_0(const float *, const float *, float *,
// LAUNCH-NEXT: {{\[\[}}maybe_unused{{\]\]}} int n) {
// LAUNCH-NEXT: return {tile::cdiv(n, 1024)};
// LAUNCH: if (tilecc_grid.x <= 0 || tilecc_grid.y <= 0 || tilecc_grid.z <= 0)
// LAUNCH-NEXT: return cudaSuccess;
// LAUNCH: const bool tilecc_aligned16 =
// LAUNCH-NEXT: reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
// LAUNCH: n % 4 == 0;
// LAUNCH: case 0:
// LAUNCH-NEXT: if (tilecc_aligned16)
// LAUNCH-NEXT: return launch_vadd_c0_aligned16(tilecc_dims, stream, x, y, out, n);
// LAUNCH-NEXT: return launch_vadd_c0_generic(tilecc_dims, stream, x, y, out, n);
// LAUNCH: if (config == -1)
// LAUNCH-NEXT: config = 0;

// HDR: cudaError_t vadd(const float *x, const float *y, float *out, int n,
// HDR-NEXT: cudaStream_t stream = nullptr, int config = -1);
// HDR: inline constexpr int vadd_num_configs = 2;

// JSON: "name": "vadd_c0_aligned16"
// JSON: "load a: v4"

// DEP: vadd.tile.h {{.*}}vadd.tile.cu {{.*}}vadd.tile.launch.cpp: \
// DEP: tile/tile.hpp
// DEP: vadd.tile.cpp

// IR: %{{[0-9]+}}.offs = add %{{[0-9]+}}, %{{[0-9]+}} : tensor<i32, [1024]>
// IR: load %{{[0-9]+}}, %{{[0-9]+}}.mask, %{{[0-9]+}} : tensor<f32, [1024]>
// IR: store

// LAYOUT: .offs = add {{.*}} #blocked<spt=[4], tpw=[32], wpc=[4], order=[0]> {contiguity=[1024] divisibility=[1024] constancy=[1]}
// LAYOUT: .mask = lt {{.*}} {contiguity=[1] divisibility=[1] constancy=[4]}
