// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/fill.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/fill.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/fill.cu -o %t/sm80.o %}
// RUN: rm -rf %t.hip && %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/fill.hip -o %t.hip/k.o %}
//
// A kernel's tile::half and tile::bfloat16 scalars reach it as the device
// types with the same bits (the wrapper takes the host types).
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void fill(tile::half *h, tile::bfloat16 *b, tile::half hv,
                      tile::bfloat16 bv) {
  auto i = tile::arange<BLOCK>();
  tile::store(h + i, hv);
  tile::store(b + i, bv);
}
TILE_CONFIGS(fill, tile::config{.meta = {128}});
template <int BLOCK>
TILE_GRID(fill)
tile::grid fill_grid(tile::half *, tile::bfloat16 *, tile::half,
                     tile::bfloat16) {
  return {1};
}

// CHECK: cudaError_t launch_fill_c0_generic(
// CHECK: tile::half hv, tile::bfloat16 bv) {
// CHECK: rt::same_bits<rt::f16>(hv), rt::same_bits<rt::bf16>(bv));
