// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/softmax_rows.cu
// RUN: %FileCheck %s --check-prefix=PING < %t/softmax_rows.cu
// RUN: %FileCheck %s --check-prefix=PEEK < %t/softmax_rows.cu
// RUN: %FileCheck %s --check-prefix=TIGHT < %t/softmax_rows.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/softmax_rows.cu -o %t/sm90a.o -Xptxas=-v 2>&1 | %not grep -E "C7514|[1-9][0-9]* bytes spill" %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/softmax_rows.cu -o %t/sm80.o %}
// clang-format on
//
// The two schedules of attention's key loop with a producer warpgroup.
//
// Rotation (first configuration; FlashAttention-3's overlap within a
// warpgroup): in a loop a producer feeds whose second dot accumulates
// (O += P V, after the rescaling O * alpha), each iteration issues its
// first dot (S = Q K^T), then the previous iteration's second dot with the
// rescaling done in place on the accumulator, and waits for the first alone
// (mma_wait<1>), so that P V runs on the tensor cores during the softmax.
// The first iteration runs without the second dot, the last one's follows
// the loop. What the late part reads of its iteration (P, alpha) crosses
// the back edge in `_prior` registers. V has a ring of barriers of its own
// (full_late, empty_late): K's stage is released once S is computed, V's
// once P V is. The variants without a producer keep the loop as it is, and
// so does one that reads the accumulator outside the chain (PEEK, third
// configuration), and one whose consumers have too few registers for what
// a rotated loop holds at once (TIGHT, fourth: two programs of 8 + 4 warps
// an SM, 104 registers a thread for S, O and P twice, 96; ptxas would
// spill and serialize the wgmmas). With two programs an SM the producer
// keeps 24 registers, not 40.
//
// Ping-pong (PING, second configuration): the consumer warpgroups take
// turns on the tensor cores instead. Before the loop the last one hands the
// first its turn (mma_turns<2>::start); each staged dot of the loop waits
// for the warpgroup's turn, issues, passes the turn on and waits for its
// own product (mma_tiles_in_turn), so that one warpgroup's softmax runs
// while the other's products do. Dots outside the pipelined loop and the
// variants without a producer (no TMA) are as without the flag.
#include <cmath>
#include <tile/tile.hpp>

// The online softmax of attention over one head (FlashAttention's loop);
// PEEK keeps a running maximum of the unnormalized output too (as when
// debugging).
template <int BM, int BN, int D, int PEEK>
TILE_KERNEL void softmax_rows(const tile::half *q, const tile::half *k,
                              const tile::half *v, float *o, int seq) {
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto q_tile =
      tile::load(q + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd),
                 tile::expand_dims<1>(rows < seq));
  auto m_i = tile::full<BM>(-INFINITY);
  auto l_i = tile::full<BM>(0.0f);
  auto acc = tile::zeros<float, BM, D>();
  for (int n0 = 0; n0 < seq; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    auto kt = tile::load(k + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(cols) * D,
                         tile::expand_dims<0>(cols < seq));
    auto s = tile::where(tile::expand_dims<0>(cols < seq),
                         tile::dot(q_tile, kt), -INFINITY);
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
    if (PEEK)
      m_i = tile::maximum(m_i, tile::max<1>(acc));
  }
  tile::store(o + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd),
              acc / tile::expand_dims<1>(l_i),
              tile::expand_dims<1>(rows < seq));
}

TILE_CONFIGS(softmax_rows,
             tile::config{.meta = {128, 128, 64, 0},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {128, 128, 64, 0},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true,
                          .pingpong = true},
             tile::config{.meta = {128, 128, 64, 1},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {128, 64, 64, 0},
                          .num_warps = 8,
                          .num_stages = 3,
                          .min_programs_per_sm = 2,
                          .warp_specialize = true});
template <int BM, int BN, int D, int PEEK>
TILE_GRID(softmax_rows)
tile::grid softmax_rows_grid(const tile::half *, const tile::half *,
                             const tile::half *, float *, int seq) {
  return {tile::cdiv(seq, BM)};
}

