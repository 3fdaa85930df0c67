// RUN: rm -rf %t && %tilecc %s -o %t --target gfx90a && %FileCheck %s < %t/prefetched.hip
// RUN: %FileCheck %s --check-prefix=ONE < %t/one_stage.hip
// RUN: %if hipcc %{ %hipcc-gfx90a %t/prefetched.hip -o %t/prefetched.o %}
//
// gfx90a has no cp.async: in a loop of 2 stages or more, the dot operands
// are loaded an iteration ahead into registers the loop carries
// (transforms/RegisterPrefetch), the first iteration's before the loop;
// each such load is masked off where its iteration does not run (compared
// in 64 bits). A's pointer tile, advanced by BK, is advanced once more for
// the load ahead. The loop carries the operands, so it stages them in
// shared memory an iteration ahead too (analysis/MfmaStagedAhead): the
// first iteration's before the loop, the next one's after the yield, into
// the other of two buffers, with one barrier an iteration; the dot
// multiplies from its iteration's buffer, unless two buffers do not fit
// (configuration 1: 2 x 34816 bytes, more than gfx90a's 64 KB). A loop of
// one stage loads where the source does and stages in the dot.
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
void product(const tile::half *a, const tile::half *b, float *c, int k) {
  auto rm = tile::arange<BM>();
  auto rn = tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto a_ptrs = a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(rk);
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto x = tile::load(a_ptrs, tile::expand_dims<0>(k0 + rk < k));
    auto y = tile::load(b + tile::expand_dims<1>(k0 + rk) * BN +
                            tile::expand_dims<0>(rn),
                        tile::expand_dims<1>(k0 + rk < k));
    acc = tile::dot(x, y, acc);
    a_ptrs += BK;
  }
  tile::store(c + tile::expand_dims<1>(rm) * BN + tile::expand_dims<0>(rn),
              acc);
}

template <int BM, int BN, int BK>
TILE_KERNEL void prefetched(const tile::half *a, const tile::half *b, float *c,
                            int k) {
  product<BM, BN, BK>(a, b, c, k);
}
TILE_CONFIGS(prefetched,
             tile::config{.meta = {64, 64, 32}, .num_warps = 4,
                          .num_stages = 2},
             tile::config{.meta = {128, 128, 64}, .num_warps = 4,
                          .num_stages = 2});
template <int BM, int BN, int BK>
TILE_GRID(prefetched)
tile::grid prefetched_grid(const tile::half *, const tile::half *, float *,
                           int) {
  return {1};
}

template <int BM, int BN, int BK>
TILE_KERNEL void one_stage(const tile::half *a, const tile::half *b, float *c,
                           int k) {
  product<BM, BN, BK>(a, b, c, k);
}
TILE_CONFIGS(one_stage, tile::config{.meta = {64, 64, 32}, .num_warps = 4});
template <int BM, int BN, int BK>
TILE_GRID(one_stage)
tile::grid one_stage_grid(const tile::half *, const tile::half *, float *,
                          int) {
  return {1};
}

// The first iteration's operands, before the loop, if it runs.
// CHECK-LABEL: prefetched_c0_aligned16(
// CHECK: const bool [[FIRST:t[0-9]+]] = (0 < k);
// CHECK: rt::f16 x[16];
// CHECK: rt::ld_global_v8(&x[e], a_ptrs[e],
// CHECK-NEXT: {{.*}} && [[FIRST]]),
// CHECK: rt::f16 y[8];
// CHECK: {{.*}} && [[FIRST]]), rt::f16(0));
// The first iteration's staged in the first buffer.
// CHECK: alignas(16) __shared__ unsigned char [[BUF:acc_[0-9]+_staged]][18432];
// CHECK-NEXT: rt::mfma_stage<L6, L9>(x_1, y_1, [[BUF]]);
// CHECK-NEXT: int [[SLOT:staged_slot[0-9]*]] = 0;
// CHECK-NEXT: __syncthreads();
// The next iteration's, at the top of the body, if it runs.
// CHECK-NEXT: for (int k0 = 0; k0 < k; k0 += 32) {
// CHECK-NEXT: const int [[NEXT:k0_[0-9]+]] = (k0 + 32);
// CHECK-NEXT: const int64_t [[WIDE:t[0-9]+]] = rt::convert<int64_t>(k0);
// CHECK-NEXT: const int64_t [[SUM:t[0-9]+]] = ([[WIDE]] + int64_t(32));
// CHECK-NEXT: const int64_t [[END:t[0-9]+]] = rt::convert<int64_t>(k);
// CHECK-NEXT: const bool [[AHEAD:t[0-9]+]] = ([[SUM]] < [[END]]);
// CHECK: [[PTRS:a_ptrs_[0-9]+]][e] = (a_ptrs_1[e] + 32);
// CHECK: rt::ld_global_v8(
// CHECK-NEXT: &[[X:x_[0-9]+]][e], [[PTRS]][e],
// CHECK-NEXT: ((([[NEXT]] + rk_1[{{.*}}]) < k) && [[AHEAD]]),
// CHECK: rt::ld_global_v8(
// CHECK-NEXT: &[[Y:y_[0-9]+]][e],
// CHECK: ((([[NEXT]] + rk[{{.*}}]) < k) && [[AHEAD]]),
// This iteration's, multiplied from the buffer staged before it.
// CHECK-NOT: __syncthreads
// CHECK: rt::mfma_multiply<L6, L9, L8, rt::f16>(acc_1, acc_2,
// CHECK-NEXT: [[BUF]] + [[SLOT]] * 9216);
// CHECK-NOT: __syncthreads
// CHECK: a_ptrs_1_next[e] = [[PTRS]][e];
// CHECK: x_1_next[e] = [[X]][e];
// CHECK: y_1_next[e] = [[Y]][e];
// The next iteration's staged in the other buffer, once carried.
// CHECK: y_1[e] = y_1_next[e];
// CHECK-NEXT: rt::mfma_stage<L6, L9>(x_1, y_1, [[BUF]] + ([[SLOT]] ^ 1) * 9216);
// CHECK-NEXT: [[SLOT]] ^= 1;
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: }

// Two buffers would not fit: one, in the dot, as without the prefetch.
// CHECK-LABEL: prefetched_c1_aligned16(
// CHECK-NOT: mfma_stage
// CHECK: for (int k0 = 0; k0 < k; k0 += 64) {
// CHECK: rt::dot_mfma<{{.*}}>(x_1, y_1, acc_1, acc_2, scratch);

// ONE-LABEL: one_stage_c0_aligned16(
// ONE: for (int k0 = 0; k0 < k; k0 += 32) {
// ONE-NOT: k0 + 32
// ONE: rt::ld_global_v8(&x[e], a_ptrs_1[e],
// ONE-NOT: mfma_stage
// ONE: rt::dot_mfma<L6, L9, L8>(x, y, acc_1, acc_2, scratch);
