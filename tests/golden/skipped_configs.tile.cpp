// RUN: rm -rf %t && %tilecc %s -o %t --target sm_80 --skip-unsupported 2>&1 | %FileCheck %s --check-prefix=WARN
// RUN: %FileCheck %s < %t/k.launch.cpp
// RUN: %FileCheck %s --check-prefix=HEADER < %t/k.launch.h
// RUN: %FileCheck %s --check-prefix=SELECT < %t/picked.launch.cpp
// RUN: %tilecc %s --target sm_80 --skip-unsupported --kernel k --emit=plan | %FileCheck %s --check-prefix=PLAN
// RUN: %if nvcc %{ %host-cxx %t/k.launch.cpp -o %t/k.o %}
// RUN: %if nvcc %{ %host-cxx %t/picked.launch.cpp -o %t/picked.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/k.cu -o %t/k80.o %}
// Without the flag, the configuration sm_80 cannot hold is an error:
// RUN: %not %tilecc %s -o %t.err --target sm_80 2>&1 | %FileCheck %s --check-prefix=ERROR
// RUN: test ! -e %t.err/k.cu
// For sm_90a both configurations are built:
// RUN: %tilecc %s -o %t.90 --skip-unsupported 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %FileCheck %s --check-prefix=BUILT90 < %t.90/k.launch.h
#include <tile/tile.hpp>
// Configurations tuned for an H100's 227 KB of shared memory, in a source
// that is also built for sm_80 (163 KB): with --skip-unsupported the ones
// sm_80 cannot hold are left out of that build with a warning, and their
// launches decline (cudaErrorInvalidValue) so that the default rule, the
// TILE_SELECT rule and the tuner pass over them.

template <int BM, int BN, int BK>
void block(const tile::half *a, const tile::half *b, float *c, int n) {
  auto rm = tile::arange<BM>();
  auto rn = tile::arange<BN>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < n; k0 += BK)
    acc = tile::dot(
        tile::load(a + tile::expand_dims<1>(rm) * n +
                   tile::expand_dims<0>(k0 + tile::arange<BK>())),
        tile::load(b + tile::expand_dims<1>(k0 + tile::arange<BK>()) * BN +
                   tile::expand_dims<0>(rn)),
        acc);
  tile::store(c + tile::expand_dims<1>(rm) * BN + tile::expand_dims<0>(rn),
              acc);
}

// WARN: skipped_configs.tile.cpp:[[@LINE-11]]:{{[0-9]+}}: warning: a configuration of k is left out for sm_80: a loop software-pipelined with num_stages = 4 needs {{[0-9]+}} bytes of shared memory (configuration 0), more than the 166912 sm_80 allows
// WARN-NEXT: skipped_configs.tile.cpp:[[@LINE-12]]:{{[0-9]+}}: warning: a configuration of picked is left out for sm_80
// WARN-NOT: warning
// ERROR: skipped_configs.tile.cpp:[[@LINE-14]]:{{[0-9]+}}: error: a loop software-pipelined with num_stages = 4
template <int BM, int BN, int BK>
TILE_KERNEL void k(const tile::half *a, const tile::half *b, float *c, int n) {
  block<BM, BN, BK>(a, b, c, n);
}
TILE_CONFIGS(k,
             tile::config{.meta = {128, 256, 64}, .num_warps = 8, .num_stages = 4},
             tile::config{.meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(k)
tile::grid k_grid(const tile::half *, const tile::half *, float *, int) {
  return {1};
}

// The launch of configuration 0 declines; the default is the first built.
// CHECK-NOT: grid_0
// CHECK: static tile::grid grid_1(
// CHECK: case 0:
// CHECK-NEXT: // Left out for sm_80: a loop software-pipelined with num_stages = 4
// CHECK-NEXT: tilecc_declined = true;
// CHECK-NEXT: return cudaErrorInvalidValue;
// CHECK-NEXT: case 1: {
// CHECK: config = 1;
// HEADER: ///   0: BM=128, BN=256, BK=64 num_warps=8 (left out for sm_80: it declines)
// HEADER-NEXT: ///   1: BM=128, BN=128, BK=64 num_warps=4{{$}}
// HEADER: inline constexpr bool k_config_built[] = {
// HEADER-NEXT: false,
// HEADER-NEXT: true,
// QUIET-NOT: warning
// BUILT90: inline constexpr bool k_config_built[] = {
// BUILT90-NEXT: true,
// BUILT90-NEXT: true,
// PLAN: configuration 0: BM=128, BN=256, BK=64 num_warps=8 num_stages=4 on sm_80
// PLAN-NEXT: left out: a loop software-pipelined with num_stages = 4
// PLAN-NEXT: // k configuration 1:
// PLAN-NEXT: launch k_c1_

// With a TILE_SELECT rule, a configuration left out applies to nothing.
// SELECT-NOT: applies_0
// SELECT: static bool applies(int config,
// SELECT-NEXT: float *c, int n) {
// SELECT-NEXT: switch (config) {
// SELECT-NEXT: case 1:
// SELECT-NEXT: return applies_1(
// SELECT-NEXT: }
// SELECT-NEXT: return false;
template <int BM, int BN, int BK>
TILE_KERNEL void picked(const tile::half *a, const tile::half *b, float *c,
                        int n) {
  block<BM, BN, BK>(a, b, c, n);
}
TILE_CONFIGS(picked,
             tile::config{.meta = {128, 256, 64}, .num_warps = 8, .num_stages = 4},
             tile::config{.meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(picked)
tile::grid picked_grid(const tile::half *, const tile::half *, float *, int) {
  return {1};
}
template <int BM, int BN, int BK>
TILE_SELECT(picked)
bool picked_select(const tile::half *, const tile::half *, float *, int n) {
  return n % BK == 0;
}
