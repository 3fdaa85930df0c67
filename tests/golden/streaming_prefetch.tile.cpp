// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/row_sums.cu
// RUN: %FileCheck %s --check-prefix=KEPT < %t/kept.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/row_sums.cu -o %t/row_sums90.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/kept.cu -o %t/kept90.o %}
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s < %t.80/row_sums.cu
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/row_sums.cu -o %t.80/row_sums80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %FileCheck %s < %t.hip/row_sums.hip
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/row_sums.hip -o %t.hip/row_sums.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/kept.hip -o %t.hip/kept.o %}
//
// tile::config::register_prefetch, on every target (gfx90a's 64-lane
// waves hold 4 halves a thread where CUDA's warps hold 8): a loop that only
// streams memory loads the next iteration's chunk at the top of each
// iteration into registers the loop carries (transforms/RegisterPrefetch),
// the first before the loop; each such load is masked off where its
// iteration does not run (compared in 64 bits), so nothing is read that the
// loop would not read. A configuration without it loads where the source
// does. Left where they are: a load of memory the loop writes, loops with
// an atomic or their own stages, and loads past 16 registers a thread.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void row_sums(const tile::half *x, float *out, int n) {
  const int row = tile::program_id(0);
  const tile::half *x_row = x + row * n;
  auto cols = tile::arange<BLOCK>();
  auto sums = tile::zeros<float, BLOCK>();
  for (int start = 0; start < n; start += BLOCK) {
    auto c = start + cols;
    sums += tile::cast<float>(tile::load(x_row + c, c < n, 0.0f));
  }
  tile::store(out + row, tile::sum(sums));
}
TILE_CONFIGS(row_sums,
             tile::config{
                 .meta = {1024}, .num_warps = 4, .register_prefetch = true},
             tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(row_sums)
tile::grid row_sums_grid(const tile::half *, float *, int) {
  return {1};
}

template <int BLOCK>
TILE_KERNEL void kept(tile::half *x, const float *w, float *out, int n) {
  auto cols = tile::arange<BLOCK>();
  // Read and written in place: read an iteration early, it would miss the
  // write.
  for (int start = 0; start < n; start += BLOCK) {
    auto c = start + cols;
    auto v = tile::load(x + c, c < n);
    tile::store(x + c, v * v, c < n);
  }
  // An atomic orders memory.
  for (int start = 0; start < n; start += BLOCK) {
    auto c = start + cols;
    tile::atomic_add(out + cols, tile::load(w + c, c < n, 0.0f));
  }
  // The loop's own stages are the pipeliner's.
  auto acc = tile::zeros<float, BLOCK>();
  for (int start : tile::range(0, n, BLOCK, 3)) {
    auto c = start + cols;
    acc += tile::load(w + c, c < n, 0.0f);
  }
  tile::store(out + cols, acc);
  // 16 registers a thread: the first load's 2048 floats fill them, the
  // second stays where it is.
  auto wide = tile::arange<4 * BLOCK>();
  auto big = tile::zeros<float, 4 * BLOCK>();
  auto small = tile::zeros<float, BLOCK>();
  for (int start = 0; start < n; start += 4 * BLOCK) {
    big += tile::load(w + start + wide, start + wide < n, 0.0f);
    small += tile::load(w + start + cols, start + cols < n, 0.0f);
  }
  tile::store(out + cols, small);
  tile::store(out + wide, big);
}
TILE_CONFIGS(kept, tile::config{.meta = {512},
                                .num_warps = 4,
                                .register_prefetch = true});
template <int BLOCK>
TILE_GRID(kept)
tile::grid kept_grid(tile::half *, const float *, float *, int) {
  return {1};
}

// The variant's comment says which loads it moved.
// CHECK: // row_sums_c0_aligned16: {{.*}}; register_prefetch: the load at line {{[0-9]+}} issued an iteration ahead.
// The first chunk, before the loop, if it runs.
// CHECK-LABEL: row_sums_c0_aligned16(
// CHECK: const bool [[FIRST:t[0-9]+]] = (0 < n);
// CHECK: rt::f16 [[X0:t[0-9]+]][{{4|8}}];
// CHECK: ld_global_v{{4|8}}(&[[X0]][e], (x_row + c[e]), ((c[e] < n) && [[FIRST]]),
// The next one at the top of the body, if its iteration runs; this one's
// sum reads the chunk the loop carries.
// CHECK: for (int start = 0; start < n; start += 1024) {
// CHECK-NEXT: const int [[NEXT:start_[0-9]+]] = (start + 1024);
// CHECK-NEXT: const int64_t [[WIDE:t[0-9]+]] = rt::convert<int64_t>(start);
// CHECK-NEXT: const int64_t [[SUM:t[0-9]+]] = ([[WIDE]] + int64_t(1024));
// CHECK-NEXT: const int64_t [[END:t[0-9]+]] = rt::convert<int64_t>(n);
// CHECK-NEXT: const bool [[AHEAD:t[0-9]+]] = ([[SUM]] < [[END]]);
// CHECK: c_1[e] = ([[NEXT]] + cols[e]);
// CHECK: ld_global_v{{4|8}}(&[[X1:t[0-9]+]][e], (x_row + c_1[e]),
// CHECK-SAME: ((c_1[e] < n) && [[AHEAD]]),
// CHECK: sums_2[e] = (sums_1[e] + rt::convert<float>([[CARRIED:t[0-9]+]][e]));
// CHECK: [[CARRIED]]_next[e] = [[X1]][e];
// CHECK: }

// Without register_prefetch: loaded where the source loads it.
// CHECK: // row_sums_c1_aligned16: {{.*}} as their accesses need.{{$}}
// CHECK-LABEL: row_sums_c1_aligned16(
// CHECK-NOT: start + 1024
// CHECK: for (int start = 0; start < n; start += 1024) {
// CHECK-NOT: start + 1024
// CHECK: ld_global_v{{4|8}}(&{{t[0-9]+}}[e], (x_row + c[e]), (c[e] < n),
// CHECK-LABEL: row_sums_c1_generic(

// KEPT: // kept_c0_aligned16: {{.*}}; register_prefetch: the load at line {{[0-9]+}} issued an iteration ahead.
// In place: this iteration's load before its store.
// KEPT-LABEL: kept_c0_aligned16(
// KEPT: for (int start = 0; start < n; start += 512) {
// KEPT-NOT: start + 512
// KEPT: ld_global_v4(&v[e], (x + c[e]), (c[e] < n), rt::f16(0));
// KEPT: st_global_v4(
// With an atomic.
// KEPT: for (int start_1 = 0; start_1 < n; start_1 += 512) {
// KEPT-NOT: start_1 + 512
// KEPT: ld_global_v4(&{{t[0-9]+}}[e], (w + c_1[e]), (c_1[e] < n), 0.0f);
// KEPT: rt::atomic_add(
// Its own stages, through shared memory.
// KEPT: rt::cp_async_v<4>(
// KEPT: for (int start_2 = 0; start_2 < n; start_2 += 512) {
// Past 16 registers: big's 16 floats a thread are prefetched, small's
// chunk is loaded in the iteration that reads it.
// KEPT: for (int start_3 = 0; start_3 < n; start_3 += 2048) {
// KEPT-NEXT: const int [[NEXT:start_[0-9]+]] = (start_3 + 2048);
// KEPT: ld_global_v4(&{{t[0-9]+}}[e], ({{t[0-9]+}} + wide[e]),
// KEPT-NEXT: ((([[NEXT]] + wide[e]) < n) && {{t[0-9]+}}), 0.0f);
// KEPT: ld_global_v4(&{{t[0-9]+}}[e], ({{t[0-9]+}} + cols[e]), ((start_3 + cols[e]) < n),
// KEPT: }
