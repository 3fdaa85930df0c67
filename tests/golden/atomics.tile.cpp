// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/counts.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/counts.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/counts.cu -o %t/sm80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/counts.hip -o %t.hip/k.o %}
// RUN: %FileCheck --check-prefix=SUMS %s < %t/sums.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/sums.cu -o %t/sums90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/sums.cu -o %t/sums80.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/sums.hip -o %t.hip/sums.o %}
// RUN: %FileCheck --check-prefix=SPLIT %s < %t/split_k.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/split_k.cu -o %t/split90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/split_k.cu -o %t/split80.o %}
// RUN: %FileCheck --check-prefix=STEP %s < %t/step_adds.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/step_adds.cu -o %t/step90a.o %}
//
// Atomics: one per element the thread owns (a tile smaller than the
// program's threads is held in copies, and only one copy acts), fenced as
// the memory order asks; on a single pointer, once per program. An atomic
// whose old values nobody reads updates memory from the layout its values
// are in: a dot's accumulator (split-K) or a reduction of it.
#include <tile/tile.hpp>

TILE_KERNEL void counts(const int *x, int *hist, int *lock, long long *big,
                        int n) {
  auto offs = tile::arange<16>();
  auto v = tile::load(x + offs, offs < n, 0);
  auto old = tile::atomic_add(hist + v, 1, offs < n, tile::mem_order::relaxed);
  tile::atomic_max(big + offs, tile::cast<long long>(old), offs < n);
  int seen = tile::atomic_cas(lock, 0, 1, tile::mem_order::acquire);
  tile::debug_barrier();
  tile::atomic_xchg(lock, seen, true, tile::mem_order::release);
}

TILE_CONFIGS(counts, tile::config{.num_warps = 4});
TILE_GRID(counts)
tile::grid counts_grid(const int *, int *, int *, long long *, int) {
  return {1};
}

// Atomics' addresses are not widened by alignment: the aligned variant would
// be the generic one's code, which its launches run.
// CHECK: // counts_c0_generic: {{.*}}; also the kernel of aligned16 launches (the same code).
// CHECK-LABEL: counts_c0_generic(
// CHECK: rt::atomic_fence_before<0, 0>();
// CHECK: old[e] = rt::atomic_add((hist + v[e]), 1, {{.*}} && [[L:L[0-9]+]]::owns(e));
// CHECK: rt::atomic_fence_after<0, 0>();
// CHECK: rt::atomic_fence_before<3, 0>();
// CHECK: rt::atomic_max((big + offs[e]), rt::convert<int64_t>(old[e]),
// Scalar atomics: one thread runs the atomic and its fences.
// CHECK: const int seen = rt::in_one_thread([&] {
// CHECK-NEXT: return rt::fenced<1, 0>([&] { return rt::atomic_cas(lock, 0, 1, true); });
// CHECK: __syncthreads();
// CHECK: rt::in_one_thread([&] {
// CHECK-NEXT: return rt::fenced<2, 0>([&] { return rt::atomic_xchg(lock, seen, true); });

// 16-bit float sums (atomicAdd on CUDA; on gfx90a a compare-and-swap of the
// 32-bit word that holds the element, in rt::atomic_add).
TILE_KERNEL void sums(const int *bins, tile::half *h, tile::bfloat16 *b,
                      int n) {
  auto offs = tile::arange<64>();
  auto bin = tile::load(bins + offs, offs < n, 0);
  tile::atomic_add(h + bin, 1.0f, offs < n, tile::mem_order::relaxed);
  tile::atomic_add(b + bin, 0.5f, offs < n, tile::mem_order::relaxed);
}

TILE_CONFIGS(sums, tile::config{.num_warps = 2});
TILE_GRID(sums)
tile::grid sums_grid(const int *, tile::half *, tile::bfloat16 *, int) {
  return {1};
}

// SUMS-LABEL: sums_c0_generic(
// SUMS: rt::atomic_add((h + bin[e]), rt::f16(1.0f),
// SUMS: rt::atomic_add((b + bin[e]), rt::bf16(0.5f),

// Split-K: the product of a slice of K and its column sums added to memory.
TILE_KERNEL void split_k(const tile::half *a, const tile::half *b, float *c,
                         float *col_sums, int k) {
  auto rm = tile::arange<64>();
  auto rn = tile::arange<64>();
  auto acc = tile::zeros<float, 64, 64>();
  for (int k0 = tile::program_id(0) * 128; k0 < k; k0 += 32) {
    auto kk = k0 + tile::arange<32>();
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * 64 + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k));
    acc = tile::dot(x, y, acc);
  }
  tile::atomic_add(c + tile::expand_dims<1>(rm) * 64 + tile::expand_dims<0>(rn),
                   acc, tile::expand_dims<0>(rn < 64), tile::mem_order::relaxed);
  tile::atomic_add(col_sums + rn, tile::sum<0>(acc), true,
                   tile::mem_order::relaxed);
}

