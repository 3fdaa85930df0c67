// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/cast_runs.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/cast_runs.cu -o %t/sm90a.o %}
// clang-format on
//
// A cast keeps a tile's runs only where the step between their elements
// survives it: byte addresses base + i cast to float pointers are one byte
// apart, and float pointers cast to half pointers step two halves, so
// neither may be read as a vector of consecutive elements, whatever the
// arguments' alignment.
#include <cstdint>
#include <tile/tile.hpp>

TILE_KERNEL void cast_runs(const float *x, float *y, int64_t base) {
  auto bytes = tile::cast<const float *>(base + tile::arange<64>());
  tile::store(y + tile::arange<64>(), tile::load(bytes));
  auto halves = tile::cast<const tile::half *>(x + tile::arange<64>());
  tile::store(y + 64 + tile::arange<64>(),
              tile::cast<float>(tile::load(halves)));
}

TILE_CONFIGS(cast_runs, tile::config{.num_warps = 1});

TILE_GRID(cast_runs)
tile::grid cast_runs_grid(const float *, float *, int64_t) { return {1}; }

// CHECK: cast_runs_c0_generic: {{.*}}also the kernel of aligned16 launches
// CHECK: load t{{[0-9]+}}: v1
// CHECK: load t{{[0-9]+}}: v1
// CHECK-NOT: cast_runs_c0_aligned16
