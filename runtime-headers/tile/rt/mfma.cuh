// Matrix products on the matrix cores of AMD CDNA GPUs (gfx90a's MFMA
// instructions), the HIP counterpart of dot_mma. A wavefront of 64 lanes
// runs v_mfma_f32_32x32x8f16 (bf16: v_mfma_f32_32x32x8bf16_1k; int8 into
// int32: v_mfma_i32_32x32x8i8; fp32: v_mfma_f32_32x32x2f32, K = 2): a
// 32 x K tile of A times a K x 32 tile of B added to a 32 x 32
// accumulator, each lane holding, by AMD's matrix instruction layouts,
//   A[l % 32][K/2 (l / 32) + i] and B[K/2 (l / 32) + i][l % 32], i < K/2,
//   and accumulator register j: D[8 (j / 4) + 4 (l / 32) + j % 4][l % 32].
// The accumulator's tile layout is a blocked one that says the same
// (analysis/Layout.h's mfmaAccumulator): 4 rows a thread, 2 x 32 lanes,
// each wavefront repeating the 32 x 32 tile over its block. The index
// arithmetic is host-callable, so that tests check it against a model of
// the instruction (tests/unit/runtime_mfma_test.cpp).
#pragma once

#include "tile/rt/layout.cuh"

namespace tile::rt {

/// Where the lanes of one 32 x 32 x K MFMA instruction hold their
/// operands: K is 8 for 16- and 8-bit operands, 2 for fp32.
template <int K> struct mfma_32x32 {
  static constexpr int m = 32, n = 32, k = K;
  /// Operand and accumulator registers per lane.
  static constexpr int operand_regs = K / 2, acc_regs = 16;
  /// The row of A (the column of B) lane l holds.
  TILE_RT_HD static constexpr int operand_row(int lane) { return lane % 32; }
  /// Along k, the first of the operand_regs elements lane l holds.
  TILE_RT_HD static constexpr int operand_k(int lane) {
    return operand_regs * (lane / 32);
  }
};
using mfma_32x32x8 = mfma_32x32<8>;
using mfma_32x32x2 = mfma_32x32<2>;

/// The instruction a dot of T operands runs.
template <class T> using mfma_instruction = mfma_32x32<sizeof(T) == 4 ? 2 : 8>;

/// Rows of the operands in shared memory are this many elements longer
/// than K, so that the 32 lanes reading the same k of 32 rows spread over
/// the banks.
inline constexpr int mfma_row_pad = 4;

/// Bytes of shared memory dot_mfma stages a (M x K) and b (K x N, stored
/// transposed) of T in.
template <class T>
__host__ __device__ constexpr int dot_mfma_scratch(int m, int k, int n) {
  return (m + n) * (k + mfma_row_pad) * int(sizeof(T));
}

namespace detail {

/// Whether L is an MFMA accumulator layout: a 32 x 32 tile of 4 rows a
/// thread in 2 x 32 lanes, repeated by each wavefront over a block that
/// the wavefronts cover exactly.
template <class L> TILE_RT_HD constexpr bool is_mfma_accumulator() {
  return L::rank == 2 && L::size_per_thread(0) == 4 &&
         L::size_per_thread(1) == 1 && L::threads_per_warp(0) == 2 &&
         L::threads_per_warp(1) == 32 && L::order(0) == 1 &&
         L::warp_reps(0) % 4 == 0 && L::reps(0) == L::warp_reps(0) &&
         L::reps(1) == L::warp_reps(1) && L::covers_exactly();
}

/// Which accumulator register of which of its wavefront's 32 x 32 tiles
/// element e of an MFMA accumulator layout L is: (tile row * tiles per
/// row + tile column) * 16 + register. A thread's 4 rows are j % 4; its
/// first 4 repetitions along M, 8 rows apart, are j / 4.
template <class L> struct mfma_register {
  TILE_RT_HD static constexpr int value(int e) {
    const digits g = L::decompose(e);
    const int tile = g.r[0] / 4 * L::warp_reps(1) + g.r[1];
    return tile * mfma_32x32x8::acc_regs + 4 * (g.r[0] % 4) + g.s[0];
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

/// A lane's accumulator registers for accumulator elements of TC.
template <class TC> struct mfma_accumulator { using type = mfma_f32x16; };
template <> struct mfma_accumulator<int> { using type = mfma_i32x16; };

/// d + a b on the wavefront's matrix cores; a and b are a lane's
/// operand_regs elements, 8 bytes apart in shared memory.
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

/// One instruction of a dot of T operands: 8 deep, or 2 for fp32.
template <class T, class D>
__device__ __forceinline__ D mfma_step(const T *a, const T *b, D d) {
  if constexpr (sizeof(T) == 4)
    return mfma_32x32x2(a, b, d);
  else
    return mfma_32x32x8(a, b, d);
}

} // namespace detail

/// out = acc + a b on matrix cores, for fp16, bf16 or fp32 a (M x K,
/// layout LA) and b (K x N, LB) in registers and fp32 acc, out (int8 and
/// int32) in an MFMA accumulator layout LC. a and b are written to scratch
/// (16-byte aligned, dot_mfma_scratch bytes; b transposed, so that each
/// lane reads its k of B as one load, as it does A's), then every
/// wavefront runs its 32 x 32 tiles over K. Sync: as dot_fma's.
template <class LA, class LB, class LC, int Sync = 0, class T, int NA, int NB,
          class TC, int NC>
__device__ void dot_mfma(const T (&a)[NA], const T (&b)[NB],
                         const TC (&acc)[NC], TC (&out)[NC],
                         unsigned char *scratch) {
  using I = mfma_instruction<T>;
  constexpr int M = LA::shape(0), K = LA::shape(1), N = LB::shape(1);
  constexpr int Row = K + mfma_row_pad;
  static_assert(LB::shape(0) == K && LC::shape(0) == M && LC::shape(1) == N,
                "dot shapes");
  static_assert(K % I::k == 0, "K a multiple of the instruction's depth");
  static_assert(detail::is_mfma_accumulator<LC>(),
                "an MFMA accumulator layout");
  T *const sa = reinterpret_cast<T *>(scratch);
  T *const sb = sa + M * Row;
#pragma unroll
  for (int e = 0; e < NA; ++e)
    if (LA::owns(e))
      sa[LA::coord(e, 0) * Row + LA::coord(e, 1)] = a[e];
#pragma unroll
  for (int e = 0; e < NB; ++e)
    if (LB::owns(e))
      sb[LB::coord(e, 1) * Row + LB::coord(e, 0)] = b[e];
  sync_threads<Sync>();
  constexpr int TM = LC::warp_reps(0) / 4, TN = LC::warp_reps(1);
  typename detail::mfma_accumulator<TC>::type d[TM][TN];
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
        d[tm][tn] = detail::mfma_step(a_lane + tm * I::m * Row + k0,
                                      b_lane + tn * I::n * Row + k0, d[tm][tn]);
#pragma unroll
  for (int e = 0; e < NC; ++e) {
    const int slot = mfma_slot<LC>(e), tile = slot / I::acc_regs;
    out[e] = d[tile / TN][tile % TN][slot % I::acc_regs];
  }
  sync_threads<Sync>(); // the next dot or transpose reuses the buffers
}

} // namespace tile::rt
#endif
