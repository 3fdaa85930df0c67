// clang-format off
// RUN: rm -rf %t && %tilecc %S/../gpu/ops.tile.cpp -o %t && %FileCheck %s < %t/matmul_ptrs.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/matmul_ptrs.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/matmul_ptrs.cu -o %t/sm80.o %}
// clang-format on
//
// Triton's tutorial 03 as written there (matmul_ptrs in the GPU test's
// kernels, tests/gpu/ops.tile.cpp, which checks its results): the pointer
// tiles are built once and the K loop carries them, adding a
// loop-invariant step each iteration. Axis info holds for the carried
// tiles what holds for their initial value and every step (a fixed
// point), so the unit-stride variant copies 8 halves at a time; the
// carried pointers take the loads' layouts (no conversion per iteration);
// and the loop is pipelined, each prefetch reading the carried tiles
// advanced as many steps as it runs ahead. `%` by a size divisible by 16
// keeps 16-element runs contiguous. stride_ak is only an inner stride
// (`BK * stride_ak` is a step), so it is 1 in the unit variant. Without
// unit strides, alignment widens no copy: the aligned variant is the
// generic one's code, which its launches run.
// clang-format off
// CHECK-LABEL: // matmul_ptrs_c0_unit:
// CHECK-SAME: strides == 1
// CHECK-NOT: _smem[
// CHECK: { // pipeline: x, y in 3 shared-memory stages, prefetched 2 iterations ahead; one dot left in flight
// CHECK: for (int stage = 0; stage < 2; ++stage) {
// CHECK: const int kb = 0 + stage * 1;
// CHECK: const int t[[SA:[0-9]+]] = (64 * stride_ak);
// CHECK: const int t[[SB:[0-9]+]] = (64 * stride_bk);
// CHECK: a_ptrs_1_ahead[e] = a_ptrs_1[e] + stage * t[[SA]];
// CHECK: b_ptrs_1_ahead[e] = b_ptrs_1[e] + stage * t[[SB]];
// CHECK: rt::cp_async_v<8>(
// CHECK-NEXT: x_dst.template at<L{{[0-9]+}}, false>(e), a_ptrs_1_ahead[e],
// CHECK: rt::cp_async_v<8>(
// CHECK-NEXT: y_dst.template at<L{{[0-9]+}}, false>(e), b_ptrs_1_ahead[e],
// CHECK: for (int kb = 0; kb < t{{[0-9]+}}; kb += 1) {
// CHECK: rt::mma_tiles<L{{[0-9]+}}, rt::f16, 1>(
// CHECK: a_ptrs_2[e] = (a_ptrs_1[e] + t[[SA]]);
// CHECK: const int kb_ahead = kb + 2 * 1;
// CHECK: a_ptrs_1_ahead_1[e] = a_ptrs_1[e] + 2 * t[[SA]];
// CHECK: b_ptrs_1_ahead_1[e] = b_ptrs_1[e] + 2 * t[[SB]];
// CHECK: rt::cp_async_v<8>(
// CHECK: rt::cp_async_v<8>(
// CHECK: a_ptrs_1[e] = a_ptrs_1_next[e];
// CHECK: read_stage = read_stage + 1 == 3 ? 0 : read_stage + 1;
// CHECK-LABEL: // matmul_ptrs_c0_generic:
// CHECK-SAME: also the kernel of aligned16 launches (the same code)
// CHECK-NOT: _smem[
// CHECK: { // pipeline: x, y in 3 shared-memory stages
// CHECK: rt::copy_v<1>(x_dst.template at<L{{[0-9]+}}, false>(e), a_ptrs_1_ahead[e],
// clang-format on
