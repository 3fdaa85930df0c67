// clang-format off
// RUN: rm -rf %t %t.hip && %tilecc %s -o %t && %FileCheck %s < %t/scale.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/scale.cu -o %t/sm90a.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a && %FileCheck --check-prefix=HIP %s < %t.hip/scale.hip
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/scale.hip -o %t.hip/k.o %}
// clang-format on
//
// min_programs_per_sm bounds each thread's registers so that an SM holds
// that many programs at once: CUDA's minimum blocks per multiprocessor, and
// on AMD GPUs waves per SIMD (4 programs of 4 waves of 64 threads over the 4
// SIMDs of a CU: 4 waves each). The default, 1, leaves the bound out.
// (An SM holds 2048 threads: errors/min_programs_per_sm.tile.cpp.)
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void scale(const float *x, float *y, float a, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  tile::store(y + offs, a * tile::load(x + offs, mask, 0.0f), mask);
}

// clang-format off
// CHECK: __global__ void __launch_bounds__(128)
// CHECK-NEXT: scale_c0_aligned16(
// CHECK: __global__ void __launch_bounds__(128, 4)
// CHECK-NEXT: scale_c1_aligned16(
// CHECK: __global__ void __launch_bounds__(256, 4)
// CHECK-NEXT: scale_c2_aligned16(
// HIP: __global__ void __launch_bounds__(256)
// HIP-NEXT: scale_c0_aligned16(
// HIP: __global__ void __launch_bounds__(256) __attribute__((amdgpu_waves_per_eu(4)))
// HIP-NEXT: scale_c1_aligned16(
// HIP: __global__ void __launch_bounds__(512) __attribute__((amdgpu_waves_per_eu(8)))
// HIP-NEXT: scale_c2_aligned16(
// clang-format on
TILE_CONFIGS(
    scale, tile::config{.meta = {1024}, .num_warps = 4},
    tile::config{.meta = {1024}, .num_warps = 4, .min_programs_per_sm = 4},
    tile::config{.meta = {2048}, .num_warps = 8, .min_programs_per_sm = 4});

template <int BLOCK>
TILE_GRID(scale)
tile::grid scale_grid(const float *, float *, float, int n) {
  return {tile::cdiv(n, BLOCK)};
}
