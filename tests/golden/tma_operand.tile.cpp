// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/row_scores.cu
// RUN: %FileCheck %s --check-prefix=KEEP < %t/row_scores.cu
// RUN: %FileCheck %s --check-prefix=ONE < %t/row_scores.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/row_scores.cu -o %t/sm90a.o %}
// clang-format on
//
// A tile loaded before the loops a producer warpgroup feeds, whose only
// uses are the A operands of their dots (attention's Q), is the producer's
// to copy too, by TMA into a buffer of its own: the producer waits for the
// buffer's empty barrier and asks for the box where the load was, in the
// loop over tiles it walks; the consumers wait for its full barrier there,
// their dots read the buffer (rt::operand, no fragments in registers, no
// layout conversion), and each warp arrives on the empty barrier after the
// last loop reading it. Inside the loop over tiles the buffer is two,
// taken in turn, so the producer copies the next tile's while the
// consumers read this one's; where shared memory has no room for the
// second (the third configuration's six stages), the next copy waits for
// the release, overlapping only the rest of this tile. A tile the
// consumers also read otherwise (KEEP) stays theirs to load.
#include <algorithm>
#include <cmath>
#include <tile/tile.hpp>

// Each row's largest score q . k over the keys, for BM rows of a head per
// tile, tiles walked by a persistent program; KEEP also stores each row's
// sum of q.
template <int BM, int BN, int D, int KEEP>
TILE_KERNEL void row_scores(const tile::half *q, const tile::half *k,
                            float *out, float *q_sums, int seq, int heads) {
  const int blocks = tile::cdiv(seq, BM);
  for (int t = tile::program_id(0); t < blocks * heads;
       t += tile::num_programs(0)) {
    const int head = t / blocks;
    const long offset = static_cast<long>(head) * seq * D;
    auto rows = (t % blocks) * BM + tile::arange<BM>();
    auto rd = tile::arange<D>();
    auto q_tile = tile::load(q + offset + tile::expand_dims<1>(rows) * D +
                                 tile::expand_dims<0>(rd),
                             tile::expand_dims<1>(rows < seq));
    auto m = tile::full<BM>(-INFINITY);
    for (int n0 = 0; n0 < seq; n0 += BN) {
      auto cols = n0 + tile::arange<BN>();
      auto kt = tile::load(k + offset + tile::expand_dims<1>(rd) +
                               tile::expand_dims<0>(cols) * D,
                           tile::expand_dims<0>(cols < seq));
      auto s = tile::where(tile::expand_dims<0>(cols < seq),
                           tile::dot(q_tile, kt), -INFINITY);
      m = tile::maximum(m, tile::max<1>(s));
    }
    tile::store(out + head * seq + rows, m, rows < seq);
    if (KEEP)
      tile::store(q_sums + head * seq + rows,
                  tile::sum<1>(tile::cast<float>(q_tile)), rows < seq);
  }
}

TILE_CONFIGS(row_scores,
             tile::config{.meta = {128, 128, 64, 0},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {128, 128, 64, 1},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {128, 128, 128, 0},
                          .num_warps = 8,
                          .num_stages = 6,
                          .warp_specialize = true});
template <int BM, int BN, int D, int KEEP>
TILE_GRID(row_scores)
tile::grid row_scores_grid(const tile::half *, const tile::half *, float *,
                           float *, int seq, int heads) {
  return {std::min(tile::cdiv(seq, BM) * heads, tile::num_sms())};
}

