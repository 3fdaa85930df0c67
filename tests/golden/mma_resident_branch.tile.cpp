// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/two_dots.cu
// RUN: %FileCheck %s --check-prefix=PLAIN < %t/two_dots_plain.cu
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/two_dots.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/two_dots.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/two_dots.cu -o %t.80/sm80.o %}
// clang-format on
//
// Attention's key loop, with an `if` choosing the second dot's
// accumulator. Q K^T reads q, loaded before the loop; P V reads p, computed
// in it, both as mma fragments. Where the loop branches, ptxas 13.0 gave
// the wgmma of P V the registers of q's fragments, which the next iteration
// read as q: on sm_90a, q is written to shared memory once before such a
// loop, whatever registers are left (pipelined), or each dot stages it
// (not). The `if`'s result takes the layout
// its branches' values have, the accumulator's, so the loop converts none.
// Without the branch (two_dots_plain), and on sm_80 (mma.sync), q stays in
// registers.
#include <tile/tile.hpp>

template <int BM, int BN, int D, int BRANCH>
void attend(const tile::half *q, const tile::half *k, const tile::half *v,
            float *out, int n, int keep) {
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto qt =
      tile::load(q + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd));
  auto acc = tile::zeros<float, BM, D>();
  for (int n0 = 0; n0 < n; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    auto kt = tile::load(k + tile::expand_dims<1>(rd) +
                         tile::expand_dims<0>(cols) * D);
    auto s = tile::dot(qt, kt);
    auto p = tile::cast<tile::half>(
        tile::exp2(s - tile::expand_dims<1>(tile::max<1>(s))));
    auto vb = tile::load(v + tile::expand_dims<1>(cols) * D +
                         tile::expand_dims<0>(rd));
    auto scaled = acc * 0.5f;
    if (BRANCH && keep > 0)
      scaled = acc;
    acc = tile::dot(p, vb, scaled);
  }
  tile::store(out + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd),
              acc);
}

template <int BM, int BN, int D>
TILE_KERNEL void two_dots(const tile::half *q, const tile::half *k,
                          const tile::half *v, float *out, int n, int keep) {
  attend<BM, BN, D, 1>(q, k, v, out, n, keep);
}
template <int BM, int BN, int D>
TILE_KERNEL void two_dots_plain(const tile::half *q, const tile::half *k,
                                const tile::half *v, float *out, int n,
                                int keep) {
  attend<BM, BN, D, 0>(q, k, v, out, n, keep);
}
TILE_CONFIGS(two_dots,
             tile::config{
                 .meta = {128, 64, 64}, .num_warps = 8, .num_stages = 2},
             tile::config{.meta = {128, 64, 64}, .num_warps = 8});
TILE_CONFIGS(two_dots_plain,
             tile::config{
                 .meta = {128, 64, 64}, .num_warps = 8, .num_stages = 2},
             tile::config{.meta = {128, 64, 64}, .num_warps = 8});

template <int BM, int BN, int D>
TILE_GRID(two_dots)
tile::grid two_dots_grid(const tile::half *, const tile::half *,
                         const tile::half *, float *, int, int) {
  return {1};
}
template <int BM, int BN, int D>
TILE_GRID(two_dots_plain)
tile::grid two_dots_plain_grid(const tile::half *, const tile::half *,
                               const tile::half *, float *, int, int) {
  return {1};
}

// clang-format off
// CHECK-LABEL: two_dots_c0_aligned16(
// CHECK: // Loop-invariant A operands, read from shared memory: in registers, ptxas may give the loop's own A fragments their registers where the loop branches.
// CHECK-NEXT: const auto [[Q:t[0-9]+]]_resident = rt::stage_operand<
// The if's result is in the accumulator's layout, as its branches' values
// are: nothing in the loop goes through shared memory.
// CHECK: for (int n0 = 0; n0 < n; n0 += 64) {
// CHECK-NOT: convert_scratch
// CHECK: rt::mma_tiles<[[S:L[0-9]+]], rt::f16>(
// CHECK-NEXT: [[Q]]_resident,
// CHECK-NOT: convert_scratch
// CHECK: if (
// CHECK-NOT: convert_scratch
// CHECK: rt::mma_tiles<[[S]], rt::f16>(
// CHECK-NEXT: rt::fragment<[[S]]>(

// Not pipelined (configuration 1): the dots stage their operands as they
// go, and wgmma reads q from shared memory there too (sm_90a; mma.sync
// from registers).
// CHECK-LABEL: two_dots_c1_aligned16(
// CHECK: for (int n0 = 0; n0 < n; n0 += 64) {
// CHECK: rt::dot_mma<[[QL:L[0-9]+]], {{L[0-9]+}}, [[QL]], rt::a_across_branching_loop>(
// CHECK: if (
// CHECK: rt::dot_mma<[[QL]], {{L[0-9]+}}, [[QL]]>(p,

// PLAIN-LABEL: two_dots_plain_c0_aligned16(
// PLAIN-NOT: {{t[0-9]+}}_resident
// PLAIN: rt::mma_tiles<[[S:L[0-9]+]], rt::f16>(
// PLAIN-NEXT: rt::fragment<[[S]]>(
// PLAIN-NOT: {{t[0-9]+}}_resident
// PLAIN-LABEL: two_dots_plain_c0_generic(
// PLAIN-LABEL: two_dots_plain_c1_aligned16(
// PLAIN-NOT: rt::a_across_branching_loop
// PLAIN-LABEL: two_dots_plain_c1_generic(

// SM80-LABEL: two_dots_c0_aligned16(
// SM80-NOT: {{t[0-9]+}}_resident
// SM80: rt::mma_tiles<[[S:L[0-9]+]], rt::f16>(
// SM80-NEXT: rt::fragment<[[S]]>(
// SM80-NOT: {{t[0-9]+}}_resident
// SM80-LABEL: two_dots_c0_generic(
// clang-format on
