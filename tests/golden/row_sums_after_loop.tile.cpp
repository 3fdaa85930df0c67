// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/sums.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/sums.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/sums.cu -o %t/sm80.o %}
// RUN: rm -rf %t.hip && %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/sums.hip -o %t.hip/sums.o %}
// clang-format on
//
// A loop that carries a row sum, l = l * a + sum(v) with a the same along
// the row (attention's l_i), need not add up across lanes every
// iteration: scaling by such an a distributes over the lanes' partial
// sums. Each lane keeps its own partial sum through the loop
// (rt::reduce_in_thread), one lane of each row's group starting from l's
// value and the others from 0 (rt::keep_first_lane), and the lanes
// combine once after the loop (rt::combine_lanes), as FlashAttention keeps
// its row sums.
//
// A sum that only starts the next loop's stays in pieces between them.
//
// Not where the body reads l other than to update it (its lanes would see
// partial sums), where the reduction is not a sum (a running maximum), or
// where the warps share a row (their partial sums meet in shared memory).
#include <tile/tile.hpp>

// How the loop updates l.
constexpr int scaled = 0, plain = 1, read_in_loop = 2, running_max = 3,
              two_loops = 4;

template <int ROWS, int COLS, int KIND>
TILE_KERNEL void sums(const float *x, const float *decay, float *out,
                      int steps) {
  auto r = tile::program_id(0) * ROWS + tile::arange<ROWS>();
  auto c = tile::arange<COLS>();
  auto l = tile::zeros<float, ROWS>();
  auto seen = tile::zeros<float, ROWS>();
  for (int s = 0; s < steps; ++s) {
    auto v = tile::load(x + tile::expand_dims<1>(r) * (steps * COLS) +
                        s * COLS + tile::expand_dims<0>(c));
    if (KIND == scaled)
      l = l * tile::load(decay + s * ROWS + r) + tile::sum<1>(v);
    if (KIND == plain || KIND == two_loops)
      l = tile::sum<1>(v) + l;
    if (KIND == read_in_loop) {
      seen = tile::maximum(seen, l);
      l = l + tile::sum<1>(v);
    }
    if (KIND == running_max)
      l = tile::maximum(l, tile::max<1>(v));
  }
  // A second loop carries the sum on: the lanes combine after it only.
  if (KIND == two_loops)
    for (int s = 0; s < steps; ++s)
      l = l + tile::sum<1>(tile::load(x + tile::expand_dims<1>(r) * COLS +
                                      tile::expand_dims<0>(c)) *
                           float(s));
  tile::store(out + r, l);
  tile::store(out + ROWS + r, seen);
}
TILE_CONFIGS(sums, tile::config{.meta = {64, 32, scaled}, .num_warps = 4},
             tile::config{.meta = {64, 32, plain}, .num_warps = 4},
             tile::config{.meta = {64, 32, read_in_loop}, .num_warps = 4},
             tile::config{.meta = {64, 32, running_max}, .num_warps = 4},
             tile::config{.meta = {4, 256, scaled}, .num_warps = 4},
             tile::config{.meta = {64, 32, two_loops}, .num_warps = 4});

template <int ROWS, int COLS, int KIND>
TILE_GRID(sums)
tile::grid sums_grid(const float *, const float *, float *, int) {
  return {1};
}

// clang-format off
// CHECK-LABEL: sums_c0_aligned16(const
// CHECK: rt::keep_first_lane<1, [[P:L[0-9]+]]>([[L:l[_0-9]*]], 0.0f);
// CHECK-NEXT: for (int s = 0; s < steps; s += 1) {
// CHECK-NOT: rt::reduce<
// CHECK: rt::reduce_in_thread<1, [[P]], [[R:L[0-9]+]]>(v, [[SUM:t[0-9]+]], rt::op_sum{});
// CHECK-NOT: rt::reduce<
// CHECK: {{l_[0-9]+}}[e] = (([[L]][e] * {{t[0-9]+}}[e]) + [[SUM]][e]);
// CHECK: {{^  }$}}
// CHECK-NEXT: rt::combine_lanes<1, [[P]]>([[L]], rt::op_sum{});
// CHECK-LABEL: sums_c1_aligned16(const
// CHECK: rt::keep_first_lane<1, [[P]]>([[L]], 0.0f);
// CHECK: rt::reduce_in_thread<1, [[P]], [[R]]>(v, [[SUM:t[0-9]+]], rt::op_sum{});
// CHECK: {{l_[0-9]+}}[e] = ([[SUM]][e] + [[L]][e]);
// CHECK: rt::combine_lanes<1, [[P]]>([[L]], rt::op_sum{});
// CHECK-LABEL: sums_c2_aligned16(const
// CHECK-NOT: rt::keep_first_lane
// CHECK: rt::reduce<1, [[P]], [[R]]>(v, {{t[0-9]+}}, rt::op_sum{});
// CHECK-NOT: rt::combine_lanes
// CHECK-LABEL: sums_c3_aligned16(const
// CHECK-NOT: rt::keep_first_lane
// CHECK: rt::reduce<1, [[P]], [[R]]>(v, {{t[0-9]+}}, rt::op_max{});
// CHECK-NOT: rt::combine_lanes
// CHECK-LABEL: sums_c4_aligned16(const
// CHECK-NOT: rt::keep_first_lane
// CHECK: rt::reduce<1, {{L[0-9]+}}, {{L[0-9]+}}>(v, {{t[0-9]+}}, rt::op_sum{});
// CHECK-NOT: rt::combine_lanes
// CHECK-LABEL: sums_c5_aligned16(const
// CHECK: rt::keep_first_lane<1, [[P]]>([[L:l[_0-9]*]], 0.0f);
// CHECK-NEXT: for (int s = 0; s < steps; s += 1) {
// CHECK: rt::reduce_in_thread<1, [[P]], [[R]]>(
// CHECK-NOT: rt::combine_lanes
// CHECK-NOT: rt::keep_first_lane
// CHECK: [[L2:l_[0-9]+]][e] = [[L]][e];
// CHECK-NEXT: for (int s_1 = 0; s_1 < steps; s_1 += 1) {
// CHECK: rt::reduce_in_thread<1, [[P]], [[R]]>(
// CHECK: {{^  }$}}
// CHECK-NEXT: rt::combine_lanes<1, [[P]]>([[L2]], rt::op_sum{});
