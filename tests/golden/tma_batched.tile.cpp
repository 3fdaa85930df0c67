// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s --check-prefix=HEADS < %t/head_scores_max.cu
// RUN: %FileCheck %s --check-prefix=BMM < %t/bmm.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/head_scores_max.cu -o %t/heads90a.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/bmm.cu -o %t/bmm90a.o %}
// clang-format on
//
// A tensor that is one of a stack of 2-D tensors, found at
//   base + batch * (rows * row stride)
// with rows the bound of the masked outer axis, is a 3-D tensor map: its
// boxes are TMA copies whose third coordinate is the batch, and a box past
// the last row reads zeros instead of the next tensor's first rows. An axis
// the mask leaves out (attention's head_dim) is read exactly: the tensor
// ends with the box. Attention's keys per head, and a batched matmul whose
// A, B and C are all stacks.
#include <cmath>
#include <tile/tile.hpp>

template <int BM, int BN, int D>
TILE_KERNEL void head_scores_max(const tile::half *q, const tile::half *k,
                                 float *out, int seq) {
  const int head = tile::program_id(1);
  const long offset = static_cast<long>(head) * seq * D;
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
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
  tile::store(out + static_cast<long>(head) * seq + rows, m, rows < seq);
}
TILE_CONFIGS(head_scores_max, tile::config{.meta = {64, 64, 64},
                                           .num_warps = 4,
                                           .num_stages = 3});
template <int BM, int BN, int D>
TILE_GRID(head_scores_max)
tile::grid head_scores_max_grid(const tile::half *, const tile::half *, float *,
                                int seq) {
  return {tile::cdiv(seq, BM), 8};
}

template <int BM, int BN, int BK>
TILE_KERNEL void bmm(const tile::half *a, const tile::half *b, float *c, int m,
                     int n, int k) {
  const long h = tile::program_id(2);
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  const tile::half *a_h = a + h * m * k;
  const tile::half *b_h = b + h * k * n;
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(
        a_h + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b_h + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  tile::store(
      c + h * m * n + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn),
      acc, tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
}
TILE_CONFIGS(bmm, tile::config{
                      .meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(bmm)
tile::grid bmm_grid(const tile::half *, const tile::half *, float *, int m,
                    int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN), 4};
}

// clang-format off
// HEADS-LABEL: head_scores_max_c0_aligned16_tma(
// HEADS: const __grid_constant__ CUtensorMap kt_map) {
// HEADS: const int head = static_cast<int>(blockIdx.y);
// HEADS: using kt_stage = rt::smem_tile<rt::f16, 64, 64>;
// HEADS-NOT: cp_async
// HEADS: rt::mbarrier_arrive_expect_tx(full + stage, 8192);
// HEADS-NEXT: rt::tma_load_tile(kt_stage{kt_ring + stage * kt_stage::elems},
// HEADS-NEXT: &kt_map, full + stage, 0, n0, head);
// HEADS: for (int n0 = 0; n0 < seq; n0 += 64) {
// HEADS-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// HEADS-NEXT: __syncthreads();
// HEADS: if (n0 < seq && threadIdx.x == 0) {
// HEADS-NEXT: rt::mbarrier_arrive_expect_tx(full + (read_stage + 2) % 3, 8192);
// HEADS: &kt_map, full + (read_stage + 2) % 3, 0, n0, head);
// HEADS-LABEL: launch_head_scores_max_c0_aligned16_tma(
// HEADS: rt::encode_tensor_map<rt::smem_tile<rt::f16, 64, 64>>(
// HEADS-NEXT: &kt_map, k, 64, seq, 64, std::uint64_t(seq) * 64);

// BMM-LABEL: bmm_c0_aligned16_tma(
// BMM: const __grid_constant__ CUtensorMap x_map,
// BMM-NEXT: const __grid_constant__ CUtensorMap y_map,
// BMM-NEXT: const __grid_constant__ CUtensorMap acc_map) {
// BMM: const int [[H:t[0-9]+]] = static_cast<int>(blockIdx.z);
// BMM-NOT: cp_async
// BMM: rt::tma_load_tile(x_stage{x_ring + stage * x_stage::elems}, &x_map,
// BMM-NEXT: full + stage, k0, [[ROW:t[0-9]+]], [[H]]);
// BMM-NEXT: rt::tma_load_tile(y_stage{y_ring + stage * y_stage::elems}, &y_map,
// BMM-NEXT: full + stage, [[COL:t[0-9]+]], k0, [[H]]);
// BMM: rt::mma_tiles<
// BMM-NOT: __syncthreads();
// BMM: const int k0_ahead = k0 + 2 * 64;
// BMM: rt::tma_store_tile(&acc_map, acc_out, [[COL]], [[ROW]], [[H]]);
// BMM-LABEL: launch_bmm_c0_aligned16_tma(
// BMM: &x_map, a, k, m, k, std::uint64_t(m) * k);
// BMM: &y_map, b, n, k, n, std::uint64_t(k) * n);
// BMM: &acc_map, c, n, m, n, std::uint64_t(m) * n);
// clang-format on