TILE_CONFIGS(split_k, tile::config{.num_warps = 4, .num_stages = 3});
TILE_GRID(split_k)
tile::grid split_k_grid(const tile::half *, const tile::half *, float *,
                        float *, int k) {
  return {tile::cdiv(k, 128)};
}

// Where TMA copies the loop's operands, the product is added to memory as
// one box: written to shared memory, then one TMA reduce-add (relaxed, an
// atomic add per element), waited for before the kernel ends.
// SPLIT-LABEL: split_k_c0_aligned16_tma(
// SPLIT: const rt::smem_tile<float, 64, 64> [[OUT:acc_[0-9_]*out]]{rt::dynamic_smem<float>(
// SPLIT: [[OUT]].template store<{{L[0-9]+}}>(acc
// SPLIT-NEXT: rt::fence_proxy_async();
// SPLIT: rt::tma_store_tile<rt::tma_write::add>(&{{acc_[0-9_]*map}}, [[OUT]],
// SPLIT-NEXT: rt::tma_store_commit();
// SPLIT: rt::atomic_add((col_sums + rn[e]),
// SPLIT: rt::tma_store_wait<false>();
// The map of a tensor TMA adds to says its elements' type (a copy's, only
// their size).
// SPLIT: rt::encode_tensor_map<rt::smem_tile<float, 64, 64>,
// SPLIT-NEXT: rt::tma_write::add>(&{{acc_[0-9_]*map}}, c,
// Elsewhere the loop's accumulator goes to memory and to the reduction as
// it is.
// SPLIT-LABEL: split_k_c0_aligned16(
// SPLIT: rt::mma_wait_all([[ACC:acc_[0-9]+]]);
// SPLIT-NOT: _smem
// SPLIT: rt::atomic_add(
// SPLIT: [[ACC]][e], {{.*}} && [[L:L[0-9]+]]::owns(e));
// SPLIT-NOT: _smem
// SPLIT: rt::reduce<0, [[L]], {{L[0-9]+}}>([[ACC]],
// SPLIT-NOT: _smem
// SPLIT: rt::atomic_add((col_sums + rn[e]),
// SPLIT-NEXT: rt::atomic_fence_after<0, 0>();
// SPLIT-NEXT: #endif
// SPLIT-NEXT: }

// Each step of a pipelined loop adds its product to memory: one TMA
// reduce-add a step, its buffer rewritten once the previous add has read
// it, the last waited for before the kernel ends. The add's barriers come
// after the step's dot, so they free its stage for the next prefetch.
TILE_KERNEL void step_adds(const tile::half *a, const tile::half *b, float *c,
                           int k) {
  auto rm = tile::arange<64>();
  auto rn = tile::arange<64>();
  for (int k0 = 0; k0 < k; k0 += 32) {
    auto kk = k0 + tile::arange<32>();
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * 64 + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k));
    tile::atomic_add(c + tile::expand_dims<1>(rm) * 64 +
                         tile::expand_dims<0>(rn),
                     tile::dot(x, y), tile::expand_dims<0>(rn < 64),
                     tile::mem_order::relaxed);
  }
}

TILE_CONFIGS(step_adds, tile::config{.num_warps = 4, .num_stages = 3});
TILE_GRID(step_adds)
tile::grid step_adds_grid(const tile::half *, const tile::half *, float *,
                          int) {
  return {1};
}

// STEP-LABEL: step_adds_c0_aligned16_tma(
// STEP: for (int k0 = 0; k0 < k; k0 += 32) {
// STEP-NEXT: rt::mbarrier_wait(full + read_stage, phase);
// STEP-NEXT: const int k0_ahead = k0 + 2 * 32;
// STEP: rt::mma_tiles<
// STEP: { // add [[V:t[0-9]+]] through shared memory: one TMA reduce-add
// STEP-NEXT: const rt::smem_tile<float, 64, 64> [[OUT:t[0-9]+_out]]{
// STEP: if (threadIdx.x == 0)
// STEP-NEXT: rt::tma_store_wait<true>();
// STEP-NEXT: __syncthreads();
// STEP-NEXT: [[OUT]].template store<{{L[0-9]+}}>([[V]]);
// STEP-NEXT: rt::fence_proxy_async();
// STEP-NEXT: __syncthreads();
// STEP: rt::tma_store_tile<rt::tma_write::add>(&{{t[0-9]+_map}}, [[OUT]], 0, 0);
// STEP: phase ^= read_stage == 0;
// STEP-NEXT: }
// STEP: rt::tma_store_wait<false>();
