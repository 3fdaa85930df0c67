// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/softmax_rows.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/softmax_rows.cu -o %t/sm90a.o -Xptxas=-v 2>&1 | %not grep C7514 %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/softmax_rows.cu -o %t/sm80.o %}
// clang-format on
//
// pingpong: the consumer warpgroups of a warp-specialized program take
// turns on the tensor cores. Before the loop the last one hands the first
// its turn (mma_turns<2>::start); each staged dot of the loop waits for
// the warpgroup's turn, issues, passes the turn on and waits for its own
// product (mma_tiles_in_turn), so that one warpgroup's softmax runs while
// the other's products do. Dots outside the pipelined loop and the
// variants without a producer (no TMA) are as without the flag.
#include <cmath>
#include <tile/tile.hpp>

// The online softmax of attention over one head (FlashAttention's loop).
template <int BM, int BN, int D>
TILE_KERNEL void softmax_rows(const tile::half *q, const tile::half *k,
                              const tile::half *v, float *o, int seq) {
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto q_tile = tile::load(q + tile::expand_dims<1>(rows) * D +
                               tile::expand_dims<0>(rd),
                           tile::expand_dims<1>(rows < seq));
  auto m_i = tile::full<BM>(-INFINITY);
  auto l_i = tile::full<BM>(0.0f);
  auto acc = tile::zeros<float, BM, D>();
  for (int n0 = 0; n0 < seq; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    auto kt = tile::load(k + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(cols) * D,
                         tile::expand_dims<0>(cols < seq));
    auto s = tile::where(tile::expand_dims<0>(cols < seq), tile::dot(q_tile, kt),
                         -INFINITY);
    auto m_new = tile::maximum(m_i, tile::max<1>(s));
    auto p = tile::exp2(s - tile::expand_dims<1>(m_new));
    auto alpha = tile::exp2(m_i - m_new);
    l_i = l_i * alpha + tile::sum<1>(p);
    auto vb = tile::load(v + tile::expand_dims<1>(cols) * D +
                             tile::expand_dims<0>(rd),
                         tile::expand_dims<1>(cols < seq));
    acc = tile::dot(tile::cast<tile::half>(p), vb,
                    acc * tile::expand_dims<1>(alpha));
    m_i = m_new;
  }
  tile::store(o + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd),
              acc / tile::expand_dims<1>(l_i),
              tile::expand_dims<1>(rows < seq));
}

TILE_CONFIGS(softmax_rows, tile::config{.meta = {128, 128, 64},
                                        .num_warps = 8,
                                        .num_stages = 2,
                                        .warp_specialize = true,
                                        .pingpong = true});
template <int BM, int BN, int D>
TILE_GRID(softmax_rows)
tile::grid softmax_rows_grid(const tile::half *, const tile::half *,
                             const tile::half *, float *, int seq) {
  return {tile::cdiv(seq, BM)};
}

// CHECK-LABEL: // softmax_rows_c0_aligned16_tma:
// CHECK-SAME: warpgroups 0-1 take turns issuing the loops' tensor-core products
// CHECK: __launch_bounds__(384)
// CHECK: rt::setmaxnreg_inc<
// CHECK-NEXT: rt::mma_turns<2>::start();
// CHECK: for (int n0 = 0; n0 < seq; n0 += 128) {
// CHECK-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// CHECK: rt::mma_tiles_in_turn<[[S:L[0-9]+]], rt::f16, 2>(
// CHECK-NEXT: rt::fragment<[[O:L[0-9]+]]>(
// CHECK-NEXT: rt::operand<true>(kt_stage{
// CHECK: rt::reduce<1, [[S]], {{L[0-9]+}}, 256>(
// CHECK: rt::mma_tiles_in_turn<[[O]], rt::f16, 2>(
// CHECK-NEXT: rt::fragment<[[S]]>(
// CHECK-NEXT: rt::operand<false>(vb_stage{
// CHECK: rt::mbarrier_arrive(empty + read_stage);
// CHECK-LABEL: // softmax_rows_c0_aligned16:
// CHECK-NOT: mma_turns
// CHECK-NOT: mma_tiles_in_turn
// CHECK: rt::mma_tiles<
