// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/key_step.cu
// RUN: %FileCheck %s --check-prefix=ROOM < %t/crowded.cu
// RUN: %FileCheck %s --check-prefix=WS < %t/key_step_ws.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/key_step.cu -o %t/key_step.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/key_step_ws.cu -o %t/key_step_ws.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/crowded.cu -o %t/crowded.o %}
// RUN: rm -rf %t.80 && %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s < %t.80/key_step.cu
// RUN: %FileCheck %s --check-prefix=CROWDED < %t.80/crowded.cu
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/key_step.cu -o %t.80/key_step.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/crowded.cu -o %t.80/crowded.o %}
// clang-format on
//
// A pipelined loop's tensor-core dots that it does not stage (their
// operands are registers: P, computed in the loop, against K and W,
// loaded before it) would write their B operand to the scratch buffer at
// every call. A loop-invariant B is written to shared memory once
// instead, after the stage ring (rt::stage_b, then a fence and a barrier
// before the loop), and the dots read it there: `dot(p, w)` with P's
// fragments in registers then writes nothing and waits for no other
// thread (its scratch argument is nullptr); `dot(trans(p), k)` writes
// only P, so the scratch holds A alone (8 KB, not 16).
//
// Where W beside the ring and the kernel's other buffers would pass what
// the target allows (crowded: six 16 KB stages and a 64 KB transpose on
// sm_80, 163 KB), the dot stages W at each call again, as without a
// pipeline; sm_90a has room.
//
// With a producer warpgroup (key_step_ws) the dots meet at the consumers'
// named barrier, whose thread count they take, not at __syncthreads, which
// would wait for the producer.
#include <tile/tile.hpp>

/// dK's product for Q's row blocks, and dQ's when DQ.
template <int BN, int BM, int D, int DQ>
void key_loop(const tile::half *k, const tile::half *q, const tile::half *w,
              float *dq, float *dk, int m) {
  auto rn = tile::arange<BN>();
  auto rd = tile::arange<D>();
  auto k_blk =
      tile::load(k + tile::expand_dims<1>(rn) * D + tile::expand_dims<0>(rd));
  auto w_blk = tile::load(w + tile::expand_dims<1>(tile::arange<BM>()) * D +
                          tile::expand_dims<0>(rd));
  auto acc = tile::zeros<float, BN, D>();
  for (int m0 = 0; m0 < m; m0 += BM) {
    auto rows = m0 + tile::arange<BM>();
    auto qt = tile::load(q + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(rows) * D,
                         tile::expand_dims<0>(rows < m));
    auto p = tile::cast<tile::half>(tile::dot(k_blk, qt));
    acc = tile::dot(p, w_blk, acc);
    if (DQ)
      tile::store(dq + tile::expand_dims<1>(rows) * D +
                      tile::expand_dims<0>(rd),
                  tile::dot(tile::trans(p), k_blk));
  }
  tile::store(dk + tile::expand_dims<1>(rn) * D + tile::expand_dims<0>(rd),
              acc);
}

template <int BN, int BM, int D>
TILE_KERNEL void key_step(const tile::half *k, const tile::half *q,
                          const tile::half *w, float *dq, float *dk, int m) {
  key_loop<BN, BM, D, 1>(k, q, w, dq, dk, m);
}
TILE_CONFIGS(key_step, tile::config{.meta = {64, 64, 64}, .num_warps = 4,
                                    .num_stages = 2});

template <int BN, int BM, int D>
TILE_GRID(key_step)
tile::grid key_step_grid(const tile::half *, const tile::half *,
                         const tile::half *, float *, float *, int) {
  return {1};
}

template <int BN, int BM, int D>
TILE_KERNEL void key_step_ws(const tile::half *k, const tile::half *q,
                             const tile::half *w, float *dq, float *dk, int m) {
  key_loop<BN, BM, D, 1>(k, q, w, dq, dk, m);
}
TILE_CONFIGS(key_step_ws, tile::config{.meta = {64, 64, 64}, .num_warps = 4,
                                       .num_stages = 2,
                                       .warp_specialize = true});

template <int BN, int BM, int D>
TILE_GRID(key_step_ws)
tile::grid key_step_ws_grid(const tile::half *, const tile::half *,
                            const tile::half *, float *, float *, int) {
  return {1};
}

