// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/mm.cu
// RUN: %FileCheck %s --check-prefix=CHAIN < %t/chain.cu
// RUN: %tilecc %s --kernel mm --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/mm.cu -o %t/sm80.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/chain.cu -o %t/chain.o %}
// RUN: %FileCheck %s --check-prefix=BATCHED < %t/batched.cu
// RUN: %tilecc %s --kernel batched --emit=ir | %FileCheck %s --check-prefix=BATCHED-IR
// RUN: %if nvcc %{ %nvcc-sm90a %t/batched.cu -o %t/batched90.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/batched.cu -o %t/batched80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/mm.hip -o %t.hip/k.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/batched.hip -o %t.hip/batched.o %}
//
// dot on CUDA cores: operands staged in shared memory from whatever layout
// they have (one buffer the kernel's CUDA-core dots share), the
// accumulator in the result's layout, carried across the K loop; trans
// through shared memory. One buffer serves the dots and the transpose, as
// large as the largest of them needs (a dot: a, 16-byte aligned, then b).
// A 3-D dot (a batch of products) and a float64 dot run there too.
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

// Two dots of different sizes share one buffer.
TILE_KERNEL void chain(const float *a, const float *b, float *c) {
  auto r = tile::arange<16>();
  auto n = tile::arange<32>();
  auto x =
      tile::load(a + tile::expand_dims<1>(r) * 16 + tile::expand_dims<0>(r));
  auto w =
      tile::load(b + tile::expand_dims<1>(r) * 32 + tile::expand_dims<0>(n));
  auto y = tile::dot(x, x, tile::input_precision::ieee);
  tile::store(c + tile::expand_dims<1>(r) * 32 + tile::expand_dims<0>(n),
              tile::dot(y, w, tile::input_precision::ieee));
}
TILE_CONFIGS(chain, tile::config{.num_warps = 4});
TILE_GRID(chain)
tile::grid chain_grid(const float *, const float *, float *) { return {1}; }

// Two products of 16 x 32 by 32 x 16 in one dot, added to c; then a 2-D
// float64 product.
TILE_KERNEL void batched(const double *a, const double *b, double *c) {
  auto pa = tile::make_block_ptr<2, 16, 32>(a, {2, 16, 32}, {512, 32, 1},
                                            {0, 0, 0});
  auto pb = tile::make_block_ptr<2, 32, 16>(b, {2, 32, 16}, {512, 16, 1},
                                            {0, 0, 0});
  auto pc = tile::make_block_ptr<2, 16, 16>(c, {2, 16, 16}, {256, 16, 1},
                                            {0, 0, 0});
  auto r = tile::dot(tile::load(pa), tile::load(pb), tile::load(pc));
  auto i = tile::arange<16>();
  auto square = c + tile::expand_dims<1>(i) * 16 + tile::expand_dims<0>(i);
  tile::store(pc, r);
  tile::store(square, tile::dot(tile::load(square), tile::load(square)));
}
TILE_CONFIGS(batched, tile::config{.num_warps = 4});
TILE_GRID(batched)
tile::grid batched_grid(const double *, const double *, double *) {
  return {1};
}

// clang-format off
// IR: %{{[0-9]+}} = trans %{{[0-9]+}}.yt : tensor<f32, {{\[}}16, 32]>
// IR: %{{[0-9]+}}.acc = dot {{.*}} : tensor<f32, {{\[}}32, 32]>
// CHECK-LABEL: mm_c0_aligned16(
// CHECK: alignas(16) __shared__ unsigned char scratch[4096];
// CHECK: for (int k0 = 0; k0 < k; k0 += 16) {
// CHECK: rt::transpose<[[LS:L[0-9]+]], [[LT:L[0-9]+]]>(yt, [[T:t[0-9]+]], scratch);
// CHECK: rt::dot_fma<rt::precision::ieee, {{L[0-9]+}}, [[LT]], {{L[0-9]+}}>(x, [[T]], {{acc_[0-9]+}}, {{acc_[0-9]+}}, scratch);
// CHAIN-LABEL: chain_c0_aligned16(
// CHAIN: alignas(16) __shared__ unsigned char scratch[3072];
// CHAIN: rt::dot_fma<{{.*}}>(x, x, {{.*}}, scratch);
// CHAIN: rt::dot_fma<{{.*}}>(y, w, {{.*}}, scratch);
// BATCHED-IR: dot {{.*}} : tensor<f64, {{\[}}2, 16, 16]>
// BATCHED-IR: dot {{.*}} : tensor<f64, {{\[}}16, 16]>
// BATCHED-LABEL: batched_c0_aligned16(
// BATCHED: alignas(16) __shared__ unsigned char scratch[16384];
// BATCHED: rt::dot_fma<rt::precision::tf32, {{L[0-9]+}}, {{L[0-9]+}}, {{L[0-9]+}}>(
// BATCHED: rt::dot_fma<rt::precision::tf32, {{L[0-9]+}}, {{L[0-9]+}}, {{L[0-9]+}}>(
// clang-format on
