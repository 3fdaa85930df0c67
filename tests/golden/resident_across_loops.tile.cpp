// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s --check-prefix=TWICE < %t/twice.cu
// RUN: %FileCheck %s --check-prefix=BETWEEN < %t/ring_between.cu
// RUN: %FileCheck %s --check-prefix=NESTED < %t/nested.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/twice.cu -o %t/twice.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/ring_between.cu -o %t/ring_between.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/nested.cu -o %t/nested.o %}
// RUN: rm -rf %t.80 && %tilecc %s -o %t.80 --target sm_80
// RUN: %FileCheck %s --check-prefix=TWICE < %t.80/twice.cu
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/twice.cu -o %t.80/twice.o %}
// clang-format on
//
// Loops one after another over the same loop-invariant operands (the
// attention backward's key blocks: the queries on the diagonal, then the
// whole blocks, then the last partial one) would each write them to shared
// memory again, and keep their registers alive until the last loop only
// for that. A later loop of the same block whose resident operand goes to
// the very bytes an earlier loop wrote it to reads it there (rt::b_operand,
// rt::operand: the view alone), with no fence or barrier of its own: the
// earlier loop's barriers cover it.
//
// It writes it again where the bytes may have changed in between: a loop
// whose ring reaches over them (ring_between: 4 stages of 16 KB), and
// wherever the later loop is in another block (nested: the body of an if;
// tilecc does not follow control flow, and in the body of an enclosing
// loop the next iteration would find what this one's later loops wrote).
#include <tile/tile.hpp>

/// Offsets of an R x D row-major block.
template <int R, int D> tile::tensor<int, R, D> block_at() {
  return tile::expand_dims<1>(tile::arange<R>()) * D +
         tile::expand_dims<0>(tile::arange<D>());
}

/// acc += (K Q^T) W over Q's row blocks [lo, hi), BM at a time.
template <int BN, int BM, int D, int S>
tile::tensor<float, BN, D>
key_rows(const tile::tensor<tile::half, BN, D> &k_blk,
         const tile::tensor<tile::half, BM, D> &w_blk,
         tile::tensor<float, BN, D> acc, const tile::half *q, int lo, int hi,
         int m) {
  for (int m0 : tile::range(lo, hi, BM, S)) {
    auto in_q = tile::expand_dims<1>(m0 + tile::arange<BM>() < m);
    auto q_blk = tile::load(q + m0 * D + block_at<BM, D>(), in_q);
    acc =
        tile::dot(tile::cast<tile::half>(tile::dot(k_blk, tile::trans(q_blk))),
                  w_blk, acc);
  }
  return acc;
}

// What lies between the two loops over Q's rows.
constexpr int nothing = 0, wide_ring = 1, if_body = 2;

/// dk = the products of K's block with Q's rows [0, split), then [split,
/// m): with nothing between the loops, with a loop over Q's first 2 * BM
/// rows again in 4 stages between them (its ring takes 64 KB), or with the
/// second loop in an if's body.
template <int BN, int BM, int D, int BETWEEN>
void two_passes(const tile::half *k, const tile::half *q, const tile::half *w,
                float *dk, int split, int m) {
  auto k_blk = tile::load(k + block_at<BN, D>());
  auto w_blk = tile::load(w + block_at<BM, D>());
  auto acc = key_rows<BN, BM, D, 2>(k_blk, w_blk, tile::zeros<float, BN, D>(),
                                    q, 0, split, m);
  if (BETWEEN == wide_ring) {
    auto sum = tile::zeros<float, BN, 2 * BM>();
    auto rd = tile::arange<D>();
    for (int m0 : tile::range(0, split, 2 * BM, 4)) {
      auto rows = m0 + tile::arange<2 * BM>();
      sum = tile::dot(k_blk,
                      tile::load(q + tile::expand_dims<1>(rd) +
                                     tile::expand_dims<0>(rows) * D,
                                 tile::expand_dims<0>(rows < m)),
                      sum);
    }
    acc = acc + tile::expand_dims<1>(tile::sum<1>(sum));
  }
  if (BETWEEN != if_body || split < m)
    acc = key_rows<BN, BM, D, 2>(k_blk, w_blk, acc, q, split, m, m);
  tile::store(dk + block_at<BN, D>(), acc);
}

