// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/rows.cu
// RUN: %FileCheck %s --check-prefix=MM < %t/mm.cu
// RUN: %tilecc %s -o %t.ir --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s < %t.80/rows.cu
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %FileCheck %s --check-prefix=HIP < %t.hip/rows.hip
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/rows.hip -o %t.hip/rows.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/rows.cu -o %t/rows90.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm.cu -o %t/mm90.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/rows.cu -o %t.80/rows80.o %}
// clang-format on
//
// tile::range(lo, hi, step, num_stages), Triton's tl.range: the loop's own
// stage count. In `rows` (a persistent loop, stepping by a value known
// only at run time) the row's load feeds no dot, so every thread copies
// the elements it holds into its own slots of a stage and reads them back
// itself: no barrier, and the prefetch checks that the step is positive.
// Its mask stays in the body (the read-back uses it, with the load's
// other value); the pointers are computed only by the prefetch. In `mm`,
// whose helper's loop takes its hint from a template argument, the hint
// overrides the configuration's num_stages (3) for one loop, turns
// pipelining off (1) for another and, written as 0, asks for the
// configuration's own for a third. HIP has no cp.async: the loads stay
// plain.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void rows(const float *x, float *y, int n_rows, int n_cols) {
  auto cols = tile::arange<BLOCK>();
  auto mask = cols < n_cols;
  for (int row :
       tile::range(tile::program_id(0), n_rows, tile::num_programs(0), 3)) {
    auto v = tile::load(x + row * n_cols + cols, mask, -INFINITY);
    tile::store(y + row * n_cols + cols, v - tile::max(v), mask);
  }
}
TILE_CONFIGS(rows, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(rows)
tile::grid rows_grid(const float *, float *, int n_rows, int) {
  return {n_rows < 264 ? n_rows : 264};
}

// clang-format off
// IR: for {num_stages = 3} {{.*}} -> iv {{.*}}.row
// CHECK-LABEL: rows_c0_aligned16(
// CHECK: { // pipeline: v (by its own threads) in 3 shared-memory stages, prefetched 2 iterations ahead
// CHECK-NEXT: using v_stage = rt::thread_stage<float, 8, 128>;
// CHECK: const bool live = [[STEP:t[0-9]+]] > 0 && row < n_rows;
// CHECK: rt::cp_async_v<4>(v_dst.template at<4>(e), {{.*}},
// CHECK-NEXT: live && mask[e]);
// CHECK: for (int row = {{.*}}; row < n_rows; row += [[STEP]]) {
// CHECK-NEXT: rt::cp_async_wait<1>();
// CHECK-NEXT: const int row_ahead = row + 2 * [[STEP]];
// CHECK-NOT: __syncthreads
// CHECK: rt::cp_async_commit();
// CHECK-NOT: ld_global
// CHECK: const auto v_src = v_stage{v_ring + read_stage * v_stage::elems};
// CHECK: rt::ld_shared_v4(&v[e], v_src.template at<4>(e), mask[e], -INFINITY);
// CHECK: rt::st_global_v4(
// CHECK: rt::cp_async_wait<0>();
// CHECK-NEXT: __syncthreads();
// HIP-NOT: cp_async
// HIP: for (int row = {{.*}}; row < n_rows; row += {{t[0-9]+}}) {
// HIP: rt::ld_global_v4(&v[e],
// clang-format on

// One loop of mm, pipelined as its range's STAGES ask.
template <int STAGES, int BM, int BN, int BK>
tile::tensor<float, BM, BN> product(const tile::half *a, const tile::half *b,
                                    int k) {
  auto rm = tile::arange<BM>();
  auto rn = tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 : tile::range(0, k, BK, STAGES))
    acc = tile::dot(tile::load(a + tile::expand_dims<1>(rm) * k +
                               tile::expand_dims<0>(k0 + rk)),
                    tile::load(b + tile::expand_dims<1>(k0 + rk) * BN +
                               tile::expand_dims<0>(rn)),
                    acc);
  return acc;
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm(const tile::half *a, const tile::half *b, float *c,
                    float *d, float *e, int k) {
  auto out = tile::expand_dims<1>(tile::arange<BM>()) * BN +
             tile::expand_dims<0>(tile::arange<BN>());
  tile::store(c + out, product<4, BM, BN, BK>(a, b, k));
  tile::store(d + out, product<1, BM, BN, BK>(a, b, k));
  tile::store(e + out, product<0, BM, BN, BK>(a, b, k));
}
TILE_CONFIGS(mm, tile::config{
                     .meta = {64, 64, 32}, .num_warps = 4, .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(mm)
tile::grid mm_grid(const tile::half *, const tile::half *, float *, float *,
                   float *, int) {
  return {1};
}

// clang-format off
// IR: %{{[0-9]+}}.acc = for %{{.*}} -> iv %{{[0-9]+}}.k0 iter
// MM-LABEL: mm_c0_aligned16(
// MM: pipeline: {{.*}} in 4 shared-memory stages, prefetched 3 iterations ahead
// MM: rt::cp_async_wait<2>();
// MM-NEXT: rt::fence_proxy_async();
// MM-NEXT: __syncthreads();
// MM-NOT: pipeline:
// MM: rt::dot_mma<
// MM: pipeline: {{.*}} in 3 shared-memory stages, prefetched 2 iterations ahead
// MM-LABEL: mm_c0_generic(
// clang-format on
