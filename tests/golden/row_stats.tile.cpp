// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/rows.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/rows.cu -o %t/sm90a.o %}
// clang-format on
//
// Attention's row statistics when the key block (BN = 128) and head_dim
// (D = 64) differ: the row maximum of s (BM x BN) and the scale of acc
// (BM x D) are row vectors of two accumulators whose layouts differ only
// in how often a warp repeats along columns. Their slices give every
// thread the same rows, so the scale reaches acc without a layout
// conversion through shared memory.
#include <tile/tile.hpp>
template <int BM, int BN, int D>
TILE_KERNEL void rows(const tile::half *q, const tile::half *k,
                      const tile::half *v, float *o, int n) {
  auto r = tile::program_id(0) * BM + tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto qt =
      tile::load(q + tile::expand_dims<1>(r) * D + tile::expand_dims<0>(rd));
  auto m_i = tile::full<BM>(-INFINITY);
  auto acc = tile::zeros<float, BM, D>();
  for (int n0 = 0; n0 < n; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    auto s = tile::dot(qt, tile::load(k + tile::expand_dims<1>(rd) +
                                      tile::expand_dims<0>(cols) * D));
    auto m_new = tile::maximum(m_i, tile::max<1>(s));
    auto p = tile::exp2(s - tile::expand_dims<1>(m_new));
    auto vb = tile::load(v + tile::expand_dims<1>(cols) * D +
                         tile::expand_dims<0>(rd));
    acc = tile::dot(tile::cast<tile::half>(p), vb,
                    acc * tile::expand_dims<1>(tile::exp2(m_i - m_new)));
    m_i = m_new;
  }
  tile::store(o + tile::expand_dims<1>(r) * D + tile::expand_dims<0>(rd), acc);
}
TILE_CONFIGS(rows, tile::config{.meta = {128, 128, 64},
                                .num_warps = 8,
                                .num_stages = 2});
template <int BM, int BN, int D>
TILE_GRID(rows)
tile::grid rows_grid(const tile::half *, const tile::half *, const tile::half *,
                     float *, int n) {
  return {n / BM};
}
// clang-format off
// CHECK-LABEL: rows_c0_aligned16(
// CHECK: for (int n0 = 0; n0 < n; n0 += 128) {
// CHECK-NOT: -> #slice
// CHECK: rt::mma_tiles<
// CHECK-NOT: -> #slice
// CHECK: rt::mma_tiles<
// CHECK-NOT: -> #slice
// CHECK-LABEL: rows_c0_generic(
// clang-format on
