// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s < %t/mm_desc.cu
// RUN: %FileCheck %s --check-prefix=BLOCK < %t/mm_block.cu
// RUN: %tilecc %s --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %tilecc %s --emit=ir -DTILE_DEBUG --kernel=mm_desc | %FileCheck %s --check-prefix=DEBUG
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_desc.cu -o %t/desc90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/mm_desc.cu -o %t/desc80.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/mm_block.cu -o %t/block90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/mm_block.cu -o %t/block80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/mm_desc.hip -o %t.hip/desc.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/mm_block.hip -o %t.hip/block.o %}
// clang-format on
//
// Triton's tensor descriptors (tutorial 09 as written upstream) and block
// pointers (tutorial 03's block-pointer form) lower to the pointers and
// bounds masks a kernel would write by hand, each dimension's test
// `0 <= o + arange < shape`: the same pipelined K loop, the same TMA
// variant on sm_90a (the tensor map's extent from the shape, TMA's zero
// fill for the masked elements), the same TMA store of C. A block pointer
// advanced in the loop is carried as its offsets, scalars.
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
TILE_KERNEL void mm_desc(const tile::half *a, const tile::half *b,
                         tile::half *c, int m, int n, int k) {
  auto a_desc = tile::make_tensor_descriptor<BM, BK>(a, {m, k}, {k, 1});
  auto b_desc = tile::make_tensor_descriptor<BN, BK>(b, {n, k}, {k, 1});
  auto c_desc = tile::make_tensor_descriptor<BM, BN>(c, {m, n}, {n, 1});
  const int om = tile::program_id(0) * BM, on = tile::program_id(1) * BN;
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto x = a_desc.load({om, k0});
    auto y = b_desc.load({on, k0});
    acc = tile::dot(x, tile::trans(y), acc);
  }
  c_desc.store({om, on}, tile::cast<tile::half>(acc));
}
TILE_CONFIGS(mm_desc, tile::config{.meta = {128, 128, 64}, .num_warps = 4,
                                   .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(mm_desc)
tile::grid mm_desc_grid(const tile::half *, const tile::half *, tile::half *,
                        int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm_block(const tile::half *a, const tile::half *b, float *c,
                          int m, int n, int k, int lda) {
  const int om = tile::program_id(0) * BM, on = tile::program_id(1) * BN;
  auto a_ptr = tile::make_block_ptr<BM, BK>(a, {m, k}, {lda, 1}, {om, 0});
  auto b_ptr = tile::make_block_ptr<BK, BN>(b, {k, n}, {n, 1}, {0, on});
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto x = tile::load(a_ptr, tile::boundary_check<0, 1>);
    auto y = tile::load(b_ptr, tile::boundary_check<0, 1>);
    acc = tile::dot(x, y, acc);
    a_ptr = tile::advance(a_ptr, {0, BK});
    b_ptr = tile::advance(b_ptr, {BK, 0});
  }
  auto c_ptr = tile::make_block_ptr<BM, BN>(c, {m, n}, {n, 1}, {om, on});
  tile::store(c_ptr, acc, tile::boundary_check<0, 1>);
}
TILE_CONFIGS(mm_block, tile::config{.meta = {128, 128, 64}, .num_warps = 4,
                                    .num_stages = 3});
template <int BM, int BN, int BK>
TILE_GRID(mm_block)
tile::grid mm_block_grid(const tile::half *, const tile::half *, float *, int m,
                         int n, int, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

// clang-format off
// The descriptors' boxes are TMA copies: the corner (k0, om), the tensor map's
// extent the descriptor's shape, its row stride the descriptor's.
// CHECK-LABEL: mm_desc_c0_aligned16_tma(
// CHECK: rt::tma_load_tile(x_stage{x_ring + stage * x_stage::elems}, &x_map,
// CHECK-NEXT: full + stage, k0, om);
// CHECK-NEXT: rt::tma_load_tile(y_stage{y_ring + stage * y_stage::elems}, &y_map,
// CHECK-NEXT: full + stage, k0, on);
// CHECK: rt::tma_store_tile(&[[C:t[0-9]+]]_map, [[C]]_out, on, om);
// CHECK-LABEL: launch_mm_desc_c0_aligned16_tma(
// CHECK: rt::encode_tensor_map<rt::smem_tile<rt::f16, 128, 64>>(&x_map, a, k,
// CHECK-NEXT: m, k);
// CHECK: rt::encode_tensor_map<rt::smem_tile<rt::f16, 128, 128>>(&[[C]]_map, c,
// CHECK-NEXT: n, m, n);
// Below sm_90 the same boxes are cp.async copies of 8 halves, masked by both
// bounds of each dimension.
// CHECK-LABEL: mm_desc_c0_aligned16(
// CHECK: rt::cp_async_v<8>(
// CHECK: live && ((([[ROW:t[0-9]+]][rt::broadcast_index<{{L[0-9]+}}, {{L[0-9]+}}>(e)] >= 0) &
// CHECK-NEXT: ([[ROW]][rt::broadcast_index<{{L[0-9]+}}, {{L[0-9]+}}>(e)] < m)) &

// The block pointers' offsets are not carried: each is its start plus the
// iterations' advances, (k0 - 0) here, which the prefetch computes for the
// iteration ahead; base, shape and strides are the values they were made
// from.
// BLOCK-LABEL: mm_block_c0_aligned16_tma(
// BLOCK: const int k0 = 0 + stage * 64;
// BLOCK-NEXT: if (k0 < k && threadIdx.x == 0) {
// BLOCK-NEXT: const int [[D:t[0-9]+]] = (k0 - 0);
// BLOCK-NEXT: const int a_ptr_offset1 = (0 + [[D]]);
// BLOCK: rt::tma_load_tile(x_stage{x_ring + stage * x_stage::elems}, &x_map,
// BLOCK-NEXT: full + stage, a_ptr_offset1, om);
// BLOCK: rt::tma_load_tile(y_stage{y_ring + stage * y_stage::elems}, &y_map,
// BLOCK-NEXT: full + stage, on, b_ptr_offset0);
// BLOCK: const int k0_ahead = k0 + 2 * 64;
// BLOCK: rt::tma_store_tile(&acc_map, acc_out, on, om);
// BLOCK-LABEL: mm_block_c0_aligned16(
// BLOCK-NOT: a_ptr_base
// BLOCK-NOT: a_ptr_offset0
// BLOCK: rt::cp_async_v<8>(
// BLOCK-LABEL: mm_block_c0_generic(

// In TileIR, each dimension's index and its test against both ends; the loop
// carries only the accumulator, the block pointers' offsets computed from k0.
// IR-LABEL: func @mm_desc(
// IR: %[[O:[0-9]+]] = add %{{[0-9]+}}, %{{[0-9]+}} : tensor<i32, [128]>
// IR-NEXT: expand_dims {axis = 1} %[[O]] : tensor<i32, [128, 1]>
// IR: ge %[[O]], %{{[0-9]+}} : tensor<i1, [128]>
// IR: lt %[[O]], %{{[0-9]+}} : tensor<i1, [128]>
// IR: load %{{[0-9]+}}, %{{[0-9]+}} : tensor<f16, [128, 64]>
// IR-LABEL: func @mm_block(
// IR: for {{.*}} -> iv %[[K0:[0-9]+]].k0 iter %{{[0-9]+}}.acc : tensor<f32, [128, 128]>
// IR-NEXT: {
// IR-NEXT: %[[D:[0-9]+]] = sub %[[K0]].k0, %{{[0-9]+}} : i32
// IR-NEXT: %{{[0-9]+}}.a_ptr_offset1 = add %{{[0-9]+}}.a_ptr_offset1, %[[D]] : i32
// With TILE_DEBUG each descriptor checks, in 64 bits, that its tensor lies
// within 2^31 elements of its base, the reach of the 32-bit offsets.
// DEBUG: %[[S:[0-9]+]] = cast %{{[0-9]+}}.m : i64
// DEBUG: %[[R:[0-9]+]] = mul %{{[0-9]+}}, %{{[0-9]+}} : i64
// DEBUG: le %{{[0-9]+}}, %{{[0-9]+}} : i1
// DEBUG: device_assert {message = "a tensor descriptor or block pointer addresses its elements with 32-bit offsets"}
// clang-format on
