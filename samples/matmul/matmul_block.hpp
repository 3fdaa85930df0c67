// One BM x BN block of a matrix product, the matmul sample's and the one
// fused_linear_cross_entropy's three products share: C = A B, C = A B + C
// (ADD_C, C read in its own type where read_c holds: the first of several
// accumulations into C writes it without reading it), any operand given
// transposed. A is M x K
// row-major, or with AT its transpose (K x M row-major); B is K x N, or with
// BT its transpose (N x K). Offsets are 32-bit: the callers keep every
// operand under 2^31 elements. Fused epilogues: ACT = 1 applies a leaky ReLU
// before the store; ACT = SCALED multiplies the product by alpha (not C:
// alpha must not be zero).
#pragma once

#include <cstdint>
#include <tile/tile.hpp>
#include <type_traits>

constexpr int SCALED = 2;

template <class T, class TC, bool AT, bool BT, bool ADD_C, int BM, int BN,
          int BK, int ACT>
void matmul_block(const T *a, const T *b, TC *c, int m, int n, int k, int pid_m,
                  int pid_n, [[maybe_unused]] float alpha = 1.0f,
                  [[maybe_unused]] bool read_c = true) {
  using Acc = std::conditional_t<std::is_integral_v<T>, int32_t, float>;
  auto rm = pid_m * BM + tile::arange<BM>();
  auto rn = pid_n * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  // C's block, computed where it is read and where it is written, so that
  // no thread holds its pointers through the loop.
  auto c_ptrs = [&] {
    return c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn);
  };
  auto c_mask = [&] {
    return tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n);
  };
  auto acc = tile::zeros<Acc, BM, BN>();
  // C is read before the loop, where the pipeline's first loads hide its
  // latency (after it, the read would hold up every program's end); scaled
  // by 1 / alpha so that the epilogue's multiply leaves C + alpha A B.
  // Where read_c does not hold, the masked load reads no memory.
  if constexpr (ADD_C && ACT == SCALED)
    acc = tile::cast<Acc>(tile::load(c_ptrs(), c_mask() && read_c)) *
          (1.0f / alpha);
  else if constexpr (ADD_C)
    acc = tile::cast<Acc>(tile::load(c_ptrs(), c_mask() && read_c));
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x_ptrs = a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk);
    if constexpr (AT)
      x_ptrs = a + tile::expand_dims<1>(rm) + tile::expand_dims<0>(kk) * m;
    auto x = tile::load(x_ptrs, tile::expand_dims<1>(rm < m) &&
                                    tile::expand_dims<0>(kk < k));
    auto y_ptrs = b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn);
    if constexpr (BT)
      y_ptrs = b + tile::expand_dims<1>(kk) + tile::expand_dims<0>(rn) * k;
    auto y = tile::load(y_ptrs, tile::expand_dims<1>(kk < k) &&
                                    tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  if constexpr (ACT == 1)
    acc = tile::where(acc >= 0.0f, acc, acc * 0.01f);
  if constexpr (ACT == SCALED)
    acc = acc * alpha;
  tile::store(c_ptrs(), tile::cast<TC>(acc), c_mask());
}

/// One program per block of C, in grouped order: programs walk the output
/// in groups of GROUP_M block rows so that the blocks of A and B they share
/// stay in L2.
template <class T, class TC, bool AT, bool BT, bool ADD_C, int BM, int BN,
          int BK, int GROUP_M, int ACT>
void matmul_program(const T *a, const T *b, TC *c, int m, int n, int k,
                    float alpha = 1.0f, bool read_c = true) {
  const int pid = tile::program_id(0);
  const int blocks_m = tile::cdiv(m, BM), blocks_n = tile::cdiv(n, BN);
  const auto [pid_m, pid_n] = tile::swizzle2d(pid / blocks_n, pid % blocks_n,
                                              blocks_m, blocks_n, GROUP_M);
  matmul_block<T, TC, AT, BT, ADD_C, BM, BN, BK, ACT>(a, b, c, m, n, k, pid_m,
                                                      pid_n, alpha, read_c);
}
