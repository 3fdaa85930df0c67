// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/stats.cu
// RUN: %tilecc %s --kernel stats --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %if nvcc %{ %nvcc-sm90a %t/stats.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/stats.cu -o %t/sm80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/stats.hip -o %t.hip/k.o %}
//
// Reductions and scans with a combine: the user's lambda becomes a device
// lambda beside one tile::rt call; several tiles combined together travel
// as packs. A while loop whose condition has a side effect (a spin lock).
#include <tile/tile.hpp>

template <int ROWS, int COLS>
TILE_KERNEL void stats(const float *x, float *out, int *lock, int n_cols) {
  auto r = tile::program_id(0) * ROWS + tile::arange<ROWS>();
  auto c = tile::arange<COLS>();
  auto offs = tile::expand_dims<1>(r) * n_cols + tile::expand_dims<0>(c);
  auto v = tile::load(x + offs, tile::expand_dims<0>(c < n_cols), 0.0f);
  auto larger = [](float a, float b) { return a > b ? a : b; };
  tile::store(out + r, tile::reduce<1>(v, larger));
  auto welford = [](float mean_a, float n_a, float mean_b, float n_b) {
    float n = n_a + n_b;
    return std::tuple{mean_a + (mean_b - mean_a) * (n_b / n), n};
  };
  auto [mean, count] =
      tile::reduce<1>(std::tuple{v, tile::full<ROWS, COLS>(1.0f)}, welford);
  tile::store(out + ROWS + r, mean * count);
  tile::store(out + 2 * ROWS + offs, tile::cumsum<1>(v));
  auto add = [](float a, float b) { return a + b; };
  tile::store(out + 3 * ROWS + offs, tile::associative_scan<0, true>(v, add));
  while (tile::atomic_cas(lock, 0, 1) == 1) {
  }
  tile::atomic_xchg(lock, 0);
}

TILE_CONFIGS(stats, tile::config{.meta = {4, 128}, .num_warps = 4});

template <int ROWS, int COLS>
TILE_GRID(stats)
tile::grid stats_grid(const float *, float *, int *, int) {
  return {1};
}

// clang-format off
// In the IR, the combine is the op's region, over scalars.
// IR: reduce {axis = 1} %{{[0-9]+}}.v : tensor<f32, {{\[}}4]>
// IR-NEXT: { (%{{[0-9]+}}.a: f32, %{{[0-9]+}}.b: f32)
// IR: %{{[0-9]+}}.mean, %{{[0-9]+}}.count = reduce {axis = 1}
// IR-NEXT: { (%{{[0-9]+}}.mean_a: f32, %{{[0-9]+}}.n_a: f32, %{{[0-9]+}}.mean_b: f32, %{{[0-9]+}}.n_b: f32)
// IR: yield
// IR: scan {axis = 1}
// IR: scan {axis = 0, reverse}
// IR: while
// IR: atomic_cas
// IR: } do {

// CHECK-LABEL: stats_c0_aligned16(
// One value: the lambda as the user wrote it, then one call.
// CHECK: auto combine = [&](float a, float b) {
// CHECK: return
// CHECK: rt::reduce<1, [[L:L[0-9]+]], [[S:L[0-9]+]]>(v, {{.*}}, combine);
// Two values: packed, combined, unpacked.
// CHECK: auto combine_1 = [&](float mean_a, float n_a, float mean_b, float n_b) {
// CHECK: return rt::make_pack(
// CHECK: rt::pack<float, float> [[IN:[a-z0-9_]+]][{{[0-9]+}}];
// CHECK: [[IN]][e] = rt::make_pack(v[e],
// CHECK: rt::reduce<1, [[L]], [[S]]>([[IN]], [[OUT:[a-z0-9_]+]], rt::unpacked(combine_1));
// CHECK: mean[e] = rt::get<0>([[OUT]][e]);
// CHECK: count[e] = rt::get<1>([[OUT]][e]);
// Scans keep the tile's own (blocked) layout; cumsum's combine is an add.
// CHECK: rt::scan<1, false, [[L]]>(v,
// CHECK: rt::scan<0, true, [[L]]>(v,
// The loop runs its condition, with the atomic, before every iteration.
// CHECK: while (true) {
// CHECK-NEXT: const int {{.*}} = rt::in_one_thread([&] {
// CHECK: if (!{{.*}})
// CHECK-NEXT: break;
// CHECK-NEXT: }
// clang-format on