template <int BN, int BM, int D>
TILE_KERNEL void twice(const tile::half *k, const tile::half *q,
                       const tile::half *w, float *dk, int split, int m) {
  two_passes<BN, BM, D, nothing>(k, q, w, dk, split, m);
}
TILE_CONFIGS(twice, tile::config{.meta = {64, 64, 64}, .num_warps = 4});

template <int BN, int BM, int D>
TILE_GRID(twice)
tile::grid twice_grid(const tile::half *, const tile::half *,
                      const tile::half *, float *, int, int) {
  return {1};
}

template <int BN, int BM, int D>
TILE_KERNEL void ring_between(const tile::half *k, const tile::half *q,
                              const tile::half *w, float *dk, int split,
                              int m) {
  two_passes<BN, BM, D, wide_ring>(k, q, w, dk, split, m);
}
TILE_CONFIGS(ring_between, tile::config{.meta = {64, 64, 64}, .num_warps = 4});

template <int BN, int BM, int D>
TILE_GRID(ring_between)
tile::grid ring_between_grid(const tile::half *, const tile::half *,
                             const tile::half *, float *, int, int) {
  return {1};
}

template <int BN, int BM, int D>
TILE_KERNEL void nested(const tile::half *k, const tile::half *q,
                        const tile::half *w, float *dk, int split, int m) {
  two_passes<BN, BM, D, if_body>(k, q, w, dk, split, m);
}
TILE_CONFIGS(nested, tile::config{.meta = {64, 64, 64}, .num_warps = 4});

template <int BN, int BM, int D>
TILE_GRID(nested)
tile::grid nested_grid(const tile::half *, const tile::half *,
                       const tile::half *, float *, int, int) {
  return {1};
}

// clang-format off
// TWICE: __global__
// TWICE: { // pipeline: q_blk in 2 shared-memory stages
// TWICE: // Loop-invariant B operands, written to shared memory once rather than by each iteration's dot.
// TWICE-NEXT: const auto w_blk_resident =
// TWICE-NEXT: rt::stage_b<[[BL:L[0-9]+]]>(rt::dynamic_smem<rt::f16>([[AT:[0-9]+]]), w_blk);
// TWICE-NEXT: rt::fence_proxy_async();
// TWICE-NEXT: __syncthreads();
// TWICE: rt::dot_mma<{{L[0-9]+}}, [[BL]], {{L[0-9]+}}>({{t[0-9]+}}, w_blk_resident,
// TWICE: { // pipeline: q_blk_1 in 2 shared-memory stages
// TWICE: // Loop-invariant B operands, written to shared memory once rather than by each iteration's dot.
// TWICE-NEXT: // Still in shared memory: written before the earlier loop at line 43.
// TWICE-NEXT: const auto w_blk_resident_1 =
// TWICE-NEXT: rt::b_operand<[[BL]]>(rt::dynamic_smem<rt::f16>([[AT]]));
// TWICE-NEXT: for (
// TWICE: rt::dot_mma<{{L[0-9]+}}, [[BL]], {{L[0-9]+}}>({{t[0-9]+}}, w_blk_resident_1,
// TWICE: cudaError_t launch_twice_c0

// BETWEEN: __global__
// BETWEEN: rt::stage_b<[[BL:L[0-9]+]]>(rt::dynamic_smem<rt::f16>([[AT:[0-9]+]]), w_blk);
// BETWEEN: in 4 shared-memory stages
// BETWEEN-NOT: rt::b_operand
// BETWEEN: rt::stage_b<[[BL]]>(rt::dynamic_smem<rt::f16>([[AT]]), w_blk);
// BETWEEN-NEXT: rt::fence_proxy_async();
// BETWEEN: cudaError_t launch_ring_between_c0

// NESTED: __global__
// NESTED: rt::stage_b<[[BL:L[0-9]+]]>(rt::dynamic_smem<rt::f16>([[AT:[0-9]+]]), w_blk);
// NESTED: if ({{t[0-9]+}}) {
// NESTED-NOT: rt::b_operand
// NESTED: rt::stage_b<[[BL]]>(rt::dynamic_smem<rt::f16>([[AT]]), w_blk);
// NESTED: cudaError_t launch_nested_c0
