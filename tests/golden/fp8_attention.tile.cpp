// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/attention_e4m3.cu
// RUN: %FileCheck %s --check-prefix=MAPS < %t/attention_e4m3.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/attention_e4m3.cu -o %t/sm90a.o -Xptxas=-v 2>&1 | %not grep -E "C7514|[1-9][0-9]* bytes spill" %}
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/attention_e4m3.cu -o %t.80/sm80.o %}
// clang-format on
//
// Attention in fp8 (e4m3 Q, K and V, V given transposed: fp8 tensor cores
// read B only K-major). Both dots are pipelined. Q, loaded before the
// loop, is loop-invariant: it is read from shared memory, written there
// once, since from registers every iteration would exchange its fragments
// among threads again. P is cast to e4m3 two elements an instruction
// (rt::convert_pair) and goes to the second dot from registers, in S's
// accumulator layout (rt::fragment, which exchanges each row's column pairs
// among its four threads into fragments of four consecutive k). V^T's
// boxes come by TMA from a stack of D x seq tensors whose outer extent is
// the box's (no mask on D), and with a producer warpgroup the loop is
// rotated as 16-bit attention's is. On sm_80 the products run on fp16
// tensor cores (rt::mma_sync_tiles widens the fragments).
//
// CHECK-LABEL: attention_e4m3_c0_aligned16_tma(
// CHECK: rt::tma_load_tile(v_stage
// CHECK: // Loop-invariant 8-bit A operands, read from shared memory: from registers, every iteration would exchange them among threads.
// CHECK-NEXT: const auto [[Q:t[0-9]+]]_resident = rt::stage_operand<L{{[0-9]+}}, false, true>(
// CHECK: rt::mma_tiles<L{{[0-9]+}}, rt::f8e4m3>(
// CHECK-NEXT: [[Q]]_resident,
// CHECK: for (int e = 0; e < 64; e += 2)
// CHECK-NEXT: rt::convert_pair([[P:t[0-9]+]][e], [[P]][e + 1], p[e], p[e + 1]);
// CHECK: rt::mma_tiles<L{{[0-9]+}}, rt::f8e4m3>(
// CHECK-NEXT: rt::fragment<L{{[0-9]+}}>([[P]]),
//
// CHECK-LABEL: // attention_e4m3_c1_aligned16_tma:
// CHECK-SAME: rotated: each iteration issues its first dot, then the previous iteration's last.
// CHECK: rt::convert_pair(
// CHECK: rt::fragment<L{{[0-9]+}}>(
//
// MAPS: &v_map, vt, seq, 64, seq, std::uint64_t(64) * seq);
#include <cmath>
#include <tile/tile.hpp>

template <int BM, int BN, int D>
TILE_KERNEL void attention_e4m3(const tile::float8_e4m3 *q,
                                const tile::float8_e4m3 *k,
                                const tile::float8_e4m3 *vt, tile::half *o,
                                float qk_scale, int seq) {
  const long head = static_cast<long>(tile::program_id(1)) * seq * D;
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto in_seq = tile::expand_dims<1>(rows < seq);
  auto q_tile = tile::load(q + head + tile::expand_dims<1>(rows) * D +
                               tile::expand_dims<0>(rd),
                           in_seq);
  auto m_i = tile::full<BM>(-INFINITY);
  auto l_i = tile::full<BM>(0.0f);
  auto acc = tile::zeros<float, BM, D>();
  for (int n0 = 0; n0 < seq; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    auto keys = tile::expand_dims<0>(cols < seq);
    auto kt = tile::load(k + head + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(cols) * D,
                         keys);
    auto s = tile::where(keys, tile::dot(q_tile, kt), -INFINITY);
    auto m_new = tile::maximum(m_i, tile::max<1>(s) * qk_scale);
    auto p = tile::exp2(s * qk_scale - tile::expand_dims<1>(m_new));
    auto alpha = tile::exp2(m_i - m_new);
    l_i = l_i * alpha + tile::sum<1>(p);
    auto v = tile::load(vt + head + tile::expand_dims<1>(rd) * seq +
                            tile::expand_dims<0>(cols),
                        keys);
    acc = tile::dot(tile::cast<tile::float8_e4m3>(p), tile::trans(v),
                    acc * tile::expand_dims<1>(alpha));
    m_i = m_new;
  }
  tile::store(o + head + tile::expand_dims<1>(rows) * D +
                  tile::expand_dims<0>(rd),
              tile::cast<tile::half>(acc / tile::expand_dims<1>(l_i)), in_seq);
}
TILE_CONFIGS(attention_e4m3,
             tile::config{.meta = {128, 128, 64}, .num_warps = 8, .num_stages = 2},
             tile::config{.meta = {128, 128, 64},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true});
template <int BM, int BN, int D>
TILE_GRID(attention_e4m3)
tile::grid attention_e4m3_grid(const tile::float8_e4m3 *,
                               const tile::float8_e4m3 *,
                               const tile::float8_e4m3 *, tile::half *, float,
                               int seq) {
  return {tile::cdiv(seq, BM), 1};
}
