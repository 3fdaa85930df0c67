// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/two_dots.cu
// RUN: %FileCheck %s --check-prefix=WHERE < %t/two_dots_where.cu
// RUN: %FileCheck %s --check-prefix=KEEP < %t/two_dots_masked.cu
// RUN: %FileCheck %s --check-prefix=KEEP < %t/two_dots_plain.cu
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=SM80 < %t.80/two_dots.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/two_dots.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/two_dots.cu -o %t.80/sm80.o %}
// clang-format on
//
// Attention's key loop, with an `if` choosing the second dot's
// accumulator. Q K^T reads q, loaded before the loop; P V reads p, computed
// in it, both as mma fragments. ptxas 13.0 gave the wgmma of P V the
// registers of q's fragments, which the next iteration read as q, when
// the loop chose by a condition the same for all elements (an `if`, or a
// `where` on it): on sm_90a, q is then written to shared memory once
// before a pipelined loop, whatever registers are left, and each dot of a
// loop without a pipeline stages it. A `where` on a per-element mask (as
// attention's) and a loop without a choice keep q in registers, and so
// does sm_80 (mma.sync). The `if`'s result takes the layout its branches'
// values have, the accumulator's, so the loop converts nothing.
#include <tile/tile.hpp>

// How the loop picks P V's accumulator.
constexpr int by_if = 0, by_where = 1, by_mask = 2, always = 3;

template <int BM, int BN, int D, int CHOICE>
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
    if (CHOICE == by_if) {
      if (keep > 0)
        scaled = acc;
    } else if (CHOICE == by_where) {
      scaled = tile::where(tile::full<BM, D>(keep) > 0, acc, scaled);
    } else if (CHOICE == by_mask) {
      scaled = tile::where(tile::expand_dims<1>(rows) < keep, acc, scaled);
    }
    acc = tile::dot(p, vb, scaled);
  }
  tile::store(out + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd),
              acc);
}

#define TWO_DOTS(kernel, CHOICE)                                               \
  template <int BM, int BN, int D>                                             \
  TILE_KERNEL void kernel(const tile::half *q, const tile::half *k,            \
                          const tile::half *v, float *out, int n, int keep) {  \
    attend<BM, BN, D, CHOICE>(q, k, v, out, n, keep);                          \
  }                                                                            \
  template <int BM, int BN, int D>                                             \
  TILE_GRID(kernel)                                                            \
  tile::grid kernel##_grid(const tile::half *, const tile::half *,             \
                           const tile::half *, float *, int, int) {            \
    return {1};                                                                \
  }
TWO_DOTS(two_dots, by_if)
TWO_DOTS(two_dots_where, by_where)
TWO_DOTS(two_dots_masked, by_mask)
TWO_DOTS(two_dots_plain, always)
TILE_CONFIGS(two_dots,
             tile::config{
                 .meta = {128, 64, 64}, .num_warps = 8, .num_stages = 2},
             tile::config{.meta = {128, 64, 64}, .num_warps = 8});
#define ONE_CONFIG(kernel)                                                     \
  TILE_CONFIGS(                                                                \
      kernel,                                                                  \
      tile::config{.meta = {128, 64, 64}, .num_warps = 8, .num_stages = 2})
ONE_CONFIG(two_dots_where);
ONE_CONFIG(two_dots_masked);
ONE_CONFIG(two_dots_plain);

// clang-format off
// CHECK-LABEL: two_dots_c0_aligned16(
// CHECK: // Loop-invariant A operands, read from shared memory: in registers, ptxas may give another wgmma's A fragments their registers where the loop chooses.
// CHECK-NEXT: const auto [[Q:t[0-9]+]]_resident = rt::stage_operand<
// CHECK: for (int n0 = 0; n0 < n; n0 += 64) {
// CHECK-NOT: >(scratch);
// CHECK: rt::mma_tiles<[[S:L[0-9]+]], rt::f16>(
// CHECK-NEXT: [[Q]]_resident,
// CHECK-NOT: >(scratch);
// CHECK: if (
// CHECK-NOT: >(scratch);
// CHECK: rt::mma_tiles<[[S]], rt::f16>(
// CHECK-NEXT: rt::fragment<[[S]]>(

// Not pipelined (configuration 1): each dot stages its operands, and its
// q too where it issues wgmma.
// CHECK-LABEL: two_dots_c1_aligned16(
// CHECK: for (int n0 = 0; n0 < n; n0 += 64) {
// CHECK: rt::dot_mma<[[QL:L[0-9]+]], {{L[0-9]+}}, [[QL]], rt::a_loop_invariant>(
// CHECK: if (
// CHECK: rt::dot_mma<[[QL]], {{L[0-9]+}}, [[QL]]>(p,

// WHERE-LABEL: two_dots_where_c0_aligned16(
// WHERE: const auto [[Q:t[0-9]+]]_resident = rt::stage_operand<
// WHERE: rt::mma_tiles<{{L[0-9]+}}, rt::f16>(
// WHERE-NEXT: [[Q]]_resident,

// KEEP-LABEL: _c0_aligned16(
// KEEP-NOT: {{t[0-9]+}}_resident
// KEEP: rt::mma_tiles<[[S:L[0-9]+]], rt::f16>(
// KEEP-NEXT: rt::fragment<[[S]]>(
// KEEP-NOT: {{t[0-9]+}}_resident
// KEEP-LABEL: _c0_generic(

// SM80-LABEL: two_dots_c0_aligned16(
// SM80-NOT: {{t[0-9]+}}_resident
// SM80: rt::mma_tiles<[[S:L[0-9]+]], rt::f16>(
// SM80-NEXT: rt::fragment<[[S]]>(
// SM80-NOT: {{t[0-9]+}}_resident
// SM80-LABEL: two_dots_c0_generic(
// SM80-LABEL: two_dots_c1_aligned16(
// SM80: rt::dot_mma<{{L[0-9]+}}, {{L[0-9]+}}, {{L[0-9]+}}, rt::a_loop_invariant>(
// clang-format on
