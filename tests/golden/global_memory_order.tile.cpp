// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s --check-prefix=SCALAR < %t/scalar_then_row.cu
// RUN: %FileCheck %s --check-prefix=INPLACE < %t/in_place_rows.cu
// RUN: %FileCheck %s --check-prefix=HALVES < %t/swap_halves.cu
// RUN: %FileCheck %s --check-prefix=COPIES < %t/narrow_in_place.cu
// RUN: %FileCheck %s --check-prefix=LOCK < %t/locked_count.cu
// RUN: %FileCheck %s --check-prefix=CHOICE < %t/pick.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/scalar_then_row.cu -o %t/a.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/narrow_in_place.cu -o %t/b.o %}
//
// A program's statements happen in order, its threads at their own pace:
// tilecc puts a barrier before an access that could overtake an earlier one
// to the same memory from another thread, and none where each element stays
// with one thread (the same pointers in the same layout, in iterations that
// move past the whole tile) or where the memory is another parameter's.
#include <tile/tile.hpp>

// Every thread reads x[y]; pass 2 writes it back from the thread that owns
// it, perhaps before a slower thread has read it (cross-entropy's loss).
template <int BLOCK>
TILE_KERNEL void scalar_then_row(float *x, const int *target, float *out,
                                 int n) {
  const int y = tile::load(target);
  const float x_y = tile::load(x + y);
  tile::store(out, x_y);
  auto cols = tile::arange<BLOCK>();
  for (int v0 = 0; v0 < n; v0 += BLOCK) {
    auto live = v0 + cols < n;
    tile::store(x + v0 + cols, tile::load(x + v0 + cols, live) - x_y, live);
  }
}
TILE_CONFIGS(scalar_then_row, tile::config{.meta = {1024}, .num_warps = 4});
TILE_GRID(scalar_then_row)
tile::grid scalar_then_row_grid(float *, const int *, float *, int) {
  return {1};
}

// SCALAR-LABEL: scalar_then_row_c0_aligned16(
// SCALAR: const float x_y = *
// SCALAR: *out = x_y;
// SCALAR: // the store at line 29 waits for the load at line 24: other threads touch the same memory.
// SCALAR-NEXT: __syncthreads();
// SCALAR-NEXT: for (int v0 = 0; v0 < n; v0 += 1024) {
// SCALAR-NOT: __syncthreads
// SCALAR: rt::st_global_v4(
// SCALAR-NOT: __syncthreads
// SCALAR-LABEL: scalar_then_row_c0_generic(

// Rows updated in place, one after another: each element stays with one
// thread, and each iteration moves past the whole tile.
template <int BLOCK>
TILE_KERNEL void in_place_rows(float *x, const float *scale, int n_rows) {
  auto cols = tile::arange<BLOCK>();
  for (int row = 0; row < n_rows; ++row) {
    auto p = x + row * BLOCK + cols;
    tile::store(p, tile::load(p) * tile::load(scale + cols));
  }
}
TILE_CONFIGS(in_place_rows, tile::config{.meta = {512}, .num_warps = 4});
TILE_GRID(in_place_rows)
tile::grid in_place_rows_grid(float *, const float *, int) { return {1}; }

// INPLACE-LABEL: in_place_rows_c0_aligned16(
// INPLACE-NOT: __syncthreads
// INPLACE-LABEL: in_place_rows_c0_generic(
// INPLACE-NOT: __syncthreads

// The two halves of a row swapped in place: the same memory, other
// pointers (whose elements other threads hold).
template <int HALF>
TILE_KERNEL void swap_halves(float *x) {
  auto d = tile::arange<HALF>();
  auto lo = tile::load(x + d), hi = tile::load(x + HALF + d);
  tile::store(x + d, hi);
  tile::store(x + HALF + d, lo);
}
TILE_CONFIGS(swap_halves, tile::config{.meta = {256}, .num_warps = 4});
TILE_GRID(swap_halves)
tile::grid swap_halves_grid(float *) { return {1}; }

// HALVES-LABEL: swap_halves_c0_aligned16(
// HALVES: rt::ld_global_v2(
// HALVES: rt::ld_global_v2(
// HALVES: // the store at line 74 waits for the load at line 73: other threads touch the same memory.
// HALVES-NEXT: __syncthreads();
// HALVES-NEXT: #pragma unroll
// HALVES-NEXT: for
// HALVES-NEXT: rt::st_global_v2(
// HALVES-NOT: __syncthreads
// HALVES-LABEL: swap_halves_c0_generic(

// A tile smaller than the program's threads: two threads hold each element.
// Only the owner stores it, and only after every copy has been read.
template <int BLOCK>
TILE_KERNEL void narrow_in_place(float *x) {
  auto p = x + tile::arange<BLOCK>();
  tile::store(p, tile::load(p) + 1.0f);
}
TILE_CONFIGS(narrow_in_place, tile::config{.meta = {64}, .num_warps = 4});
TILE_GRID(narrow_in_place)
tile::grid narrow_in_place_grid(float *) { return {1}; }

// COPIES: //   L0 = #blocked<spt=[1], tpw=[32], wpc=[4], order=[0]> over [64]
// COPIES-LABEL: narrow_in_place_c0_generic(
// COPIES: // the store at line 97 waits for the load at line 97: other threads touch the same memory.
// COPIES-NEXT: __syncthreads();
// COPIES: rt::st_global_v1(p[e], &{{t[0-9]+}}[e], L0::owns(e));

// A count under a spin lock: the atomics on one address already meet every
// thread at a barrier, but the count's load and store need one between.
template <int BLOCK>
TILE_KERNEL void locked_count(int *lock, int *count) {
  while (tile::atomic_cas(lock, 0, 1) == 1) {
  }
  tile::store(count, tile::load(count) + BLOCK);
  tile::atomic_xchg(lock, 0);
}
TILE_CONFIGS(locked_count, tile::config{.meta = {1}, .num_warps = 4});
TILE_GRID(locked_count)
tile::grid locked_count_grid(int *, int *) { return {1}; }

// LOCK-LABEL: locked_count_c0_generic(
// LOCK: rt::atomic_cas(
// LOCK-NOT: __syncthreads
// LOCK: const int {{t[0-9]+}} = *count;
// LOCK-NEXT: const int {{t[0-9]+}} = ({{t[0-9]+}} + 1);
// LOCK-NEXT: // the store at line 115 waits for the load at line 115: other threads touch the same memory.
// LOCK-NEXT: __syncthreads();
// LOCK-NEXT: *count =
// LOCK-NOT: __syncthreads
// LOCK: launch_locked_count_c0_generic(

// A pointer chosen between two parameters may be either; the null pointer
// is neither, and a third parameter is another's memory.
template <int BLOCK>
TILE_KERNEL void pick(const float *x, float *y, float *z, int which) {
  auto i = tile::arange<BLOCK>();
  float *const out = which ? y : nullptr;
  auto v = tile::load(x + i);
  tile::store(out + i, v);
  tile::store(z + i, tile::load(y + i) + v);
}
TILE_CONFIGS(pick, tile::config{.meta = {128}, .num_warps = 4});
TILE_GRID(pick)
tile::grid pick_grid(const float *, float *, float *, int) { return {1}; }

// CHOICE-LABEL: pick_c0_generic(
// CHOICE: rt::st_global_v1((out +
// CHOICE: // the load at line 141 waits for the store at line 140: other threads touch the same memory.
// CHOICE-NEXT: __syncthreads();
// CHOICE: rt::st_global_v1((z +
// CHOICE-NOT: __syncthreads
