// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/wide.cu
// RUN: %FileCheck %s --check-prefix=TC < %t/scores.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/wide.cu -o %t/wide.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/scores.cu -o %t/scores.o %}
// RUN: rm -rf %t.80 && %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s < %t.80/wide.cu
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/wide.cu -o %t.80/wide.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/scores.cu -o %t.80/scores.o %}
//
// Layout conversions, transposes and the dots outside pipelines pass their
// tiles through one shared buffer, each waiting for every thread before
// the next: it is as large as the largest of them needs. Static shared
// memory stops at 48 KB on NVIDIA GPUs; a larger buffer is dynamic, after
// the pipelines' buffers, and the launch asks for it.
#include <tile/tile.hpp>

// Two 64 KB fp32 operands on CUDA cores: 128 KB, dynamic.
TILE_KERNEL void wide(const float *a, const float *b, float *c) {
  auto r = tile::arange<128>();
  auto x =
      tile::load(a + tile::expand_dims<1>(r) * 128 + tile::expand_dims<0>(r));
  auto y =
      tile::load(b + tile::expand_dims<1>(r) * 128 + tile::expand_dims<0>(r));
  tile::store(c + tile::expand_dims<1>(r) * 128 + tile::expand_dims<0>(r),
              tile::dot(x, y, tile::input_precision::ieee));
}
TILE_CONFIGS(wide, tile::config{});
TILE_GRID(wide) tile::grid wide_grid(const float *, const float *, float *) {
  return {1};
}

// Tensor cores: S = K Q^T, then trans(P) K. A dot stages b, then a at the
// next 1024 bytes (a swizzled tile's alignment) unless a's registers hold
// its fragments; trans(P) is P written there as it is (A stored M-major).
template <int BM, int BN, int D>
TILE_KERNEL void scores(const tile::half *k, const tile::half *q, float *out) {
  auto rn = tile::arange<BN>();
  auto rm = tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto kb =
      tile::load(k + tile::expand_dims<1>(rn) * D + tile::expand_dims<0>(rd));
  auto qt =
      tile::load(q + tile::expand_dims<1>(rd) + tile::expand_dims<0>(rm) * D);
  auto p = tile::cast<tile::half>(tile::dot(kb, qt));
  tile::store(out + tile::expand_dims<1>(rm) * D + tile::expand_dims<0>(rd),
              tile::dot(tile::trans(p), kb));
}
TILE_CONFIGS(scores, tile::config{.meta = {64, 64, 64}, .num_warps = 4});
template <int BM, int BN, int D>
TILE_GRID(scores)
tile::grid scores_grid(const tile::half *, const tile::half *, float *) {
  return {1};
}

// clang-format off
// CHECK-LABEL: wide_c0_aligned16(
// CHECK: unsigned char *const scratch = rt::dynamic_smem<unsigned char>(0);
// CHECK: rt::dot_fma<rt::precision::ieee, {{.*}}>(x, y, {{.*}}, scratch);
// CHECK: 132096 bytes of dynamic shared memory
// CHECK: cudaFuncSetAttribute(
// CHECK-NEXT: wide_c0_aligned16, cudaFuncAttributeMaxDynamicSharedMemorySize, 132096);
// CHECK: wide_c0_aligned16<<<grid, 128, 132096, stream>>>
// TC-LABEL: scores_c0_aligned16(
// TC: alignas(1024) __shared__ unsigned char scratch[16384];
// TC: rt::dot_mma<{{.*}}>(kb, qt, {{.*}}, scratch);
// TC-NOT: rt::transpose
// TC: rt::dot_mma_trans_a<{{.*}}>(p, kb, {{.*}}, scratch);
// TC-NOT: dynamic shared memory
// clang-format on