template <int BN, int BM, int D, int R, int C>
TILE_KERNEL void crowded(const tile::half *k, const tile::half *q,
                         const tile::half *w, const tile::half *x,
                         tile::half *xt, float *dk, int m) {
  key_loop<BN, BM, D, 0>(k, q, w, dk, dk, m);
  auto rr = tile::arange<R>();
  auto rc = tile::arange<C>();
  tile::store(xt + tile::expand_dims<0>(rr) + tile::expand_dims<1>(rc) * R,
              tile::trans(tile::load(x + tile::expand_dims<1>(rr) * C +
                                     tile::expand_dims<0>(rc))));
}
TILE_CONFIGS(crowded, tile::config{.meta = {64, 64, 128, 128, 256},
                                   .num_warps = 4, .num_stages = 6});

template <int BN, int BM, int D, int R, int C>
TILE_GRID(crowded)
tile::grid crowded_grid(const tile::half *, const tile::half *,
                        const tile::half *, const tile::half *, tile::half *,
                        float *, int) {
  return {1};
}

// clang-format off
// CHECK-LABEL: key_step_c0_aligned16(
// CHECK: alignas(1024) __shared__ unsigned char [[SCRATCH:scratch]][8192];
// CHECK: { // pipeline: qt in 2 shared-memory stages, prefetched 1 iterations ahead
// CHECK: // Loop-invariant B operands, written to shared memory once rather than by each iteration's dot.
// CHECK-NEXT: const auto w_blk_resident =
// CHECK-NEXT: rt::stage_b<[[BL:L[0-9]+]]>(rt::dynamic_smem<rt::f16>(16384), w_blk);
// CHECK-NEXT: const auto k_blk_resident =
// CHECK-NEXT: rt::stage_b<[[BL]]>(rt::dynamic_smem<rt::f16>(24576), k_blk);
// CHECK-NEXT: rt::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: for (int m0 = 0; m0 < m; m0 += 64) {
// CHECK: rt::dot_mma<[[PL:L[0-9]+]], [[BL]], [[PL]]>(p, w_blk_resident, acc_1, acc_2, nullptr);
// CHECK: rt::dot_mma_trans_a<[[PL]], [[BL]], [[PL]]>(p, k_blk_resident, {{t[0-9]+}}, {{t[0-9]+}}, [[SCRATCH]]);
// CHECK-LABEL: key_step_c0_generic(

// WS: // key_step_ws_c0_aligned16_tma: {{.*}}; warp-specialized: warps 4-7 issue the copies of the loop at line 46 (setmaxnreg 40 / 216).
// WS-LABEL: key_step_ws_c0_aligned16_tma(
// WS: rt::setmaxnreg_inc<216>();
// WS-NOT: __syncthreads
// WS: const auto k_blk_resident =
// WS: rt::sync_threads<128>();
// WS-NEXT: for (int m0 = 0; m0 < m; m0 += 64) {
// WS-NOT: __syncthreads
// WS: rt::dot_mma<[[PL:L[0-9]+]], [[BL:L[0-9]+]], [[PL]], rt::a_anywhere, 128>(p, w_blk_resident, acc,
// WS-NOT: __syncthreads
// WS: rt::dot_mma_trans_a<[[PL]], [[BL]], [[PL]], 128>(p, k_blk_resident, {{t[0-9]+}}, {{t[0-9]+}},
// WS-NOT: __syncthreads
// WS-LABEL: key_step_ws_c0_aligned16(

// ROOM-LABEL: crowded_c0_aligned16(
// ROOM: rt::stage_b<{{L[0-9]+}}>(rt::dynamic_smem<rt::f16>(98304), w_blk);
// ROOM: rt::dot_mma<{{L[0-9]+}}, {{L[0-9]+}}, {{L[0-9]+}}>(p, w_blk_resident, acc_1, acc_2, nullptr);

// CROWDED-LABEL: crowded_c0_aligned16(
// CROWDED: unsigned char *const [[SCRATCH:scratch]] = rt::dynamic_smem<unsigned char>(98304);
// CROWDED: { // pipeline: qt in 6 shared-memory stages, prefetched 5 iterations ahead
// CROWDED-NOT: stage_b
// CROWDED: rt::dot_mma<{{L[0-9]+}}, {{L[0-9]+}}, {{L[0-9]+}}>(p, w_blk, acc_1, acc_2, [[SCRATCH]]);
// CROWDED-NOT: stage_b
// CROWDED-LABEL: crowded_c0_generic(
