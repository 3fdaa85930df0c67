// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/rows.cu
// RUN: %FileCheck %s --check-prefix=LAUNCH < %t/rows.launch.cpp
// RUN: %if nvcc %{ %nvcc-sm90a %t/rows.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/rows.cu -o %t/sm80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/rows.hip -o %t.hip/k.o %}
//
// Reductions: along an axis into the slice of the tile's layout (so the
// result broadcasts back without moving data), and of a whole tile into a
// scalar; sums of half accumulate in float.
#include <tile/tile.hpp>

template <int ROWS, int COLS>
TILE_KERNEL void rows(const tile::half *x, float *y, float *total, int *where,
                      int n_cols) {
  auto r = tile::program_id(0) * ROWS + tile::arange<ROWS>();
  auto c = tile::arange<COLS>();
  auto offs = tile::expand_dims<1>(r) * n_cols + tile::expand_dims<0>(c);
  auto mask = tile::expand_dims<0>(c < n_cols);
  auto v = tile::cast<float>(tile::load(x + offs, mask, 0.0f));
  auto centered = v - tile::max<1, true>(v);
  tile::store(y + offs, centered / tile::sum<1, true>(tile::exp(centered)),
              mask);
  tile::store(total + tile::program_id(0),
              tile::sum(tile::load(x + offs, mask, 0.0f)));
  tile::store(where + r, tile::argmax<1>(v));
}

template <int ROWS, int COLS>
TILE_SELECT(rows)
bool rows_fit(const tile::half *, float *, float *, int *, int n_cols) {
  return n_cols <= COLS;
}

TILE_CONFIGS(rows, tile::config{.meta = {4, 128}, .num_warps = 4},
             tile::config{.meta = {2, 1024}, .num_warps = 8});

template <int ROWS, int COLS>
TILE_GRID(rows)
tile::grid rows_grid(const tile::half *, float *, float *, int *, int) {
  return {64 / ROWS};
}

// CHECK-LABEL: rows_c0_aligned16(
// Along axis 1: each row's maximum lands in the slice of v's layout, and
// broadcasts back by index arithmetic alone.
// CHECK: rt::reduce<1, [[L:L[0-9]+]], [[S:L[0-9]+]]>(v, {{.*}}, rt::op_max{});
// CHECK: rt::reduce<1, [[L]], [[S]]>({{.*}}, rt::op_sum{});
// The whole tile: innermost axis first, then the rest.
// CHECK: rt::reduce<1, {{.*}}, rt::op_sum{});
// CHECK: = rt::reduce_all<L{{[0-9]+}}>({{.*}}, rt::op_sum{});
// CHECK: rt::arg_reduce<1, [[L]], [[S]]>(v, {{.*}}, rt::op_argmax{});

// The first configuration whose rule accepts the arguments.
// LAUNCH: static bool applies_0(
// LAUNCH-NEXT: {{\[\[}}maybe_unused{{\]\]}} int n_cols) {
// LAUNCH-NEXT: return n_cols <= 128;
// LAUNCH: if (!applies(config, x, y, total, where, n_cols)) {
// LAUNCH-NEXT: tilecc_declined = true;
// LAUNCH-NEXT: return cudaErrorInvalidValue;
// LAUNCH: if (tilecc_gen::rows::applies(tilecc_config, x, y, total, where, n_cols))
// LAUNCH-NEXT: config = tilecc_config;
