// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/add_one.cu
// RUN: %tilecc %s --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %if nvcc %{ %nvcc-sm90a %t/add_one.cu -o %t/sm90a.o %}
//
// Triton's idiom for tensors past 2^31 elements: a 64-bit start plus an
// arange is a 64-bit index tile (a 64-bit integer scalar is not weak with
// an integer tile), so loads and stores address past 2^31 and nothing is
// narrowed to int.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void add_one(const std::int8_t *x, std::int8_t *y,
                         std::int64_t base, std::int64_t n) {
  std::int64_t start = base + std::int64_t(tile::program_id(0)) * BLOCK;
  auto i = start + tile::arange<BLOCK>();
  auto mask = i < n;
  tile::store(y + i, tile::load(x + i, mask) + 1, mask);
}
TILE_CONFIGS(add_one, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(add_one)
tile::grid add_one_grid(const std::int8_t *, std::int8_t *, std::int64_t base,
                        std::int64_t n) {
  return {static_cast<int>((n - base + BLOCK - 1) / BLOCK)};
}

// IR: %[[START:[0-9]+]].start = add %2.base, %{{[0-9]+}} : i64
// IR-NEXT: %[[RANGE:[0-9]+]] = arange {start = 0} : tensor<i32, [1024]>
// IR-NEXT: %[[SPLAT:[0-9]+]] = splat %[[START]].start : tensor<i64, [1024]>
// IR-NEXT: %[[WIDE:[0-9]+]] = cast %[[RANGE]] : tensor<i64, [1024]>
// IR-NEXT: %{{[0-9]+}}.i = add %[[SPLAT]], %[[WIDE]] : tensor<i64, [1024]>
// IR-NOT: : i32{{$}}

// CHECK-LABEL: add_one_c0_aligned16:
// CHECK: //   i : tensor<i64, [1024]> L0 (8 per thread)
// CHECK: const int64_t start = (base + t7);
// CHECK: int64_t i[8];
// CHECK: i[e] = (start + rt::convert<int64_t>(L0::coord(e, 0)));
// CHECK: mask[e] = (i[e] < n);
// CHECK: rt::ld_global_v8(&t{{[0-9]+}}[e], (x + i[e]), mask[e], int8_t(0));
// CHECK: rt::st_global_v8((y + i[e]), &t{{[0-9]+}}[e], mask[e]);
// CHECK-LABEL: add_one_c0_generic:
// CHECK-NOT: rt::convert<int>
