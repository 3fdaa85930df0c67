// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/mm.cu
// RUN: %tilecc %s --kernel mm --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/mm.cu -o %t/sm80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/mm.hip -o %t.hip/k.o %}
//
// dot on CUDA cores: operands staged in shared memory from whatever layout
// they have (one buffer the kernel's CUDA-core dots share), the
// accumulator in the result's layout, carried across the K loop; trans
// through shared memory.
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
TILE_KERNEL void mm(const float *a, const float *bt, float *c, int k) {
  auto rm = tile::arange<BM>();
  auto rn = tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto x = tile::load(a + tile::expand_dims<1>(rm) * k +
                        tile::expand_dims<0>(k0 + rk));
    auto yt = tile::load(bt + tile::expand_dims<1>(rn) * k +
                         tile::expand_dims<0>(k0 + rk));
    acc = tile::dot(x, tile::trans(yt), acc, tile::input_precision::ieee);
  }
  tile::store(c + tile::expand_dims<1>(rm) * BN + tile::expand_dims<0>(rn),
              acc);
}

TILE_CONFIGS(mm, tile::config{.meta = {32, 32, 16}, .num_warps = 4});
template <int BM, int BN, int BK>
TILE_GRID(mm)
tile::grid mm_grid(const float *, const float *, float *, int) {
  return {1};
}

// clang-format off
// IR: %{{[0-9]+}} = trans %{{[0-9]+}}.yt : tensor<f32, {{\[}}16, 32]>
// IR: %{{[0-9]+}}.acc = dot {{.*}} : tensor<f32, {{\[}}32, 32]>
// CHECK-LABEL: mm_c0_aligned16(
// CHECK: alignas(16) __shared__ unsigned char dot_scratch[4096];
// CHECK: for (int k0 = 0; k0 < k; k0 += 16) {
// CHECK: rt::transpose<[[LS:L[0-9]+]], [[LT:L[0-9]+]]>(yt, [[T:t[0-9]+]]);
// CHECK: rt::dot_fma<rt::precision::ieee, {{L[0-9]+}}, [[LT]], {{L[0-9]+}}>(x, [[T]], {{acc_[0-9]+}}, {{acc_[0-9]+}},
// CHECK-NEXT: dot_scratch);
// clang-format on
