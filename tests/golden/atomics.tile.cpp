// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/counts.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/counts.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/counts.cu -o %t/sm80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/counts.hip -o %t.hip/k.o %}
// RUN: %FileCheck --check-prefix=SUMS %s < %t/sums.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/sums.cu -o %t/sums90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/sums.cu -o %t/sums80.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/sums.hip -o %t.hip/sums.o %}
//
// Atomics: one per element the thread owns (a tile smaller than the
// program's threads is held in copies, and only one copy acts), fenced as
// the memory order asks; on a single pointer, once per program.
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

// CHECK-LABEL: counts_c0_aligned16(
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

// SUMS-LABEL: sums_c0_aligned16(
// SUMS: rt::atomic_add((h + bin[e]), rt::f16(1.0f),
// SUMS: rt::atomic_add((b + bin[e]), rt::bf16(0.5f),