// clang-format off
// CHECK-LABEL: // row_scores_c0_aligned16_tma:
// CHECK-SAME: warp-specialized: warps 8-11 issue the copies of the loop at line 42 (setmaxnreg {{[0-9]+}} / {{[0-9]+}}), and the dots' A operand loaded at line 38 (two buffers, taken in turn).
// CHECK: const __grid_constant__ CUtensorMap q_tile_map) {
// The buffer and its barriers follow the ring.
// CHECK: rt::mbarrier *const empty = full + 2;
// CHECK-NEXT: using q_tile_stage = rt::smem_tile<rt::f16, 128, 64>;
// CHECK-NEXT: rt::f16 *const q_tile_buf = rt::dynamic_smem<rt::f16>([[BUF:[0-9]+]]);
// CHECK-NEXT: rt::mbarrier *const q_tile_full = rt::dynamic_smem<rt::mbarrier>(
// CHECK-NEXT: rt::mbarrier *const q_tile_empty = q_tile_full + 2;
// CHECK: rt::mbarrier_init(q_tile_full, 1);
// CHECK-NEXT: rt::mbarrier_init(q_tile_empty, 8);
// CHECK-NEXT: rt::mbarrier_init(q_tile_full + 1, 1);
// CHECK-NEXT: rt::mbarrier_init(q_tile_empty + 1, 8);
// CHECK-NEXT: rt::fence_mbarrier_init();
// The producer: in the loop over tiles, Q's box once its buffer is free,
// then the keys.
// CHECK: int q_tile_fill_slot = 0;
// CHECK-NEXT: unsigned q_tile_fill_phase = 0;
// CHECK: for (int t = t{{[0-9]+}}; t < t{{[0-9]+}}; t += t{{[0-9]+}}) {
// CHECK: rt::mbarrier_wait(q_tile_empty + q_tile_fill_slot,
// CHECK-NEXT: q_tile_fill_phase ^ 1);
// CHECK-NEXT: rt::mbarrier_arrive_expect_tx(q_tile_full + q_tile_fill_slot, 16384);
// CHECK-NEXT: rt::tma_load_tile(
// CHECK-NEXT: q_tile_stage{q_tile_buf + q_tile_fill_slot * q_tile_stage::elems},
// CHECK-NEXT: &q_tile_map, q_tile_full + q_tile_fill_slot, 0, t{{[0-9]+}}, head);
// CHECK-NEXT: q_tile_fill_slot ^= 1;
// CHECK-NEXT: q_tile_fill_phase ^= q_tile_fill_slot == 0;
// CHECK: for (int n0 = 0; n0 < seq; n0 += 128) {
// CHECK: &kt_map, full + fill_stage, 0, n0, head);
// CHECK: return;
// The consumers: no load or conversion of Q, a wait where it was.
// CHECK: rt::setmaxnreg_inc<
// CHECK-NEXT: int q_tile_slot = 0;
// CHECK-NEXT: unsigned q_tile_phase = 0;
// CHECK-NOT: q_tile[
// CHECK-NOT: _smem[
// CHECK: rt::mbarrier_wait(q_tile_full + q_tile_slot, q_tile_phase);
// CHECK-NOT: q_tile_phase ^=
// CHECK: rt::mma_tiles<{{L[0-9]+}}, rt::f16>(
// CHECK-NEXT: rt::operand<true>(
// CHECK-NEXT: q_tile_stage{q_tile_buf + q_tile_slot * q_tile_stage::elems}),
// CHECK-NEXT: rt::operand<true>(kt_stage{kt_ring + read_stage * kt_stage::elems}),
// Released after the loop, before the store.
// CHECK: phase ^= read_stage == 0;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: if (threadIdx.x % 32 == 0)
// CHECK-NEXT: rt::mbarrier_arrive(q_tile_empty + q_tile_slot);
// CHECK-NEXT: q_tile_slot ^= 1;
// CHECK-NEXT: q_tile_phase ^= q_tile_slot == 0;
// CHECK-NEXT: #line 51
// The launch encodes Q's map: heads of seq x 64 halves.
// CHECK: CUtensorMap q_tile_map;
// CHECK: rt::encode_tensor_map<rt::smem_tile<rt::f16, 128, 64>>(
// CHECK-NEXT: &q_tile_map, q, 64, seq, 64, std::uint64_t(seq) * 64);
// CHECK-LABEL: // row_scores_c0_aligned16:
// CHECK-NOT: q_tile_buf
// CHECK: // row_scores_c1_aligned16_tma:
// KEEP-LABEL: // row_scores_c1_aligned16_tma:
// KEEP-SAME: warp-specialized
// KEEP-NOT: A operand
// KEEP-NOT: q_tile_buf
// KEEP: rt::fragment<
// KEEP-LABEL: // row_scores_c1_aligned16:
// ONE-LABEL: // row_scores_c2_aligned16_tma:
// ONE-SAME: and the dots' A operand loaded at line 38.
// ONE: rt::mbarrier *const q_tile_empty = q_tile_full + 1;
// ONE: rt::mbarrier_init(q_tile_full, 1);
// ONE-NEXT: rt::mbarrier_init(q_tile_empty, 8);
// ONE-NEXT: rt::fence_mbarrier_init();
// ONE: rt::mbarrier_wait(q_tile_empty, q_tile_fill_phase ^ 1);
// ONE-NEXT: rt::mbarrier_arrive_expect_tx(q_tile_full, 32768);
// ONE-NEXT: rt::tma_load_tile(q_tile_stage{q_tile_buf}, &q_tile_map, q_tile_full, 0,
// ONE: q_tile_fill_phase ^= 1;
// ONE: rt::mbarrier_wait(q_tile_full, q_tile_phase);
// ONE: rt::operand<true>(q_tile_stage{q_tile_buf}),
// ONE: rt::mbarrier_arrive(q_tile_empty);
// ONE-NEXT: q_tile_phase ^= 1;
// ONE: row_scores_c2_aligned16_tma<<<grid, 384, 231440, stream>>>(
// clang-format on
