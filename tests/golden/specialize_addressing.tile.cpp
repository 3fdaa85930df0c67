// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/k.launch.cpp
//
// Only integers whose divisibility can change an access are specialized:
// those that reach a pointer or a mask (n, stride). A value only compared
// (ignore_index, often -100) or stored would cost every access of the
// aligned variant its vectors for nothing.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void k(const float *x, float *y, const int64_t *target, int n,
                   int stride, int64_t ignore_index, int tag) {
  const int row = tile::program_id(0);
  auto cols = tile::arange<BLOCK>();
  if (tile::load(target + row) == ignore_index)
    return;
  auto v = tile::load(x + row * stride + cols, cols < n, 0.0f);
  tile::store(y + row * stride + cols, v + float(tag), cols < n);
}
TILE_CONFIGS(k, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(k)
tile::grid k_grid(const float *, float *, const int64_t *, int, int, int64_t,
                  int) {
  return {1};
}

// clang-format off
// CHECK: const bool tilecc_aligned16 =
// CHECK-NEXT: reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
// CHECK-NEXT: reinterpret_cast<std::uintptr_t>(y) % 16 == 0 &&
// CHECK-NEXT: reinterpret_cast<std::uintptr_t>(target) % 16 == 0 && n % 16 == 0 &&
// CHECK-NEXT: stride % 16 == 0;
// clang-format on
