// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/bin_counts.cu
// RUN: %FileCheck --check-prefix=BLOCK %s < %t/block_counts.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/bin_counts.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/bin_counts.cu -o %t/sm80.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/block_counts.cu -o %t/block90a.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/bin_counts.hip -o %t.hip/bin_counts.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/block_counts.hip -o %t.hip/block_counts.o %}
// RUN: %tilecc %s --emit=ir | %FileCheck --check-prefix=IR %s
//
// tile::histogram counts a program's values in shared memory with
// shared-memory atomics, into the bins and, what is not counted (masked
// off or out of range), into a slot per lane past them, so that no branch
// surrounds the atomic. On its own it counts in the kernel's scratch
// buffer (64 + 32 ints), cleared before and read after, with a barrier
// between each step (block_counts); summed by a loop (bin_counts), in bins
// that live through the loop, cleared once before it and added to the
// loop's counts once after it, so that no iteration waits at a barrier.
// One atomic add per bin merges the programs' counts. The mask goes to the
// counting itself: a masked histogram of x % n computes x % n for every
// element, as the user wrote it, with no branch around it.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK, int BINS>
TILE_KERNEL void bin_counts(const int *x, const std::uint8_t *y, int *out,
                            int n) {
  auto counts = tile::zeros<int, BINS>();
  for (int start = tile::program_id(0) * BLOCK; start < n;
       start += tile::num_programs(0) * BLOCK) {
    auto offs = start + tile::arange<BLOCK>();
    auto mask = offs < n;
    counts += tile::histogram<BINS>(tile::load(x + offs, mask), mask);
    counts += tile::histogram<BINS>(tile::load(y + offs, mask), mask);
  }
  tile::atomic_add(out + tile::arange<BINS>(), counts, counts != 0,
                   tile::mem_order::relaxed);
}
TILE_CONFIGS(bin_counts, tile::config{.meta = {1024, 256}, .num_warps = 4});
template <int BLOCK, int BINS>
TILE_GRID(bin_counts)
tile::grid bin_counts_grid(const int *, const std::uint8_t *, int *, int n) {
  return {std::min(tile::cdiv(n, BLOCK), 4 * tile::num_sms())};
}

template <int BLOCK, int BINS>
TILE_KERNEL void block_counts(const short *x, int *out, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  tile::atomic_add(out + tile::arange<BINS>(),
                   tile::histogram<BINS>(tile::load(x + offs, offs < n)));
}
TILE_CONFIGS(block_counts, tile::config{.meta = {512, 64}, .num_warps = 4});
template <int BLOCK, int BINS>
TILE_GRID(block_counts)
tile::grid block_counts_grid(const short *, int *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// IR: [[X:%[0-9]+]] = load %{{[0-9]+}}, [[MASK:%[0-9]+.mask]] : tensor<i32, [1024]>
// IR-NEXT: histogram [[X]], [[MASK]] : tensor<i32, [256]>
// IR: [[Y:%[0-9]+]] = load %{{[0-9]+}}, [[MASK]] : tensor<u8, [1024]>
// IR-NEXT: histogram [[Y]], [[MASK]] : tensor<i32, [256]>
// IR: histogram %{{[0-9]+}} : tensor<i32, [64]>

// The counts take one bin a thread (not the loads' eight), through the loop
// and into the atomic: a warp's adds go to consecutive words.
// CHECK: L[[COUNTS:[0-9]+]] = #blocked<spt=[1], tpw=[32], wpc=[4], order=[0]> over [256]
// CHECK: counts : tensor<i32, [256]> L[[COUNTS]] (2 per thread)
// CHECK: __global__ void __launch_bounds__(128)
// CHECK-NEXT: bin_counts_c0_aligned16(
// CHECK-NOT: scratch
// CHECK: __shared__ int [[BINS:counts_[0-9]+_bins]][rt::bins_with_discards<256>];
// CHECK-NEXT: rt::clear_bins<L0>([[BINS]]);
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: for (int start = {{.*}}) {
// CHECK: rt::ld_global_v4(
// CHECK: rt::count_into<L1, 256>({{t[0-9]+}}, mask, [[BINS]]);
// CHECK: = 0; // counted in [[BINS]]
// CHECK-NOT: __syncthreads
// CHECK: rt::ld_global_v8(
// CHECK: rt::count_into<L1, 256>({{t[0-9]+}}, mask, [[BINS]]);
// CHECK-NOT: __syncthreads
// CHECK: }
// CHECK-NEXT: rt::add_bins<L0>(counts_{{[0-9]+}}, [[BINS]]);
// CHECK-NEXT: #line
// CHECK: rt::atomic_add(

// BLOCK: alignas(16) __shared__ unsigned char [[SCRATCH:scratch[_0-9]*]][384];
// BLOCK: rt::histogram<L{{[0-9]+}}, L{{[0-9]+}}>({{t[0-9]+}}, nullptr, {{t[0-9]+}}, reinterpret_cast<int *>([[SCRATCH]]));
