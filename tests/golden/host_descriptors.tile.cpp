// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s --check-prefix=WRAPPER < %t/mm.launch.cpp
// RUN: %FileCheck %s --check-prefix=HEADER < %t/mm.launch.h
// RUN: %FileCheck %s < %t/mm.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/mm.cu -o %t/sm80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/mm.hip -o %t.hip/k.o %}
//
// Tensor descriptors made on the host (Triton's TensorDescriptor) as
// kernel parameters: the launch wrapper takes a tile::host_tensor_descriptor
// of the element type and rank (whatever box each configuration's kernel
// names), refuses one whose last stride is not 1 or that reaches past
// 2^31 elements, specializes on its fields, and passes the kernel its
// base, shape and strides but the last (the constant 1). On sm_90a the
// descriptors' boxes are TMA copies, their tensor maps encoded from the
// host descriptor's fields; desc.shape(d) reads a field in the kernel and
// in the grid rule.
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
TILE_KERNEL void mm(tile::tensor_descriptor<const tile::half, BM, BK> a,
                    tile::tensor_descriptor<const tile::half, BK, BN> b,
                    tile::tensor_descriptor<tile::half, BM, BN> c) {
  const int blocks_n = tile::cdiv(c.shape(1), BN);
  const int om = tile::program_id(0) / blocks_n * BM;
  const int on = tile::program_id(0) % blocks_n * BN;
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < a.shape(1); k0 += BK)
    acc = tile::dot(a.load({om, k0}), b.load({k0, on}), acc);
  c.store({om, on}, tile::cast<tile::half>(acc));
}
TILE_CONFIGS(mm,
             tile::config{.meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3},
             tile::config{.meta = {64, 64, 32}, .num_warps = 4, .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(mm)
tile::grid mm_grid(tile::tensor_descriptor<const tile::half, BM, BK>,
                   tile::tensor_descriptor<const tile::half, BK, BN>,
                   tile::tensor_descriptor<tile::half, BM, BN> c) {
  return {tile::cdiv(c.shape(0), BM) * tile::cdiv(c.shape(1), BN)};
}

// clang-format off
// HEADER: cudaError_t mm(tile::host_tensor_descriptor<const tile::half, 2> a,
// HEADER-NEXT: tile::host_tensor_descriptor<const tile::half, 2> b,
// HEADER-NEXT: tile::host_tensor_descriptor<tile::half, 2> c,
// WRAPPER-LABEL: launch_config(int config, bool &tilecc_declined,
// WRAPPER: tilecc_grid = grid_0(a, b, c);
// WRAPPER: reinterpret_cast<std::uintptr_t>(a.base) % 16 == 0 &&
// WRAPPER-NEXT: a.shape[1] % 8 == 0 && a.strides[0] % 8 == 0 &&
// WRAPPER: launch_mm_c0_aligned16_tma(
// WRAPPER-LABEL: cudaError_t mm(
// WRAPPER: if (!tile::detail::descriptor_fits(a))
// WRAPPER-NEXT: return cudaErrorInvalidValue;
// WRAPPER: if (!tile::detail::descriptor_fits(c))
// WRAPPER-NEXT: return cudaErrorInvalidValue;
// WRAPPER-NOT: launch_mm_c0
// WRAPPER: tilecc_launch(config, tilecc_declined);
// CHECK-LABEL: __global__ void __launch_bounds__(128) mm_c0_aligned16_tma(
// CHECK-NEXT: const rt::f16 *a_base, {{.*}}int a_shape0,
// CHECK-NEXT: int a_shape1, {{.*}}int a_stride0,
// CHECK: rt::tma_load_tile(
// CHECK-LABEL: launch_mm_c0_aligned16_tma(dim3 grid, cudaStream_t stream,
// CHECK-NEXT: tile::host_tensor_descriptor<const tile::half, 2> a,
// CHECK: rt::encode_tensor_map<rt::smem_tile<rt::f16, 128, 64>>(
// CHECK-NEXT: &{{t[0-9]+}}_map, a.base, a.shape[1], a.shape[0], a.strides[0]);
// CHECK: mm_c0_aligned16_tma<<<grid, 128, {{[0-9]+}}, stream>>>(
// CHECK-NEXT: reinterpret_cast<const rt::f16 *>(a.base), a.shape[0], a.shape[1],
// CHECK-NEXT: a.strides[0], reinterpret_cast<const rt::f16 *>(b.base), b.shape[0],
// clang-format on
