// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/dropout.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/dropout.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/dropout.cu -o %t/sm80.o %}
// RUN: %FileCheck --check-prefix=MATH %s < %t/extern_math.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/extern_math.cu -o %t/math90a.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/dropout.hip -o %t.hip/dropout.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/extern_math.hip -o %t.hip/math.o %}
// RUN: %tilecc %s --emit=ir | %FileCheck --check-prefix=IR %s
//
// Random numbers are one Philox word per element, a tile::rt call with the
// word and the rounds; tile::rand's conversion to a float is tile code
// (bitcast, fold, scale) inlined from tile.hpp. libdevice's functions are
// one tile::rt call each, named like the operation.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void dropout(const float *x, float *out, int n, float p,
                         int seed) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask);
  auto keep = tile::rand(seed, offs) > p;
  tile::store(out + offs, tile::where(keep, v / (1 - p), 0.0f), mask);
}
TILE_CONFIGS(dropout, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(dropout)
tile::grid dropout_grid(const float *, float *, int n, float, int) {
  return {tile::cdiv(n, BLOCK)};
}

// IR: philox {word = 0, rounds = 10} {{.*}} : tensor<u32, [1024]>
// IR: bitcast {{.*}} : tensor<i32, [1024]>
// CHECK: const uint64_t [[SEED:t[0-9]+]] = rt::convert<uint64_t>(seed);
// CHECK: rt::bitcast<int>(rt::philox<0, 10>([[SEED]], offs[e]))
// CHECK: rt::st_global_v4

template <int BLOCK>
TILE_KERNEL void extern_math(const float *x, float *out, unsigned *bits,
                             int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto a = tile::load(x + offs, mask);
  tile::store(out + offs,
              tile::asin(a) + tile::atan2(a, 2.0f) + tile::div_rn(a, 3.0f),
              mask);
  tile::store(out + n + offs, tile::erfinv(a), mask);
  tile::store(bits + offs,
              tile::umulhi(tile::bitcast<unsigned>(a), 0x9E3779B9u), mask);
}
TILE_CONFIGS(extern_math, tile::config{.meta = {256}, .num_warps = 2});
template <int BLOCK>
TILE_GRID(extern_math)
tile::grid extern_math_grid(const float *, float *, unsigned *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// MATH: ((rt::asin(a[e]) + rt::atan2(a[e], 2.0f)) + rt::div_rn(a[e], 3.0f))
// MATH: rt::erfinv(a[e])
// MATH: rt::umulhi(rt::bitcast<unsigned>(a[e]), unsigned(2654435769))
