// A CPU model of v_mfma_f32_32x32x8 and v_mfma_f32_16x16x16 (f16, bf16_1k
// and i8: the same lanes), v_mfma_f32_32x32x2f32 and v_mfma_f32_16x16x4f32,
// written from AMD's matrix instruction layouts, and rt::dot_mfma's index
// arithmetic (tile/rt/mfma.cuh) checked against it on the accumulator
// layouts the translator assigns: every element of every thread must be
// the product's element at the layout's coordinates. The HIP path is
// compiled, not run, here; this is what says its lanes hold what the
// instruction computes.

#include "RuntimeOnHost.h"
#include <tile/rt/mfma.cuh>
#include <tile/types.hpp>

#include "analysis/Layout.h"

#include <doctest/doctest.h>

#include <array>
#include <type_traits>
#include <vector>

namespace rt = tile::rt;

namespace {

constexpr int Lanes = 64;

/// One wavefront's registers for one instruction.
struct Wave {
  std::array<std::array<float, 4>, Lanes> A, B;
  std::array<std::array<float, 16>, Lanes> D;
};

/// v_mfma_f32_32x32x8 (Depth 8) or v_mfma_f32_32x32x2f32 (Depth 2): D +=
/// A B, 32 x Depth by Depth x 32, as AMD's matrix instruction calculator
/// lays the lanes out: lane l's operand register i < Depth / 2 holds
/// A[l % 32][Depth / 2 (l / 32) + i] and B[Depth / 2 (l / 32) + i][l % 32];
/// its accumulator register j is D[8 (j / 4) + 4 (l / 32) + j % 4][l % 32].
template <int Depth> void mfma32Model(Wave &W) {
  constexpr int Regs = Depth / 2;
  float A[32][Depth], B[Depth][32];
  for (int L = 0; L < Lanes; ++L)
    for (int I = 0; I < Regs; ++I) {
      A[L % 32][Regs * (L / 32) + I] = W.A[L][I];
      B[Regs * (L / 32) + I][L % 32] = W.B[L][I];
    }
  for (int L = 0; L < Lanes; ++L)
    for (int J = 0; J < 16; ++J) {
      const int Row = 8 * (J / 4) + 4 * (L / 32) + J % 4, Col = L % 32;
      for (int K = 0; K < Depth; ++K)
        W.D[L][J] += A[Row][K] * B[K][Col];
    }
}

/// v_mfma_f32_16x16x16 (Depth 16) or v_mfma_f32_16x16x4f32 (Depth 4): D +=
/// A B, 16 x Depth by Depth x 16: lane l's operand register i < Depth / 4
/// holds A[l % 16][Depth / 4 (l / 16) + i] and B[Depth / 4 (l / 16) +
/// i][l % 16]; its accumulator register j < 4 is D[4 (l / 16) + j][l % 16].
template <int Depth> void mfma16Model(Wave &W) {
  constexpr int Regs = Depth / 4;
  float A[16][Depth], B[Depth][16];
  for (int L = 0; L < Lanes; ++L)
    for (int I = 0; I < Regs; ++I) {
      A[L % 16][Regs * (L / 16) + I] = W.A[L][I];
      B[Regs * (L / 16) + I][L % 16] = W.B[L][I];
    }
  for (int L = 0; L < Lanes; ++L)
    for (int J = 0; J < 4; ++J) {
      const int Row = 4 * (L / 16) + J, Col = L % 16;
      for (int K = 0; K < Depth; ++K)
        W.D[L][J] += A[Row][K] * B[K][Col];
    }
}

/// Runs dot_mfma's arithmetic for accumulator layout LC (M x N) and K of
/// T operands on small integers (exact in float), through the model, and
/// checks each thread's elements against the product at LC's coordinates.
template <class LC, int K, class Elem = tile::half>
void checkProduct(int Warps) {
  constexpr int M = LC::shape(0), N = LC::shape(1);
  static_assert(rt::detail::is_mfma_accumulator<LC>());
  using I = rt::mfma_instruction<Elem, rt::mfma_tile<LC>>;
  std::vector<float> A(M * K), B(K * N), C(M * N, 0);
  for (int X = 0; X < M * K; ++X)
    A[X] = float(X * 7 % 11) - 5;
  for (int X = 0; X < K * N; ++X)
    B[X] = float(X * 5 % 13) - 6;
  for (int R = 0; R < M; ++R)
    for (int Q = 0; Q < N; ++Q)
      for (int P = 0; P < K; ++P)
        C[R * N + Q] += A[R * K + P] * B[P * N + Q];
  constexpr int TM = LC::warp_reps(0) / (I::acc_regs / 4),
                TN = LC::warp_reps(1);
  for (int W = 0; W < Warps; ++W) {
    // Each lane's registers, as dot_mfma fills them.
    std::vector<Wave> Tiles(TM * TN);
    for (int L = 0; L < Lanes; ++L) {
      threadIdx.x = W * Lanes + L;
      for (Wave &T : Tiles)
        T.D[L].fill(0);
    }
    for (int K0 = 0; K0 < K; K0 += I::k) {
      for (int TI = 0; TI < TM * TN; ++TI) {
        Wave &T = Tiles[TI];
        for (int L = 0; L < Lanes; ++L) {
          threadIdx.x = W * Lanes + L;
          const int Row =
              rt::mfma_origin<LC>(0) + TI / TN * I::m + I::operand_row(L);
          const int Col =
              rt::mfma_origin<LC>(1) + TI % TN * I::n + I::operand_row(L);
          for (int R = 0; R < I::operand_regs; ++R) {
            T.A[L][R] = A[Row * K + K0 + I::operand_k(L) + R];
            T.B[L][R] = B[(K0 + I::operand_k(L) + R) * N + Col];
          }
        }
        if constexpr (I::m == 32)
          mfma32Model<I::k>(T);
        else
          mfma16Model<I::k>(T);
      }
    }
    // Each accumulator element where dot_mfma reads it back.
    for (int L = 0; L < Lanes; ++L) {
      threadIdx.x = W * Lanes + L;
      for (int E = 0; E < LC::elems(); ++E) {
        const int Slot = rt::mfma_slot<LC>(E), Tile = Slot / I::acc_regs;
        const int Row = LC::coord(E, 0), Col = LC::coord(E, 1);
        INFO("warp " << W << " lane " << L << " element " << E);
        CHECK(Tiles[Tile].D[L][Slot % I::acc_regs] == C[Row * N + Col]);
      }
    }
  }
}

/// The rt spelling of the translator's mfmaAccumulator for Shape and
/// Warps, checked field by field against it.
template <class LC> void checkMatchesTranslator(unsigned Warps) {
  auto L = tilecc::analysis::mfmaAccumulator({LC::shape(0), LC::shape(1)},
                                             Warps, rt::mfma_tile<LC>);
  REQUIRE(L);
  CHECK(L->Mfma);
  for (int D = 0; D < 2; ++D) {
    CHECK(L->SizePerThread[D] == unsigned(LC::size_per_thread(D)));
    CHECK(L->ThreadsPerWarp[D] == unsigned(LC::threads_per_warp(D)));
    CHECK(L->WarpsPerCTA[D] == unsigned(LC::warps_per_cta(D)));
    CHECK(L->WarpReps[D] == unsigned(LC::warp_reps(D)));
    CHECK(L->Order[D] == unsigned(LC::order(D)));
  }
  CHECK(L->WarpOrder.empty());
}

template <int M, int N, int WM, int WN>
using Accumulator = rt::blocked<rt::dims{M, N}, rt::dims{4, 1}, rt::dims{2, 32},
                                rt::dims{WM, WN}, rt::dims{1, 0},
                                rt::dims{4 * M / (32 * WM), N / (32 * WN)}>;

template <int M, int N, int WM, int WN>
using Accumulator16 =
    rt::blocked<rt::dims{M, N}, rt::dims{4, 1}, rt::dims{4, 16},
                rt::dims{WM, WN}, rt::dims{1, 0},
                rt::dims{M / (16 * WM), N / (16 * WN)}>;

} // namespace

