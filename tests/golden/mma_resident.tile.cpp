// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/key_grads.cu
// RUN: %FileCheck %s --check-prefix=SMALL < %t/key_grads.cu
// RUN: %FileCheck %s --check-prefix=SHARED < %t/key_grads.cu
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/key_grads.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/key_grads.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/key_grads.cu -o %t.80/sm80.o %}
// clang-format on
//
// Attention's dK/dV loop: two accumulators carried, and the A operands of
// two dots (K and V) loaded before the loop. At head_dim 128 on 4 warps the
// accumulators take 128 registers a thread and K and V as mma fragments 64
// more: over the 160 a pipelined loop may give them of the 248 one program
// leaves a thread (88 stay for the iteration's tiles), so K and V are
// written to shared memory once, after the stage ring, and the dots read
// them there (rt::stage_operand, then a fence and a barrier before the
// loop). The dots whose A is computed in the loop (P^T and dS^T) still read
// it from registers. At head_dim 64 (96 registers) K and V stay in
// registers (the second configuration), unless three programs an SM leave
// each thread 168, 80 for them (the third).
#include <tile/tile.hpp>

template <int BM, int BN, int D>
TILE_KERNEL void key_grads(const tile::half *q, const tile::half *k,
                           const tile::half *v, const tile::half *d_o,
                           float *dk, float *dv, int n) {
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
    auto pt = tile::exp2(tile::dot(kb, qt));
    dv_acc = tile::dot(tile::cast<tile::half>(pt), dob, dv_acc);
    auto dst = pt * tile::dot(vb, tile::trans(dob));
    dk_acc = tile::dot(tile::cast<tile::half>(dst), tile::trans(qt), dk_acc);
  }
  tile::store(dk + at, dk_acc);
  tile::store(dv + at, dv_acc);
}
TILE_CONFIGS(key_grads,
             tile::config{.meta = {64, 64, 128}, .num_warps = 4,
                          .num_stages = 2},
             tile::config{.meta = {64, 64, 64}, .num_warps = 4,
                          .num_stages = 2},
             tile::config{.meta = {64, 64, 64}, .num_warps = 4,
                          .num_stages = 2, .min_programs_per_sm = 3});

template <int BM, int BN, int D>
TILE_GRID(key_grads)
tile::grid key_grads_grid(const tile::half *, const tile::half *,
                          const tile::half *, const tile::half *, float *,
                          float *, int n) {
  return {n / BN};
}

// clang-format off
// CHECK-LABEL: key_grads_c0_aligned16(
// K's and V's layout conversions take turns in one buffer (16 KB, not 32).
// CHECK: alignas(16) __shared__ unsigned char [[SCRATCH:scratch]][16384];
// CHECK: rt::f16 *const {{t[0-9]+}}_smem = reinterpret_cast<rt::f16 *>([[SCRATCH]]);
// CHECK: rt::f16 *const {{t[0-9]+}}_smem = reinterpret_cast<rt::f16 *>([[SCRATCH]]);
// CHECK: { // pipeline: qt, dob in 2 shared-memory stages, prefetched 1 iterations ahead
// CHECK: // Loop-invariant A operands, read from shared memory: registers hold the accumulators.
// CHECK-NEXT: const auto [[K:t[0-9]+]]_resident = rt::stage_operand<[[AL:L[0-9]+]], false, true>(
// CHECK-NEXT: rt::smem_tile<rt::f16, 64, 128>{rt::dynamic_smem<rt::f16>(65536)}, [[K]]);
// CHECK-NEXT: const auto [[V:t[0-9]+]]_resident = rt::stage_operand<[[AL]], false, true>(
// CHECK-NEXT: rt::smem_tile<rt::f16, 64, 128>{rt::dynamic_smem<rt::f16>(81920)}, [[V]]);
// CHECK-NEXT: rt::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: for (int m0 = 0; m0 < n; m0 += 64) {
// CHECK: rt::mma_tiles<[[S:L[0-9]+]], rt::f16>(
// CHECK-NEXT: [[K]]_resident,
// CHECK-NEXT: rt::operand<true>(qt_stage{qt_ring + read_stage * qt_stage::elems}),
// CHECK: rt::mma_issue<[[AL]], rt::f16>(rt::fragment<[[S]]>(
// CHECK: rt::mma_issue<[[S]], rt::f16>(
// CHECK-NEXT: [[V]]_resident,
// CHECK: rt::mma_tiles<[[AL]], rt::f16>(
// CHECK-NEXT: rt::fragment<[[S]]>(

// SMALL-LABEL: key_grads_c1_aligned16(
// SMALL-NOT: {{t[0-9]+}}_resident
// SMALL: rt::mma_tiles<[[S:L[0-9]+]], rt::f16>(
// SMALL-NEXT: rt::fragment<[[S]]>(
// SMALL-NOT: {{t[0-9]+}}_resident
// SMALL-LABEL: key_grads_c1_generic(

// SHARED-LABEL: key_grads_c2_aligned16(
// SHARED: const auto [[K:t[0-9]+]]_resident = rt::stage_operand<
// SHARED-NEXT: rt::smem_tile<rt::f16, 64, 64>{
// SHARED: rt::mma_tiles<{{L[0-9]+}}, rt::f16>(
// SHARED-NEXT: [[K]]_resident,
// SHARED-LABEL: key_grads_c2_generic(

// SM80-LABEL: key_grads_c0_aligned16(
// SM80: const auto [[K:t[0-9]+]]_resident = rt::stage_operand<
// SM80: rt::mma_tiles<{{L[0-9]+}}, rt::f16>(
// SM80-NEXT: [[K]]_resident,
// clang-format on
