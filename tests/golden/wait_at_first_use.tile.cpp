// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/key_step.cu
// RUN: %FileCheck %s --check-prefix=ROWS < %t/row_max.cu
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/key_step.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/key_step.cu -o %t/key_step90.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/key_step.cu -o %t.80/key_step80.o %}
// clang-format on
//
// wgmma products in a pipelined loop are waited for where an op first
// reads them, not where they are issued (PipelinedLoop::WaitAtFirstUse):
// wgmma groups retire in issue order, so a wait names how many later
// products may stay in flight. In attention's dK/dV step, S^T and dP^T go
// out back to back, exp2 waits for S^T alone (dP^T still computing), dS
// waits for dP^T while P^T dO computes, and both accumulators are waited
// for at the end of the iteration (the next one's barrier then frees the
// stage for the prefetch). A dot that stages its own operand (the fused
// step's dS^T K, DQ = 1) also follows them into the tensor cores: dK and dV
// stay in flight while dS^T is written to shared memory, and that dot's own
// wait retires them. A product read at once (row_max's scores) is the
// blocking rt::mma_tiles, as is every product on sm_80 (mma.sync).
#include <tile/tile.hpp>

template <int BM, int BN, int D, int DQ>
TILE_KERNEL void key_step(const tile::half *q, const tile::half *k,
                          const tile::half *v, const tile::half *d_o,
                          const float *delta, float *dk, float *dv, float *dq,
                          int n) {
  auto cols = tile::program_id(0) * BN + tile::arange<BN>();
  auto rd = tile::arange<D>();
  auto at = tile::expand_dims<1>(cols) * D + tile::expand_dims<0>(rd);
  auto kb = tile::load(k + at);
  auto vb = tile::load(v + at);
  auto dk_acc = tile::zeros<float, BN, D>();
  auto dv_acc = tile::zeros<float, BN, D>();
  for (int m0 = 0; m0 < n; m0 += BM) {
    auto rows = m0 + tile::arange<BM>();
    auto qt = tile::load(q + tile::expand_dims<1>(rd) +
                         tile::expand_dims<0>(rows) * D);
    auto dob = tile::load(d_o + tile::expand_dims<1>(rows) * D +
                          tile::expand_dims<0>(rd));
    auto st = tile::dot(kb, qt);
    auto dpt = tile::dot(vb, tile::trans(dob));
    auto pt = tile::exp2(st);
    dv_acc = tile::dot(tile::cast<tile::half>(pt), dob, dv_acc);
    auto dst = pt * (dpt - tile::expand_dims<0>(tile::load(delta + rows)));
    dk_acc = tile::dot(tile::cast<tile::half>(dst), tile::trans(qt), dk_acc);
    if (DQ)
      tile::atomic_add(dq + tile::expand_dims<1>(rows) * D +
                           tile::expand_dims<0>(rd),
                       tile::dot(tile::trans(tile::cast<tile::half>(dst)), kb));
  }
  tile::store(dk + at, dk_acc);
  tile::store(dv + at, dv_acc);
}
TILE_CONFIGS(
    key_step,
    tile::config{.meta = {64, 64, 64, 0}, .num_warps = 4, .num_stages = 2},
    tile::config{.meta = {64, 64, 64, 1}, .num_warps = 4, .num_stages = 2});
template <int BM, int BN, int D, int DQ>
TILE_GRID(key_step)
tile::grid key_step_grid(const tile::half *, const tile::half *,
                         const tile::half *, const tile::half *, const float *,
                         float *, float *, float *, int n) {
  return {n / BN};
}

template <int BM, int BN, int D>
TILE_KERNEL void row_max(const tile::half *q, const tile::half *k, float *out,
                         int n) {
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto qb =
      tile::load(q + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd));
  auto m = tile::full<BM>(-INFINITY);
  for (int n0 = 0; n0 < n; n0 += BN) {
    auto kt = tile::load(k + tile::expand_dims<1>(rd) +
                         tile::expand_dims<0>(n0 + tile::arange<BN>()) * D);
    m = tile::maximum(m, tile::max<1>(tile::dot(qb, kt)));
  }
  tile::store(out + rows, m);
}
TILE_CONFIGS(row_max, tile::config{.meta = {64, 64, 64},
                                   .num_warps = 4,
                                   .num_stages = 2});
template <int BM, int BN, int D>
TILE_GRID(row_max)
tile::grid
    row_max_grid(const tile::half *, const tile::half *, float *, int n) {
  return {n / BM};
}

// clang-format off
// CHECK-LABEL: key_step_c0_aligned16(
// CHECK: for (int m0 = 0; m0 < n; m0 += 64) {
// CHECK-NOT: rt::mma_tiles
// CHECK: rt::mma_issue<[[L:L[0-9]+]], rt::f16>(
// CHECK: [[ST:st]]);
// CHECK: rt::mma_issue<[[L]], rt::f16>(
// CHECK: [[DPT:dpt]]);
// CHECK-NEXT: #line 44
// CHECK-NEXT: rt::mma_wait<1>([[ST]]);
// CHECK-NEXT: float pt[32];
// CHECK: rt::mma_issue<[[L]], rt::f16>(rt::fragment<[[L]]>(
// CHECK: [[DV:dv_acc_[0-9]+]]);
// CHECK: rt::mma_wait<1>([[DPT]]);
// CHECK-NEXT: float dst[32];
// CHECK: rt::mma_issue<[[L]], rt::f16>(
// CHECK: [[DK:dk_acc_[0-9]+]]);
// CHECK-NEXT: rt::mma_wait<0>([[DV]], [[DK]]);
// CHECK-NOT: rt::mma_wait
// CHECK: }
// CHECK-LABEL: key_step_c0_generic(
// CHECK-LABEL: key_step_c1_aligned16(
// CHECK: for (int m0 = 0; m0 < n; m0 += 64) {
// CHECK: rt::mma_issue<[[L]], rt::f16>(
// CHECK: [[DK1:dk_acc_[0-9]+]]);
// CHECK-NOT: rt::mma_wait
// CHECK: rt::dot_mma_trans_a<
// CHECK-NOT: rt::mma_wait
// CHECK: rt::atomic_add(
// CHECK: rt::mma_wait<0>([[DV1:dv_acc_[0-9]+]], [[DK1]]);
// CHECK-NOT: rt::mma_wait
// CHECK: }
// CHECK-LABEL: key_step_c1_generic(

// ROWS-LABEL: row_max_c0_aligned16(
// ROWS: for (int n0 = 0; n0 < n; n0 += 64) {
// ROWS-NOT: rt::mma_issue
// ROWS: rt::mma_tiles<
// ROWS-NOT: rt::mma_wait
// ROWS: rt::reduce<1,

// SM80-LABEL: key_step_c0_aligned16(
// SM80-NOT: rt::mma_issue
// SM80-NOT: rt::mma_wait
// SM80: rt::mma_tiles<
// SM80-NOT: rt::mma_issue
// SM80-NOT: rt::mma_wait
// SM80-LABEL: key_step_c0_generic(
// clang-format on