TEST_CASE("mfma: the instruction's lanes, as the model lays them out") {
  using I = rt::mfma_32x32x8;
  using F = rt::mfma_32x32x2;
  static_assert(std::is_same_v<rt::mfma_instruction<float>, F>);
  static_assert(std::is_same_v<rt::mfma_instruction<int8_t>, I>);
  CHECK(F::operand_regs == 1);
  for (int L = 0; L < Lanes; ++L) {
    CHECK(I::operand_row(L) == L % 32);
    CHECK(I::operand_k(L) == 4 * (L / 32));
    CHECK(F::operand_row(L) == L % 32);
    CHECK(F::operand_k(L) == L / 32);
  }
  using I16 = rt::mfma_16x16x16;
  using F16 = rt::mfma_16x16x4;
  static_assert(std::is_same_v<rt::mfma_instruction<float, 16>, F16>);
  static_assert(std::is_same_v<rt::mfma_instruction<tile::half, 16>, I16>);
  CHECK(I16::operand_regs == 4);
  CHECK(I16::acc_regs == 4);
  CHECK(F16::operand_regs == 1);
  for (int L = 0; L < Lanes; ++L) {
    CHECK(I16::operand_row(L) == L % 16);
    CHECK(I16::operand_k(L) == 4 * (L / 16));
    CHECK(F16::operand_k(L) == L / 16);
  }
}

