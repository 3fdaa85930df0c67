// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/split_k_last.cu
// RUN: %FileCheck %s --check-prefix=FLAGS < %t/split_k_flags.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/split_k_last.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/split_k_last.cu -o %t/sm80.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/split_k_flags.cu -o %t/flags.o %}
// clang-format on
//
// A release publishes a program's earlier writes, but its fence does not
// order TMA stores and adds, which another proxy carries out after they
// are issued: before a releasing atomic, thread 0 (which issued them)
// waits until they have completed, and for a tile of atomics, which every
// thread runs, the others wait for it at a barrier. Split-K whose last
// program to arrive rounds the sum: without the wait it could read the
// sum before another program's TMA add had reached it.
#include <tile/tile.hpp>

/// A B over k0 in [lo, hi) for one BM x BN block, BK at a time.
template <int BM, int BN, int BK>
tile::tensor<float, BM, BN> partial_product(
    const tile::half *a, const tile::half *b, const tile::tensor<int, BM> &rm,
    const tile::tensor<int, BN> &rn, int m, int n, int k, int lo, int hi) {
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = lo; k0 < hi; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  return acc;
}

/// Partial products of K's splits added up in fp32 (TMA adds on sm_90a);
/// the last program of a block rounds the block to fp16.
template <int BM, int BN, int BK>
TILE_KERNEL void split_k_last(const tile::half *a, const tile::half *b,
                              float *sum, tile::half *c, int *arrivals, int m,
                              int n, int k, int splits) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  const int chunk = k / splits, split = tile::program_id(2);
  auto acc = partial_product<BM, BN, BK>(a, b, rm, rn, m, n, k, split * chunk,
                                         (split + 1) * chunk);
  auto at = tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn);
  auto in = tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n);
  tile::atomic_add(sum + at, acc, in, tile::mem_order::relaxed);
  int *block_arrivals = arrivals + tile::program_id(0) * tile::num_programs(1) +
                        tile::program_id(1);
  if (tile::atomic_add(block_arrivals, 1) == splits - 1)
    tile::store(c + at, tile::cast<tile::half>(tile::load(sum + at, in)), in);
}

/// The whole sum added in, then a flag per row of the block, set with
/// release.
template <int BM, int BN, int BK>
TILE_KERNEL void split_k_flags(const tile::half *a, const tile::half *b,
                               float *sum, int *flags, int m, int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto acc = partial_product<BM, BN, BK>(a, b, rm, rn, m, n, k, 0, k);
  auto at = tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn);
  auto in = tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n);
  tile::atomic_add(sum + at, acc, in, tile::mem_order::relaxed);
  tile::atomic_xchg(flags + rm, 1, rm < m, tile::mem_order::release);
}

#define SPLIT_K_CONFIG                                                         \
  tile::config { .meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3 }
TILE_CONFIGS(split_k_last, SPLIT_K_CONFIG);
TILE_CONFIGS(split_k_flags, SPLIT_K_CONFIG);

template <int BM, int BN, int BK>
TILE_GRID(split_k_last)
tile::grid
    split_k_last_grid(const tile::half *, const tile::half *, float *,
                      tile::half *, int *, int m, int n, int, int splits) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN), splits};
}
template <int BM, int BN, int BK>
TILE_GRID(split_k_flags)
tile::grid split_k_flags_grid(const tile::half *, const tile::half *, float *,
                              int *, int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// clang-format off
// The TMA variant: the add is a TMA reduce-add, and the arrival's release
// waits for it in the thread that issued it.
// CHECK-LABEL: split_k_last_c0_aligned16_tma(
// CHECK: rt::tma_store_tile<rt::tma_write::add>(
// CHECK-NEXT: rt::tma_store_commit();
// CHECK: rt::in_one_thread([&] {
// CHECK-NEXT: rt::tma_store_wait<false>();
// CHECK-NEXT: return rt::fenced<3, 0>(
// CHECK-NEXT: [&] { return rt::atomic_add(block_arrivals, 1, true); });
// Without TMA the atomics are the threads' own: nothing to wait for.
// CHECK-LABEL: split_k_last_c0_aligned16(
// CHECK-NOT: tma_store_wait
// CHECK: rt::in_one_thread([&] {
// CHECK-NEXT: return rt::fenced<3, 0>(
//
// A tile of releasing atomics: every thread waits at a barrier for thread
// 0's wait before its fence.
// FLAGS-LABEL: split_k_flags_c0_aligned16_tma(
// FLAGS: rt::tma_store_commit();
// FLAGS: if (threadIdx.x == 0)
// FLAGS-NEXT: rt::tma_store_wait<false>();
// FLAGS-NEXT: __syncthreads();
// FLAGS-NEXT: rt::atomic_fence_before<2, 0>();
// FLAGS-LABEL: split_k_flags_c0_aligned16(
// FLAGS-NOT: tma_store_wait
// FLAGS: rt::atomic_fence_before<2, 0>();
