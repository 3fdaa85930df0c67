// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/narrow_products.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/narrow_products.cu -o %t/k.o %}
//
// Narrow integers wrap at their own width. C++ promotes them to int first,
// where a product of two uint16 values (65535 * 65535) would overflow: that
// one multiplies as unsigned.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void narrow_products(const std::uint16_t *a, const std::int16_t *b,
                                 std::uint16_t *u, std::int16_t *s) {
  auto i = tile::arange<BLOCK>();
  tile::store(u + i, tile::load(a + i) * tile::load(a + BLOCK + i));
  tile::store(s + i, tile::load(b + i) * tile::load(b + BLOCK + i));
}
TILE_CONFIGS(narrow_products, tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(narrow_products)
tile::grid narrow_products_grid(const std::uint16_t *, const std::int16_t *,
                                std::uint16_t *, std::int16_t *) {
  return {1};
}

// CHECK-LABEL: narrow_products_c0_
// CHECK: static_cast<uint16_t>(unsigned({{.*}}) * {{.*}});
// CHECK: static_cast<int16_t>({{[a-z0-9]+}}[e] * {{[a-z0-9]+}}[e]);