// clang-format off
// CHECK-LABEL: // softmax_rows_c0_aligned16_tma:
// CHECK-SAME: rotated: each iteration issues its first dot, then the previous iteration's last.
// CHECK: rt::mbarrier *const empty = full + 2;
// CHECK-NEXT: rt::mbarrier *const full_late = full + 4;
// CHECK-NEXT: rt::mbarrier *const empty_late = full + 6;
// CHECK: rt::mbarrier_init(full_late + s, 1);
// CHECK-NEXT: rt::mbarrier_init(empty_late + s, 8);
// The producer: K on the first ring, V on the second.
// CHECK: rt::mbarrier_wait(empty + fill_stage, fill_phase ^ 1);
// CHECK-NEXT: rt::mbarrier_arrive_expect_tx(full + fill_stage, 16384);
// CHECK-NEXT: rt::tma_load_tile(kt_stage{{.*}}
// CHECK-NEXT: &kt_map, full + fill_stage, 0, n0);
// CHECK-NEXT: rt::mbarrier_wait(empty_late + fill_stage, fill_phase ^ 1);
// CHECK-NEXT: rt::mbarrier_arrive_expect_tx(full_late + fill_stage, 16384);
// CHECK-NEXT: rt::tma_load_tile(vb_stage{{.*}}
// CHECK-NEXT: &vb_map, full_late + fill_stage, 0, n0);
// The consumers: Q is the producer's copy (tma_operand).
// CHECK: rt::mbarrier_wait(q_tile_full, q_tile_phase);
// CHECK: pipeline: kt, vb in 2 shared-memory stages, filled by a producer warpgroup as they are released; rotated: each iteration issues the previous one's last dot after its first
// CHECK-NEXT: float alpha_prior[2];
// CHECK-NEXT: rt::f16 [[P:t[0-9]+]]_prior[64];
// CHECK-NEXT: int late_stage = read_stage;
// CHECK-NEXT: unsigned late_phase = phase;
// CHECK-NEXT: if (0 < seq) {
// The first iteration waits for its product and leaves the second dot.
// CHECK-NEXT: {
// CHECK-NEXT: const int n0 = 0;
// CHECK-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// CHECK: rt::mma_tiles<[[S:L[0-9]+]], rt::f16>(
// CHECK-NOT: rt::mma_
// CHECK: rt::mbarrier_arrive(empty + read_stage);
// CHECK: alpha_prior[e] = alpha[e];
// CHECK: [[P]]_prior[e] = [[P]][e];
// CHECK: late_stage = read_stage;
// CHECK-NEXT: late_phase = phase;
// CHECK-NEXT: read_stage = read_stage + 1 == 2 ? 0 : read_stage + 1;
// CHECK-NEXT: phase ^= read_stage == 0;
// CHECK-NEXT: }
// Then S(j) is issued before P(j-1) V(j-1), and only S(j) waited for.
// CHECK-NEXT: for (int n0 = 128; n0 < seq; n0 += 128) {
// CHECK-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// CHECK: rt::mma_issue<[[S]], rt::f16>(
// CHECK-NEXT: rt::operand<true>(q_tile_stage{q_tile_buf}),
// CHECK-NEXT: rt::operand<true>(kt_stage{kt_ring + read_stage * kt_stage::elems}),
// CHECK-NEXT: [[SV:t[0-9]+]]);
// CHECK-NEXT: rt::mbarrier_wait(full_late + late_stage, late_phase);
// CHECK: acc_1[e] = (acc_1[e] * alpha_prior[rt::broadcast_index<{{L[0-9]+}}, [[O:L[0-9]+]]>(e)]);
// CHECK: rt::mma_issue<[[O]], rt::f16>(rt::fragment<[[S]]>([[P]]_prior),
// CHECK-NEXT: rt::operand<false>(vb_stage{
// CHECK-NEXT: vb_ring + late_stage * vb_stage::elems}),
// CHECK-NEXT: acc_1);
// CHECK-NEXT: rt::mma_wait<1>([[SV]]);
// CHECK-NEXT: if (threadIdx.x % 32 == 0)
// CHECK-NEXT: rt::mbarrier_arrive(empty + read_stage);
// CHECK: rt::reduce<1, [[S]], {{L[0-9]+}}, 256>(s,
// CHECK: rt::reduce_in_thread<1, [[S]], {{L[0-9]+}}>(p,
// CHECK: [[P]][e] = rt::convert<rt::f16>(p[e]);
// CHECK-NEXT: rt::mma_wait<0>(acc_1);
// CHECK-NEXT: if (threadIdx.x % 32 == 0)
// CHECK-NEXT: rt::mbarrier_arrive(empty_late + late_stage);
// CHECK: [[P]]_prior[e] = [[P]][e];
// CHECK: phase ^= read_stage == 0;
// CHECK-NEXT: }
// The last iteration's second dot.
// CHECK-NEXT: rt::mbarrier_wait(full_late + late_stage, late_phase);
// CHECK: acc_1[e] = (acc_1[e] * alpha_prior[
// CHECK: rt::mma_tiles<[[O]], rt::f16>(
// CHECK-NEXT: rt::fragment<[[S]]>([[P]]_prior),
// CHECK-NEXT: rt::operand<false>(vb_stage{vb_ring + late_stage * vb_stage::elems}),
// CHECK-NEXT: acc_1);
// CHECK-NEXT: if (threadIdx.x % 32 == 0)
// CHECK-NEXT: rt::mbarrier_arrive(empty_late + late_stage);
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: rt::combine_lanes<1, [[S]]>(l_i_1, rt::op_sum{});
// CHECK-LABEL: // softmax_rows_c0_aligned16:
// CHECK-NOT: ; rotated
// CHECK-NOT: mma_issue
// PING-LABEL: // softmax_rows_c1_aligned16_tma:
// PING-SAME: warpgroups 0-1 take turns issuing the loops' tensor-core products
// PING-NOT: rotated
// PING: __launch_bounds__(384, 1)
// PING-NOT: full_late
// PING: rt::setmaxnreg_inc<
// PING-NEXT: rt::mma_turns<2>::start();
// PING: for (int n0 = 0; n0 < seq; n0 += 128) {
// PING-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// PING: rt::mma_tiles_in_turn<[[S:L[0-9]+]], rt::f16, 2>(
// PING-NEXT: rt::operand<true>(q_tile_stage{q_tile_buf}),
// PING-NEXT: rt::operand<true>(kt_stage{
// PING: rt::reduce<1, [[S]], {{L[0-9]+}}, 256>(
// PING: rt::mma_tiles_in_turn<{{L[0-9]+}}, rt::f16, 2>(
// PING-NEXT: rt::fragment<[[S]]>(
// PING-NEXT: rt::operand<false>(vb_stage{
// PING: rt::mbarrier_arrive(empty + read_stage);
// PING-LABEL: // softmax_rows_c1_aligned16:
// PING-NOT: mma_turns
// PING-NOT: mma_tiles_in_turn
// PING: rt::mma_tiles<
// PEEK-LABEL: // softmax_rows_c2_aligned16_tma:
// PEEK-SAME: warp-specialized
// PEEK-NOT: rotated
// PEEK-NOT: mma_issue
// PEEK: rt::mma_tiles<
// PEEK: rt::mma_tiles<
// PEEK-NOT: mma_issue
// TIGHT-LABEL: // softmax_rows_c3_aligned16_tma:
// TIGHT-SAME: (setmaxnreg 24 / 104), and the dots' A operand loaded at line 49; not rotated: the loop at line 54 would hold 96 of the consumers' 104 registers a thread.
// TIGHT: __launch_bounds__(384, 2)
// TIGHT-NOT: full_late
// TIGHT: rt::setmaxnreg_dec<24>();
// TIGHT: rt::setmaxnreg_inc<104>();
// TIGHT-NOT: mma_issue
// TIGHT: rt::mma_tiles<
// TIGHT: rt::mma_tiles<
// TIGHT-NOT: mma_issue
// TIGHT-LABEL: // softmax_rows_c3_aligned16:
