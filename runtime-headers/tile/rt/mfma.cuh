// Matrix products on the matrix cores of AMD CDNA GPUs (gfx90a's MFMA
// instructions), the HIP counterpart of dot_mma. A wavefront of 64 lanes
// runs one of two shapes, T x T x K with T = 32 or 16:
//   32: v_mfma_f32_32x32x8f16 (bf16: v_mfma_f32_32x32x8bf16_1k; int8 into
//       int32: v_mfma_i32_32x32x8i8; fp32: v_mfma_f32_32x32x2f32, K = 2),
//   16: v_mfma_f32_16x16x16f16 (bf16: v_mfma_f32_16x16x16bf16_1k; int8:
//       v_mfma_i32_16x16x16i8; fp32: v_mfma_f32_16x16x4f32, K = 4),
// a T x K tile of A times a K x T tile of B added to a T x T accumulator.
// The lanes form G = 64 / T groups of T; by AMD's matrix instruction
// layouts lane l holds, with R = K / G operand registers,
//   A[l % T][R (l / T) + i] and B[R (l / T) + i][l % T], i < R,
//   and accumulator register j < T T / 64: D[4 G (j / 4) + 4 (l / T) +
//   j % 4][l % T].
// The accumulator's tile layout is a blocked one that says the same
// (analysis/Layout.h's mfmaAccumulator): 4 rows a thread, G x T lanes,
// each wavefront repeating the T x T tile over its block. The index
// arithmetic is host-callable, so that tests check it against a model of
// the instructions (tests/unit/runtime_mfma_test.cpp).
#pragma once

#include "tile/rt/layout.cuh"

namespace tile::rt {

/// Where the lanes of one Tile x Tile x K MFMA instruction hold their
/// operands.
template <int Tile, int K> struct mfma_shape {
  static constexpr int m = Tile, n = Tile, k = K;
  /// Groups of Tile lanes, each holding its own k of every row.
  static constexpr int groups = 64 / Tile;
  /// Operand and accumulator registers per lane.
  static constexpr int operand_regs = K / groups, acc_regs = Tile * Tile / 64;
  /// The row of A (the column of B) lane l holds.
  TILE_RT_HD static constexpr int operand_row(int lane) { return lane % Tile; }
  /// Along k, the first of the operand_regs elements lane l holds.
  TILE_RT_HD static constexpr int operand_k(int lane) {
    return operand_regs * (lane / Tile);
  }
  /// The row of the accumulator register j of lane l.
  TILE_RT_HD static constexpr int acc_row(int lane, int j) {
    return 4 * groups * (j / 4) + 4 * (lane / Tile) + j % 4;
  }
};
using mfma_32x32x8 = mfma_shape<32, 8>;
using mfma_32x32x2 = mfma_shape<32, 2>;
using mfma_16x16x16 = mfma_shape<16, 16>;
using mfma_16x16x4 = mfma_shape<16, 4>;

/// The instruction of Tile (32 or 16) a dot of T operands runs: 16- and
/// 8-bit operands 8 deep at 32 (16 at 16), fp32 2 deep (4).
template <class T, int Tile = 32>
using mfma_instruction = mfma_shape<Tile, (sizeof(T) == 4 ? 2 : 8) * 32 / Tile>;

/// Rows of the operands in shared memory are this many elements longer
/// than K, so that the lanes reading the same k of consecutive rows spread
/// over the banks.
inline constexpr int mfma_row_pad = 4;

/// Bytes of shared memory dot_mfma stages a (M x K) and b (K x N, stored
/// transposed) of T in.
template <class T>
__host__ __device__ constexpr int dot_mfma_scratch(int m, int k, int n) {
  return (m + n) * (k + mfma_row_pad) * int(sizeof(T));
}

/// The instruction tile of MFMA accumulator layout L: its lanes along N.
template <class L> inline constexpr int mfma_tile = L::threads_per_warp(1);

namespace detail {

/// Whether L is an MFMA accumulator layout: a T x T tile (T = 32 or 16) of
/// 4 rows a thread in 64 / T x T lanes, repeated by each wavefront over a
/// block that the wavefronts cover exactly.
template <class L> TILE_RT_HD constexpr bool is_mfma_accumulator() {
  if constexpr (L::rank != 2)
    return false;
  else {
    constexpr int T = L::threads_per_warp(1);
    return (T == 32 || T == 16) && L::size_per_thread(0) == 4 &&
           L::size_per_thread(1) == 1 && L::threads_per_warp(0) == 64 / T &&
           L::order(0) == 1 && L::warp_reps(0) % (T * T / 256) == 0 &&
           L::reps(0) == L::warp_reps(0) && L::reps(1) == L::warp_reps(1) &&
           L::covers_exactly();
  }
}

/// Which accumulator register of which of its wavefront's T x T tiles
/// element e of an MFMA accumulator layout L is: (tile row * tiles per
/// row + tile column) * registers + register. A thread's 4 rows are j % 4;
/// at T = 32 its first 4 repetitions along M, 8 rows apart, are j / 4.
template <class L> struct mfma_register {
  TILE_RT_HD static constexpr int value(int e) {
    constexpr int T = mfma_tile<L>, Blocks = T * T / 256;
    const digits g = L::decompose(e);
    const int tile = g.r[0] / Blocks * L::warp_reps(1) + g.r[1];
    return tile * (T * T / 64) + 4 * (g.r[0] % Blocks) + g.s[0];
  }
};

} // namespace detail

/// The first row (d = 0) or column (d = 1) of the block this thread's
/// wavefront computes in MFMA accumulator layout L.
template <class L> __device__ int mfma_origin(int d) {
  return L::warp_pos(d) * L::warp_tile(d);
}

/// Register slot (tile * 16 + register, detail::mfma_register) of this
/// thread's accumulator element e in layout L.
template <class L> TILE_RT_HD constexpr int mfma_slot(int e) {
  return tabulated<detail::mfma_register<L>, L::elems()>(e);
}

} // namespace tile::rt

#if defined(__HIPCC__)
#include "tile/rt/sync.cuh"
#include "tile/rt/types.cuh"

namespace tile::rt {

namespace detail {

using mfma_f16x4 = _Float16 __attribute__((ext_vector_type(4)));
using mfma_i16x4 = short __attribute__((ext_vector_type(4)));
using mfma_f32x16 = float __attribute__((ext_vector_type(16)));
using mfma_i32x16 = int __attribute__((ext_vector_type(16)));
using mfma_f32x4 = float __attribute__((ext_vector_type(4)));
using mfma_i32x4 = int __attribute__((ext_vector_type(4)));

/// A lane's Regs accumulator registers for accumulator elements of TC.
template <class TC, int Regs> struct mfma_accumulator;
template <> struct mfma_accumulator<float, 16> { using type = mfma_f32x16; };
template <> struct mfma_accumulator<int, 16> { using type = mfma_i32x16; };
template <> struct mfma_accumulator<float, 4> { using type = mfma_f32x4; };
template <> struct mfma_accumulator<int, 4> { using type = mfma_i32x4; };

/// d + a b on the wavefront's matrix cores; a and b are a lane's
/// operand_regs elements, consecutive in shared memory.
__device__ __forceinline__ mfma_f32x16 mfma_32x32x8(const f16 *a, const f16 *b,
                                                    mfma_f32x16 d) {
  return __builtin_amdgcn_mfma_f32_32x32x8f16(
      *reinterpret_cast<const mfma_f16x4 *>(a),
      *reinterpret_cast<const mfma_f16x4 *>(b), d, 0, 0, 0);
}
__device__ __forceinline__ mfma_f32x16 mfma_32x32x8(const bf16 *a,
                                                    const bf16 *b,
                                                    mfma_f32x16 d) {
  return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(
      *reinterpret_cast<const mfma_i16x4 *>(a),
      *reinterpret_cast<const mfma_i16x4 *>(b), d, 0, 0, 0);
}
__device__ __forceinline__ mfma_i32x16 mfma_32x32x8(const int8_t *a,
                                                    const int8_t *b,
                                                    mfma_i32x16 d) {
  return __builtin_amdgcn_mfma_i32_32x32x8i8(*reinterpret_cast<const int *>(a),
                                             *reinterpret_cast<const int *>(b),
                                             d, 0, 0, 0);
}
__device__ __forceinline__ mfma_f32x16 mfma_32x32x2(const float *a,
                                                    const float *b,
                                                    mfma_f32x16 d) {
  return __builtin_amdgcn_mfma_f32_32x32x2f32(*a, *b, d, 0, 0, 0);
}
__device__ __forceinline__ mfma_f32x4 mfma_16x16x16(const f16 *a, const f16 *b,
                                                    mfma_f32x4 d) {
  return __builtin_amdgcn_mfma_f32_16x16x16f16(
      *reinterpret_cast<const mfma_f16x4 *>(a),
      *reinterpret_cast<const mfma_f16x4 *>(b), d, 0, 0, 0);
}
__device__ __forceinline__ mfma_f32x4 mfma_16x16x16(const bf16 *a,
                                                    const bf16 *b,
                                                    mfma_f32x4 d) {
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(
      *reinterpret_cast<const mfma_i16x4 *>(a),
      *reinterpret_cast<const mfma_i16x4 *>(b), d, 0, 0, 0);
}
__device__ __forceinline__ mfma_i32x4 mfma_16x16x16(const int8_t *a,
                                                    const int8_t *b,
                                                    mfma_i32x4 d) {
  return __builtin_amdgcn_mfma_i32_16x16x16i8(*reinterpret_cast<const int *>(a),
                                              *reinterpret_cast<const int *>(b),
                                              d, 0, 0, 0);
}
__device__ __forceinline__ mfma_f32x4 mfma_16x16x4(const float *a,
                                                   const float *b,
                                                   mfma_f32x4 d) {
  return __builtin_amdgcn_mfma_f32_16x16x4f32(*a, *b, d, 0, 0, 0);
}

/// One instruction of Tile for a dot of T operands (mfma_instruction).
template <int Tile, class T, class D>
__device__ __forceinline__ D mfma_step(const T *a, const T *b, D d) {
  if constexpr (Tile == 32 && sizeof(T) == 4)
    return mfma_32x32x2(a, b, d);
  else if constexpr (Tile == 32)
    return mfma_32x32x8(a, b, d);
  else if constexpr (sizeof(T) == 4)
    return mfma_16x16x4(a, b, d);
  else
    return mfma_16x16x16(a, b, d);
}

} // namespace detail

/// Writes a (M x K, layout LA) and b (K x N, LB) to buf (16-byte aligned,
/// dot_mfma_scratch bytes) as mfma_multiply reads them: rows padded by
/// mfma_row_pad, b transposed, so that each lane reads its k of B as one
/// load, as it does A's.
template <class LA, class LB, class T, int NA, int NB>
__device__ void mfma_stage(const T (&a)[NA], const T (&b)[NB],
                           unsigned char *buf) {
  constexpr int M = LA::shape(0), K = LA::shape(1);
  constexpr int Row = K + mfma_row_pad;
  static_assert(LB::shape(0) == K, "dot shapes");
  T *const sa = reinterpret_cast<T *>(buf);
  T *const sb = sa + M * Row;
#pragma unroll
  for (int e = 0; e < NA; ++e)
    if (LA::owns(e))
      sa[LA::coord(e, 0) * Row + LA::coord(e, 1)] = a[e];
#pragma unroll
  for (int e = 0; e < NB; ++e)
    if (LB::owns(e))
      sb[LB::coord(e, 1) * Row + LB::coord(e, 0)] = b[e];
}

/// out = acc + a b on matrix cores, a and b of T as mfma_stage left them
/// in buf (after a barrier), acc and out in an MFMA accumulator layout LC:
/// every wavefront runs its 32 x 32 tiles over K.
template <class LA, class LB, class LC, class T, class TC, int NC>
__device__ void mfma_multiply(const TC (&acc)[NC], TC (&out)[NC],
                              const unsigned char *buf) {
  static_assert(detail::is_mfma_accumulator<LC>(),
                "an MFMA accumulator layout");
  using I = mfma_instruction<T, mfma_tile<LC>>;
  constexpr int M = LA::shape(0), K = LA::shape(1), N = LB::shape(1);
  constexpr int Row = K + mfma_row_pad;
  static_assert(LB::shape(0) == K && LC::shape(0) == M && LC::shape(1) == N,
                "dot shapes");
  static_assert(K % I::k == 0, "K a multiple of the instruction's depth");
  const T *const sa = reinterpret_cast<const T *>(buf);
  const T *const sb = sa + M * Row;
  constexpr int TM = LC::warp_reps(0) / (I::acc_regs / 4),
                TN = LC::warp_reps(1);
  typename detail::mfma_accumulator<TC, I::acc_regs>::type d[TM][TN];
#pragma unroll
  for (int e = 0; e < NC; ++e) {
    const int slot = mfma_slot<LC>(e), tile = slot / I::acc_regs;
    d[tile / TN][tile % TN][slot % I::acc_regs] = acc[e];
  }
  const int lane = threadIdx.x % 64;
  const T *const a_lane = sa +
                          (mfma_origin<LC>(0) + I::operand_row(lane)) * Row +
                          I::operand_k(lane);
  const T *const b_lane = sb +
                          (mfma_origin<LC>(1) + I::operand_row(lane)) * Row +
                          I::operand_k(lane);
#pragma unroll
  for (int k0 = 0; k0 < K; k0 += I::k)
#pragma unroll
    for (int tm = 0; tm < TM; ++tm)
#pragma unroll
      for (int tn = 0; tn < TN; ++tn)
        d[tm][tn] =
            detail::mfma_step<I::m>(a_lane + tm * I::m * Row + k0,
                                    b_lane + tn * I::n * Row + k0, d[tm][tn]);
#pragma unroll
  for (int e = 0; e < NC; ++e) {
    const int slot = mfma_slot<LC>(e), tile = slot / I::acc_regs;
    out[e] = d[tile / TN][tile % TN][slot % I::acc_regs];
  }
}

/// out = acc + a b on matrix cores, for fp16, bf16 or fp32 a (M x K,
/// layout LA) and b (K x N, LB) in registers and fp32 acc, out (int8 and
/// int32) in an MFMA accumulator layout LC, staged in scratch
/// (dot_mfma_scratch bytes) and multiplied from there. Sync: as dot_fma's.
template <class LA, class LB, class LC, int Sync = 0, class T, int NA, int NB,
          class TC, int NC>
__device__ void dot_mfma(const T (&a)[NA], const T (&b)[NB],
                         const TC (&acc)[NC], TC (&out)[NC],
                         unsigned char *scratch) {
  mfma_stage<LA, LB>(a, b, scratch);
  sync_threads<Sync>();
  mfma_multiply<LA, LB, LC, T>(acc, out, scratch);
  sync_threads<Sync>(); // the next dot or transpose reuses the buffers
}

} // namespace tile::rt
#endif