TEST_CASE("mfma: fp32 operands, two deep") {
  checkProduct<Accumulator<32, 32, 1, 1>, 2, float>(1);
  checkProduct<Accumulator<32, 32, 1, 1>, 16, float>(1);
  checkProduct<Accumulator<128, 128, 2, 2>, 32, float>(4);
  checkProduct<Accumulator<64, 128, 2, 2>, 6, float>(4);
}

TEST_CASE("mfma: one wavefront, one tile") {
  checkMatchesTranslator<Accumulator<32, 32, 1, 1>>(1);
  checkProduct<Accumulator<32, 32, 1, 1>, 8>(1);
  checkProduct<Accumulator<32, 32, 1, 1>, 32>(1);
}

TEST_CASE("mfma: wavefronts over M and N, several tiles each") {
  // matmul's 128 x 128 with 4 wavefronts, 128 x 256 with 8, a 64 x 128
  // attention block with 4.
  checkMatchesTranslator<Accumulator<128, 128, 2, 2>>(4);
  checkProduct<Accumulator<128, 128, 2, 2>, 16>(4);
  checkMatchesTranslator<Accumulator<128, 256, 2, 4>>(8);
  checkProduct<Accumulator<128, 256, 2, 4>, 8>(8);
  checkMatchesTranslator<Accumulator<64, 128, 2, 2>>(4);
  checkProduct<Accumulator<64, 128, 2, 2>, 24>(4);
}

TEST_CASE("mfma: shapes the instruction cannot tile have no layout") {
  CHECK_FALSE(tilecc::analysis::mfmaAccumulator({16, 32}, 1));
  CHECK_FALSE(tilecc::analysis::mfmaAccumulator({32, 48}, 1));
  CHECK_FALSE(tilecc::analysis::mfmaAccumulator({32, 32}, 4));
}

TEST_CASE("mfma: 16 x 16 tiles, where 32 x 32 ones do not fit") {
  // 16 rows; a 32 x 32 block over 4 wavefronts; 64 x 64 over 8.
  CHECK_FALSE(tilecc::analysis::mfmaAccumulator({16, 32}, 1));
  checkMatchesTranslator<Accumulator16<16, 32, 1, 1>>(1);
  checkProduct<Accumulator16<16, 32, 1, 1>, 16>(1);
  checkProduct<Accumulator16<16, 32, 1, 1>, 48>(1);
  checkMatchesTranslator<Accumulator16<32, 32, 2, 2>>(4);
  checkProduct<Accumulator16<32, 32, 2, 2>, 32>(4);
  checkMatchesTranslator<Accumulator16<64, 64, 4, 2>>(8);
  checkProduct<Accumulator16<64, 64, 4, 2>, 16>(8);
  // fp32, 4 deep.
  checkProduct<Accumulator16<16, 32, 1, 1>, 4, float>(1);
  checkProduct<Accumulator16<32, 32, 2, 2>, 12, float>(4);
  // Nothing 16 x 16 tiles cannot cover.
  CHECK_FALSE(tilecc::analysis::mfmaAccumulator({16, 24}, 1, 16));
  CHECK_FALSE(tilecc::analysis::mfmaAccumulator({8, 16}, 1, 16));
  CHECK_FALSE(tilecc::analysis::mfmaAccumulator({16, 16}, 2, 16));
}
