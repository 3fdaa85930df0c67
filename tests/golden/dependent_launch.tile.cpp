// clang-format off
// RUN: rm -rf %t %t.80 %t.hip && %tilecc %s -o %t && %FileCheck %s < %t/scale_next.cu
// RUN: %FileCheck %s --check-prefix=WAIT < %t/add_after.cu
// RUN: %FileCheck %s --check-prefix=WS < %t/mm_next.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/scale_next.cu -o %t/scale.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/add_after.cu -o %t/add.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_next.cu -o %t/mm.o %}
// RUN: %tilecc %s -o %t.80 --target sm_80 && %FileCheck %s --check-prefix=SM80 < %t.80/scale_next.cu
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/add_after.cu -o %t.80/add.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a && %FileCheck %s --check-prefix=HIP < %t.hip/scale_next.hip
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/add_after.hip -o %t.hip/add.o %}
// clang-format on
//
// launch_pdl (sm_90a): the wrapper launches the configuration with
// cudaLaunchKernelEx and the programmatic-stream-serialization attribute,
// so its programs may start while the kernel before it in the stream
// finishes. A kernel that does not say where it waits for that kernel's
// writes (tile::gdc_wait) waits before its first statement; one that does
// waits there, and a producer warpgroup waits before its first copy.
// tile::gdc_launch_dependents() lets the next such launch start early.
// sm_80 and gfx90a launch as always; the ops there do nothing.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void scale_next(const float *x, float *y, float a, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  tile::store(y + offs, a * tile::load(x + offs, mask, 0.0f), mask);
}

// clang-format off
// CHECK-LABEL: scale_next_c0_aligned16(const float *x
// CHECK-NEXT: #line 26
// CHECK-NEXT: rt::griddepcontrol_wait();
// CHECK-NEXT: const int
// CHECK-LABEL: launch_scale_next_c0_aligned16(
// CHECK: attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
// CHECK: launch.blockDim = dim3(128);
// CHECK: return cudaLaunchKernelEx(&launch, scale_next_c0_aligned16, x, y, a, n);
// CHECK-NOT: <<<
// CHECK-LABEL: scale_next_c1_aligned16: BLOCK=1024 num_warps=4; specialization: pointers 16-byte aligned, integers divisible as their accesses need.
// CHECK-NOT: griddepcontrol
// CHECK: scale_next_c1_aligned16<<<grid, 128, 0, stream>>>(x, y, a, n);
// SM80-NOT: griddepcontrol
// SM80-NOT: cudaLaunchKernelEx
// SM80: scale_next_c0_aligned16<<<grid, 128, 0, stream>>>(x, y, a, n);
// HIP-NOT: griddepcontrol
// HIP: scale_next_c0_aligned16<<<grid, 256, 0, stream>>>(x, y, a, n);
// clang-format on
TILE_CONFIGS(scale_next,
             tile::config{.meta = {1024}, .num_warps = 4, .launch_pdl = true},
             tile::config{.meta = {1024}, .num_warps = 4});

template <int BLOCK>
TILE_GRID(scale_next)
tile::grid scale_next_grid(const float *, float *, float, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// What does not depend on the kernel before (a parameter of this launch)
// is read before the wait.
template <int BLOCK>
TILE_KERNEL void add_after(const float *bias, const float *y, float *z, int n) {
  tile::gdc_launch_dependents();
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto b = tile::load(bias + offs, mask, 0.0f);
  tile::gdc_wait();
  tile::store(z + offs, b + tile::load(y + offs, mask, 0.0f), mask);
}

// clang-format off
// WAIT-LABEL: add_after_c0_aligned16(const float *bias
// WAIT-NOT: griddepcontrol_wait
// WAIT: rt::griddepcontrol_launch_dependents();
// WAIT-NOT: griddepcontrol_wait
// WAIT: rt::ld_global_v4(&b[e], (bias
// WAIT: #line 68
// WAIT-NEXT: rt::griddepcontrol_wait();
// WAIT-NOT: griddepcontrol_wait
// WAIT-LABEL: launch_add_after_c0_aligned16(
// WAIT: cudaLaunchKernelEx
// clang-format on
TILE_CONFIGS(add_after,
             tile::config{.meta = {1024}, .num_warps = 4, .launch_pdl = true});

template <int BLOCK>
TILE_GRID(add_after)
tile::grid add_after_grid(const float *, const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm_next(const tile::half *a, const tile::half *b,
                         tile::half *c, int m, int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn),
              tile::cast<tile::half>(acc),
              tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
}

// clang-format off
// WS-LABEL: mm_next_c0_aligned16_tma: {{.*}}; launched early (programmatic dependent launch); warp-specialized
// WS: if (threadIdx.x >= 128) {
// WS-NEXT: rt::setmaxnreg_dec<
// WS-NEXT: if (threadIdx.x == 128) {
// WS-NEXT: rt::griddepcontrol_wait();
// WS: rt::setmaxnreg_inc<
// WS: rt::griddepcontrol_wait();
// WS-LABEL: launch_mm_next_c0_aligned16_tma(
// WS: return cudaLaunchKernelEx(
// WS-NEXT: &launch, mm_next_c0_aligned16_tma,
// WS: n, k, x_map, y_map, t{{[0-9]+}}_map);
// clang-format on
TILE_CONFIGS(mm_next, tile::config{.meta = {128, 128, 64},
                                   .num_warps = 4,
                                   .num_stages = 3,
                                   .warp_specialize = true,
                                   .launch_pdl = true});

template <int BM, int BN, int BK>
TILE_GRID(mm_next)
tile::grid mm_next_grid(const tile::half *, const tile::half *, tile::half *,
                        int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}
