// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/pack_unpack.cu
// RUN: %FileCheck --check-prefix=MOVE %s < %t/permute_flip_cat.cu
// RUN: %FileCheck --check-prefix=SMALL %s < %t/small_reshape.cu
// RUN: %FileCheck --check-prefix=PAIR %s < %t/split_pair.cu
// RUN: %if nvcc %{ %nvcc-sm80 %t/split_pair.cu -o %t/pair80.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/pack_unpack.cu -o %t/pack90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/permute_flip_cat.cu -o %t/move80.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/small_reshape.cu -o %t/small90a.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/pack_unpack.hip -o %t.hip/pack.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/permute_flip_cat.hip -o %t.hip/move.o %}
// RUN: %FileCheck --check-prefix=SORT %s < %t/sort_rows.cu
// RUN: %if nvcc %{ %nvcc-sm80 %t/sort_rows.cu -o %t/sort80.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/sort_rows.hip -o %t.hip/sort.o %}
// RUN: %FileCheck --check-prefix=LINE %s < %t/sort_line.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/sort_line.cu -o %t/line90a.o %}
// RUN: %tilecc %s -o %t.debug -DTILE_DEBUG
// RUN: %FileCheck --check-prefix=DEBUG %s < %t.debug/sort_rows.cu
// RUN: %tilecc %s --emit=layouts | %FileCheck --check-prefix=LAYOUTS %s
//
// Shape ops move no data where the layouts allow: join pairs up its
// operands' registers (each thread holds both elements of a pair), split
// takes them apart, a reshape or permute of a layout that splits or merges
// its dimensions the same way renames registers, and a cat whose first
// dimension repeats last in each thread's numbering puts b's registers
// after a's. Layout assignment gives operands the layouts that allow it.
// A flip, and a reshape of a tile smaller than the program (whose threads
// hold copies), pass once through the scratch buffer. A sort or topk runs
// a bitonic network: in registers and warp shuffles where each line lies
// in one warp (no shared memory, no barrier), else in the scratch buffer
// with a barrier per step. A gather goes through the scratch buffer; its
// index is checked only with TILE_DEBUG.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void pack_unpack(const float *a, const float *b, float *packed,
                             float *sum) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto x = tile::load(a + offs);
  auto y = tile::load(b + offs);
  auto pairs = tile::interleave(x, y);
  tile::store(packed + 2 * tile::program_id(0) * BLOCK +
                  tile::arange<2 * BLOCK>(),
              pairs);
  auto [p, q] = tile::split(tile::reshape<BLOCK, 2>(pairs));
  tile::store(sum + offs, p + 2.0f * q);
}
TILE_CONFIGS(pack_unpack, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(pack_unpack)
tile::grid pack_unpack_grid(const float *, const float *, float *, float *) {
  return {4};
}

template <int M>
TILE_KERNEL void permute_flip_cat(const float *x, float *t, float *f,
                                  float *c) {
  constexpr int N = 32;
  auto r = tile::arange<M>();
  auto k = tile::arange<N>();
  auto offs = tile::expand_dims<1>(r) * N + tile::expand_dims<0>(k);
  auto v = tile::load(x + offs);
  tile::store(t + tile::expand_dims<1>(k) * M + tile::expand_dims<0>(r),
              tile::permute<1, 0>(v));
  tile::store(f + offs, tile::flip(v));
  tile::store(c + tile::expand_dims<1>(tile::arange<2 * M>()) * N +
                  tile::expand_dims<0>(k),
              tile::cat(v, v * 2.0f));
}
TILE_CONFIGS(permute_flip_cat, tile::config{.meta = {64}, .num_warps = 4});
template <int M>
TILE_GRID(permute_flip_cat)
tile::grid permute_flip_cat_grid(const float *, float *, float *, float *) {
  return {1};
}

template <int N>
TILE_KERNEL void small_reshape(const float *x, float *y) {
  auto i = tile::arange<N>();
  tile::store(y + tile::expand_dims<1>(tile::arange<8>()) * 8 +
                  tile::expand_dims<0>(tile::arange<8>()),
              tile::reshape<8, 8>(tile::load(x + i)));
}
TILE_CONFIGS(small_reshape, tile::config{.meta = {64}, .num_warps = 4});
template <int N>
TILE_GRID(small_reshape)
tile::grid small_reshape_grid(const float *, float *) { return {1}; }

// A tile of 2 split into its two scalars (Triton's tl.split of a 1-D
// tile): every thread holds the pair, so each scalar is a register.
TILE_KERNEL void split_pair(const float *x, float *y) {
  auto [lo, hi] = tile::split(tile::load(x + tile::arange<2>()));
  tile::store(y, hi - lo);
}
TILE_CONFIGS(split_pair, tile::config{.num_warps = 2});
TILE_GRID(split_pair) tile::grid split_pair_grid(const float *, float *) {
  return {1};
}

template <int N>
TILE_KERNEL void sort_rows(const float *x, const int *idx, float *y,
                           float *top, float *g) {
  auto offs = tile::expand_dims<1>(tile::arange<16>()) * N +
              tile::expand_dims<0>(tile::arange<N>());
  auto v = tile::load(x + offs);
  tile::store(y + offs, tile::sort<1, true>(v));
  tile::store(top + tile::expand_dims<1>(tile::arange<16>()) * 2 +
                  tile::expand_dims<0>(tile::arange<2>()),
              tile::topk<2>(v));
  tile::store(g + offs, tile::gather<1>(v, tile::load(idx + offs)));
}
TILE_CONFIGS(sort_rows, tile::config{.meta = {64}, .num_warps = 4});
template <int N>
TILE_GRID(sort_rows)
tile::grid sort_rows_grid(const float *, const int *, float *, float *,
                          float *) {
  return {1};
}

// One line of 1024 spread over four warps.
template <int N>
TILE_KERNEL void sort_line(const int *x, int *y, int *top) {
  auto v = tile::load(x + tile::arange<N>());
  tile::store(y + tile::arange<N>(), tile::sort(v));
  tile::store(top + tile::arange<8>(), tile::topk<8>(v));
}
TILE_CONFIGS(sort_line, tile::config{.meta = {1024}, .num_warps = 4});
template <int N>
TILE_GRID(sort_line) tile::grid sort_line_grid(const int *, int *, int *) {
  return {1};
}

// CHECK-LABEL: pack_unpack_c0_aligned16(
// CHECK: rt::join(x, y, [[J:t[0-9]+]]);
// CHECK: rt::relabel([[J]], pairs);
// CHECK: rt::relabel({{t[0-9]+}}, [[R:t[0-9]+]]);
// CHECK: rt::split([[R]], p, q);

// MOVE-LABEL: permute_flip_cat_c0_aligned16(
// MOVE: rt::relabel({{t[0-9]+}}, {{t[0-9]+}});
// MOVE: rt::flip_through_smem<[[L:L[0-9]+]], [[L]], 1>(v, {{t[0-9]+}}, scratch);
// MOVE: rt::cat_in_registers(v, {{t[0-9]+}}, {{t[0-9]+}});

// PAIR-LABEL: split_pair_c0_generic(
// PAIR: float [[P:t[0-9]+]][2];
// PAIR: const float lo = [[P]][0];
// PAIR-NEXT: const float hi = [[P]][1];

// SMALL-LABEL: small_reshape_c0_generic(
// SMALL: rt::reshape_through_smem<{{L[0-9]+}}, {{L[0-9]+}}>({{t[0-9]+}}, {{t[0-9]+}}, scratch);

// SORT-LABEL: sort_rows_c0_aligned16(
// SORT: rt::sort_in_warp<[[L:L[0-9]+]], [[L]], 1, true>(v, {{t[0-9]+}});
// SORT: rt::sort_in_warp<[[L]], {{L[0-9]+}}, 1, true>(v, {{t[0-9]+}});
// SORT: rt::gather_through_smem<[[L]], {{L[0-9]+}}, 1>(v, {{t[0-9]+}}, {{t[0-9]+}}, scratch);

// LINE-LABEL: sort_line_c0_aligned16(
// LINE: rt::sort_through_smem<[[L:L[0-9]+]], [[L]], 0, false>(v, {{t[0-9]+}}, scratch);
// LINE: rt::sort_through_smem<[[L]], {{L[0-9]+}}, 0, true>(v, {{t[0-9]+}}, scratch);

// DEBUG-LABEL: sort_rows_c0_aligned16(
// DEBUG: gather: index out of range
// DEBUG: rt::gather_through_smem<

// LAYOUTS: join {{.*}} : tensor<f32, [1024, 2]> #blocked<spt=[2, 2], tpw=[32, 1], wpc=[4, 1], order=[1, 0]> {{.*}} relabeled
// LAYOUTS: reshape {{.*}} : tensor<f32, [2048]> #blocked<spt=[4], tpw=[32], wpc=[4], order=[0]> {{.*}} relabeled
// LAYOUTS: split {{.*}} relabeled, {{.*}} relabeled
// LAYOUTS: permute {dims = [1, 0]} {{.*}} relabeled
// LAYOUTS: flip {axis = 1} {{.*}} through shared memory
// LAYOUTS: cat {{.*}} relabeled
// LAYOUTS: reshape {{.*}} : tensor<f32, [8, 8]> {{.*}} through shared memory
// LAYOUTS: sort {axis = 1, descending} {{.*}} in a warp
// LAYOUTS: gather {axis = 1} {{.*}} through shared memory
// LAYOUTS: sort {axis = 0} {{.*}} through shared memory
