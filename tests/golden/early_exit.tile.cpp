// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/early_exit.cu
// RUN: %tilecc %s --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %if nvcc %{ %nvcc-sm90a %t/early_exit.cu -o %t/sm90a.o %}
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/early_exit.cu -o %t.80/sm80.o %}
//
// Early `return` (the kernel's first line, a branch's last, a helper's with
// a value) and `continue`: what follows a statement that may jump is
// lowered in the branch where it does not, so the IR stays structured and
// carried values (acc) flow out of the branches.
#include <tile/tile.hpp>

template <int N> float pick(const tile::tensor<float, N> &v, int mode) {
  if (mode == 0)
    return tile::sum(v);
  return tile::max(v);
}

template <int BLOCK>
TILE_KERNEL void early_exit(const float *x, float *out, int n, int steps,
                            int mode) {
  const int pid = tile::program_id(0);
  if (pid * BLOCK >= n)
    return;
  auto offs = pid * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask, 0.0f);
  auto acc = tile::zeros<float, BLOCK>();
  for (int k = 0; k < steps; ++k) {
    if (k % 3 == 1)
      continue;
    acc = acc + v * float(k);
  }
  if (pid == 1) {
    tile::store(out + offs, acc + pick(v, mode), mask);
    return;
  }
  tile::store(out + offs, acc, mask);
}
TILE_CONFIGS(early_exit, tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(early_exit)
tile::grid early_exit_grid(const float *, float *, int n, int, int) {
  return {tile::cdiv(n, BLOCK) + 2};
}

// IR: %[[EXIT:[0-9]+]] = ge %{{[0-9]+}}, %2.n : i1  // line 23
// IR-NEXT: %[[STAY:[0-9]+]] = logical_not %[[EXIT]] : i1  // line 23
// IR-NEXT: if %[[STAY]]  // line 23
// IR-NEXT: {
// IR: = for {{.*}} -> iv %{{[0-9]+}}.k iter %[[ACC:[0-9]+]].acc : tensor<f32, [128]>
// IR: %[[SKIP:[0-9]+]] = eq %{{[0-9]+}}, %{{[0-9]+}} : i1  // line 30
// IR-NEXT: %[[GO:[0-9]+]] = logical_not %[[SKIP]] : i1  // line 30
// IR-NEXT: %[[NEXT:[0-9]+]].acc = if %[[GO]] : tensor<f32, [128]>  // line 30
// IR: } else {
// IR-NEXT: yield %[[ACC]].acc  // line 31
// IR-NEXT: }
// IR-NEXT: yield %[[NEXT]].acc
// IR: = if %{{[0-9]+}} : f32  // line 14
// IR: sum {axis = 0}
// IR: } else {
// IR: max {axis = 0}
// IR: } else {
// IR: store
// IR: yield  // line 38
// IR-NEXT: }
// IR-NEXT: yield  // line 38
// IR-NEXT: } else {
// IR-NEXT: yield  // line 24
// IR-NEXT: }
// IR-NEXT: }

// CHECK-LABEL: early_exit_c0_generic(
// CHECK: const bool t{{[0-9]+}} = (t{{[0-9]+}} >= n);
// CHECK-NEXT: const bool [[STAY:t[0-9]+]] = (!t{{[0-9]+}});
// CHECK-NEXT: if ([[STAY]]) {
// CHECK: for (int k = 0; k < steps; k += 1) {
// CHECK: if (t{{[0-9]+}}) {
// CHECK: } else {
