// Warp-level tensor-core instructions (sm_80 and later): ldmatrix loads
// fragments from shared memory, mma.sync multiplies 16 x 8 fragments 32
// bytes deep (k16 of fp16/bf16, k8 of tf32, k32 of 8-bit integers and
// floats).
// mma_sync_tiles runs a whole C += A B from shared-memory operands for the
// warp's part of C.
#pragma once

#include "tile/rt/layout.cuh"
#include "tile/rt/smem.cuh"
#include "tile/rt/types.cuh"

namespace tile::rt {

/// Four 8x8 b16 matrices; lane l gives the address of row l % 8 of matrix
/// l / 8, and holds elements (l / 4, 2 (l % 4) + {0, 1}) of each.
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void *row) {
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
      : "r"(a));
}

/// ldmatrix_x4 of the transposed matrices: lane l holds elements
/// (2 (l % 4) + {0, 1}, l / 4) of each.
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4],
                                                  const void *row) {
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
      : "r"(a));
}

template <bool Trans>
__device__ __forceinline__ void ldmatrix(unsigned (&r)[4], const void *row) {
  if constexpr (Trans)
    ldmatrix_x4_trans(r, row);
  else
    ldmatrix_x4(r, row);
}

// One mma.sync of a warp: four accumulators d (constraint C), A's four
// registers a and B's two b.
#define TILE_RT_MMA_SYNC(INSTRUCTION, C)                                       \
  asm volatile("mma.sync.aligned." INSTRUCTION " {%0, %1, %2, %3}, "           \
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"                 \
               : C(d[0]), C(d[1]), C(d[2]), C(d[3])                            \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),        \
                 "r"(b[1]))

/// d += a b for one m16n8k16 fragment: fp16 or bf16 inputs, fp32
/// accumulators (c0 c1: row g, c2 c3: row g + 8; columns 2 t + {0, 1}).
template <class T>
__device__ __forceinline__ void
mma_m16n8k16(float (&d)[4], const unsigned (&a)[4], const unsigned *b) {
  if constexpr (__is_same(T, bf16))
    TILE_RT_MMA_SYNC("m16n8k16.row.col.f32.bf16.bf16.f32", "+f");
  else
    TILE_RT_MMA_SYNC("m16n8k16.row.col.f32.f16.f16.f32", "+f");
}

/// d += a b for one m16n8k8 fragment of tf32 inputs (fp32 bit patterns
/// whose low 13 mantissa bits the tensor cores ignore), fp32 accumulators.
__device__ __forceinline__ void
mma_m16n8k8_tf32(float (&d)[4], const unsigned (&a)[4], const unsigned *b) {
  TILE_RT_MMA_SYNC("m16n8k8.row.col.f32.tf32.tf32.f32", "+f");
}

/// d += a b for one m16n8k32 fragment of signed or unsigned 8-bit integers,
/// int32 accumulators (exact, wrapping on overflow as Triton's do).
template <class T>
__device__ __forceinline__ void
mma_m16n8k32(int (&d)[4], const unsigned (&a)[4], const unsigned *b) {
  if constexpr (__is_same(T, uint8_t))
    TILE_RT_MMA_SYNC("m16n8k32.row.col.s32.u8.u8.s32", "+r");
  else
    TILE_RT_MMA_SYNC("m16n8k32.row.col.s32.s8.s8.s32", "+r");
}

/// d += a b for one m16n8k32 fragment of 8-bit floats (e4m3 or e5m2),
/// fp32 accumulators; sm_89 and later (before, see widens_to_f16).
template <class T>
__device__ __forceinline__ void
mma_m16n8k32(float (&d)[4], const unsigned (&a)[4], const unsigned *b) {
#if __CUDA_ARCH__ >= 890
  if constexpr (__is_same(T, f8e5m2))
    TILE_RT_MMA_SYNC("m16n8k32.row.col.f32.e5m2.e5m2.f32", "+f");
  else
    TILE_RT_MMA_SYNC("m16n8k32.row.col.f32.e4m3.e4m3.f32", "+f");
#else
  static_assert(sizeof(T) == 0, "8-bit float mma needs sm_89 or later");
#endif
}

#undef TILE_RT_MMA_SYNC

/// Whether mma_sync_tiles multiplies T's fragments as fp16 ones: 8-bit
/// floats before sm_89, which has no mma for them. fp16 holds every value
/// of both formats, so widening is exact.
template <class T> __device__ constexpr bool widens_to_f16() {
#if __CUDA_ARCH__ >= 890
  return false;
#else
  return __is_same(T, f8e4m3) || __is_same(T, f8e5m2);
#endif
}

/// The fp16 pair of 8-bit floats (of T) in bytes 2 h and 2 h + 1 of r.
template <class T>
__device__ __forceinline__ unsigned widen_pair(unsigned r, int h) {
  const __half2_raw w = __nv_cvt_fp8x2_to_halfraw2(
      static_cast<__nv_fp8x2_storage_t>(r >> (16 * h)),
      __is_same(T, f8e5m2) ? __NV_E5M2 : __NV_E4M3);
  return unsigned(w.x) | unsigned(w.y) << 16;
}

/// K of one tensor-core instruction for operands of T: every fragment
/// register holds 4 bytes, so a warp's m16 x k fragment is 32 bytes wide
/// whatever the type (wgmma's k is the same).
template <class T> __device__ constexpr int mma_k() {
  return 32 / int(sizeof(T));
}

/// The mma.sync of T's operands: d += a b for one m16 x n8 x mma_k<T>()
/// fragment (8-bit integers accumulate in int, 8-bit floats in float).
template <class T, class TC>
__device__ __forceinline__ void mma_fragment(TC (&d)[4], const unsigned (&a)[4],
                                             const unsigned *b) {
  if constexpr (sizeof(T) == 2)
    mma_m16n8k16<T>(d, a, b);
  else if constexpr (sizeof(T) == 4)
    mma_m16n8k8_tf32(d, a, b);
  else
    mma_m16n8k32<T>(d, a, b);
}

namespace detail {
/// fragment_element of index (i LC::reps(1) + j) 4 + q.
template <class LC> struct fragment_elements {
  TILE_RT_HD static constexpr int value(int x) {
    const int q = x % 4, j = x / 4 % LC::reps(1), i = x / 4 / LC::reps(1);
    digits g;
    g.s[1] = q % 2;
    g.r[0] = q / 2 + 2 * i;
    g.r[1] = j;
    return LC::compose(g);
  }
};
} // namespace detail

/// Element of an accumulator in layout LC (rt::blocked with a warp owning
/// 16 rows and whole 8-column chunks) for fragment row block i (of the
/// warp's), chunk j, register q (mma's c0..c3 order).
template <class LC>
__device__ constexpr int fragment_element(int i, int j, int q) {
  return tabulated<detail::fragment_elements<LC>, LC::elems()>(
      (i * LC::reps(1) + j) * 4 + q);
}

/// Two 16-bit values in one register, lo in the low half: the packing of
/// mma operand fragments.
template <class T> __device__ __forceinline__ unsigned pack_b16(T lo, T hi) {
  unsigned short l, h;
  __builtin_memcpy(&l, &lo, 2);
  __builtin_memcpy(&h, &hi, 2);
  return unsigned(l) | unsigned(h) << 16;
}

/// A dot's A operand (M x K) held in registers in layout LA, an mma
/// accumulator layout of M x K: a tile computed in the accumulator layout
/// of an earlier dot (attention's probabilities) feeds the next dot without
/// going through shared memory. 16-bit fragments are exactly the registers
/// that mma.sync's and wgmma's A operands take; an 8-bit fragment register
/// holds 4 consecutive k where the accumulator layout gives a thread pairs
/// of columns, so the four threads of a row exchange their pairs.
template <class LA, class T, int N> struct fragment_operand {
  using layout = LA;
  static constexpr bool in_registers = true;
  /// Fragments need no transpose, as a K-major operand's.
  static constexpr bool k_major = true;
  static constexpr int k = LA::shape(1);
  const T (&regs)[N];

  /// The four registers of the m16 x mma_k<T>() fragment of row block i
  /// (of the warp's) at k0, in mma's a0..a3 order: rows g and g + 8 of the
  /// first half of the k range, then of the second. Warp-collective for
  /// 8-bit T.
  __device__ void fragment(unsigned (&r)[4], int i, int k0) const {
    static_assert(sizeof(T) <= 2, "16- or 8-bit A fragments");
    if constexpr (sizeof(T) == 2) {
#pragma unroll
      for (int c = 0; c < 2; ++c)
#pragma unroll
        for (int h = 0; h < 2; ++h)
          r[2 * c + h] =
              pack_b16(pair(i, k0 / 8 + c, h, 0), pair(i, k0 / 8 + c, h, 1));
    } else {
      // Thread t of a row's four holds columns 2t and 2t + 1 of each of the
      // four 8-column chunks of the 32 k; it needs k 4t..4t+3 of the first
      // 16 and of the second: the pairs of chunk t / 2 and 2 + t / 2 from
      // threads 2 (t % 2) and 2 (t % 2) + 1. Each thread offers the pairs
      // of chunks 0 and 2 in one word and those of 1 and 3 in another; two
      // shuffles bring each reader one word from each of its two threads.
      const int lane = threadIdx.x % 32, t = lane % 4, row = lane - t;
      const bool odd = t % 2, upper = t / 2;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        unsigned p[4];
#pragma unroll
        for (int c = 0; c < 4; ++c)
          p[c] = byte_of(pair(i, k0 / 8 + c, h, 0)) |
                 byte_of(pair(i, k0 / 8 + c, h, 1)) << 8;
        const unsigned chunks02 = p[0] | p[2] << 16,
                       chunks13 = p[1] | p[3] << 16;
        const unsigned x = __shfl_sync(~0u, odd ? chunks13 : chunks02,
                                       row + 2 * (t % 2) + t / 2);
        const unsigned y = __shfl_sync(~0u, odd ? chunks02 : chunks13,
                                       row + 2 * (t % 2) + 1 - t / 2);
        // From the thread of columns 4 (t % 2), +1, and of the next two.
        const unsigned lo = upper ? y : x, hi = upper ? x : y;
        r[h] = __byte_perm(lo, hi, 0x5410);
        r[2 + h] = __byte_perm(lo, hi, 0x7632);
      }
    }
  }

private:
  /// Element e (0 or 1) of the thread's column pair in chunk j, row g + 8 h.
  __device__ T pair(int i, int j, int h, int e) const {
    return regs[fragment_element<LA>(i, j, 2 * h + e)];
  }
  __device__ static unsigned byte_of(T v) {
    unsigned char b;
    __builtin_memcpy(&b, &v, 1);
    return b;
  }
};

template <class LA, class T, int N>
__device__ fragment_operand<LA, T, N> fragment(const T (&regs)[N]) {
  return {regs};
}

/// Whether a tile in layout LA holds, in registers, the A fragments that
/// the warps of accumulator layout LC need: LA is an mma accumulator
/// layout whose warps hold whole rows, the same row blocks as in LC.
template <class LA, class LC> __host__ __device__ constexpr bool a_fragments() {
  return LA::rank == 2 && LA::slice_dim < 0 && LA::size_per_thread(0) == 1 &&
         LA::size_per_thread(1) == 2 && LA::threads_per_warp(0) == 8 &&
         LA::threads_per_warp(1) == 4 && LA::lane_stride(1) == 1 &&
         LA::warp_tile(0) == 16 && LA::warps_per_cta(1) == 1 &&
         LA::warp_tile(1) == LA::shape(1) &&
         LA::warps_per_cta(0) == LC::warps_per_cta(0) &&
         LA::reps(0) == LC::reps(0);
}

/// Whether A operand OA is in shared memory or holds LC's A fragments.
template <class LC, class OA> __device__ constexpr bool fragments_match() {
  if constexpr (OA::in_registers)
    return a_fragments<typename OA::layout, LC>();
  else
    return true;
}

/// The 32-bit word at p in shared memory, read by one ld.shared that the
/// compiler keeps as written.
__device__ __forceinline__ unsigned ld_shared_b32(const void *p) {
  unsigned v;
  asm volatile("ld.shared.b32 %0, [%1];"
               : "=r"(v)
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(p))));
  return v;
}

/// One fragment register gathered element by element: the 4 bytes of T
/// at (i, k), (i, k + 1), ... of operand o. For 8- and 32-bit operands
/// stored MN-major, which ldmatrix (a 16-bit transpose) cannot load.
template <class T, class O>
__device__ __forceinline__ unsigned gather_fragment(const O &o, int i, int k) {
  unsigned r = 0;
#pragma unroll
  for (int j = 0; j < 4 / int(sizeof(T)); ++j) {
    unsigned bits = 0;
    __builtin_memcpy(&bits, o.at(i, k + j), sizeof(T));
    r |= bits << (8 * int(sizeof(T)) * j);
  }
  return r;
}

/// The four registers of mma's A fragment of row block i (of the warp's, in
/// accumulator layout LC) at k0, gathered element by element from A in
/// shared memory, in mma's a0..a3 order: rows g and g + 8, k chunk k0 / E
/// + t, then the chunk KH further.
template <class LC, class T, class OA>
__device__ __forceinline__ void gather_a_fragment(unsigned (&r)[4], const OA &a,
                                                  int i, int k0) {
  constexpr int KH = mma_k<T>() / 2, E = 4 / int(sizeof(T));
  const int lane = threadIdx.x % 32;
  const int m = LC::warp_pos(0) * 16 + i * LC::tile(0) + lane / 4;
  const int k = k0 + lane % 4 * E;
  if constexpr (sizeof(T) == 4 && !OA::k_major) {
    // 32-bit elements stored MN-major in swizzled 128-byte rows: a row's
    // 16-byte chunk is (m / 4) ^ (k % 8), so lanes 0-15 and 16-31 reading
    // the same k half would meet two to a bank. Lanes 16-31 read their
    // second half first, which moves their chunks by 4; the loads go
    // through ld.shared so that the compiler does not merge them back.
    const bool upper = lane >= 16;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const unsigned first =
          ld_shared_b32(a.at(m + h * 8, k + (upper ? KH : 0)));
      const unsigned second =
          ld_shared_b32(a.at(m + h * 8, k + (upper ? 0 : KH)));
      r[h] = upper ? second : first;
      r[h + 2] = upper ? first : second;
    }
  } else {
#pragma unroll
    for (int q = 0; q < 4; ++q)
      r[q] = gather_fragment<T>(a, m + q % 2 * 8, k + q / 2 * KH);
  }
}

/// Whether LC is an mma accumulator layout: a warp owns 16 rows and whole
/// 8-column chunks of mma fragments.
template <class LC> __host__ __device__ constexpr bool mma_layout() {
  return LC::size_per_thread(0) == 1 && LC::size_per_thread(1) == 2 &&
         LC::warp_tile(0) == 16 && LC::warp_tile(1) % 8 == 0;
}

/// Whether LC is the transpose of an mma accumulator layout
/// (transposed_t): C = A B is then multiplied as C^T = B^T A^T, into the
/// same registers, with B^T as the instructions' A and A^T as their B.
/// Layout assignment picks it where wgmma could not read B as it is
/// staged (32-bit elements stored N-major) but can read A.
template <class LC> __host__ __device__ constexpr bool transposed_mma_layout() {
  if constexpr (LC::rank == 2 && LC::slice_dim < 0)
    return LC::size_per_thread(0) == 2 && LC::size_per_thread(1) == 1 &&
           mma_layout<transposed_t<LC>>();
  else
    return false;
}

/// Whether ldmatrix loads operand O's fragments: it is K-major, or its
/// 16-bit elements can be transposed on the way.
template <class T, class O> __device__ constexpr bool ldmatrix_operand() {
  return O::k_major || sizeof(T) == 2;
}

namespace detail {
/// mma_sync_tiles for an mma accumulator layout LC.
template <class LC, class T, class OA, class OB, class TC, int NC>
__device__ void mma_sync_fragments(const OA &a, const OB &b, TC (&acc)[NC]) {
  static_assert(mma_layout<LC>(), "an mma accumulator layout");
  // KH: K of each half of a fragment; a thread's register holds E
  // consecutive k.
  constexpr int K = OA::k, KI = mma_k<T>(), KH = KI / 2, E = 4 / int(sizeof(T));
  constexpr int MB = LC::reps(0) / 2, NB = LC::warp_tile(1) / 8;
  static_assert(OB::k == K && K % KI == 0 && (NB % 2 == 0 || NB == 1),
                "whole fragments and chunk pairs");
  static_assert(fragments_match<LC, OA>() &&
                    (!OA::in_registers || sizeof(T) <= 2),
                "A fragments for LC's warps");
  const int lane = threadIdx.x % 32, q = lane / 8, rr = lane % 8;
  const int g = lane / 4, t = lane % 4;
  [[maybe_unused]] const int m0 = LC::warp_pos(0) * 16;
  const int n0 = LC::warp_pos(1) * LC::warp_tile(1);
#pragma unroll
  for (int k0 = 0; k0 < K; k0 += KI) {
    unsigned af[MB][4], bf[NB][2];
#pragma unroll
    for (int i = 0; i < MB; ++i) {
      const int mi = m0 + i * LC::tile(0);
      if constexpr (OA::in_registers) {
        a.fragment(af[i], i, k0);
      } else if constexpr (ldmatrix_operand<T, OA>()) {
        // Matrices: rows +0/+8 (q % 2), k +0/+KH (q / 2).
        const int m = mi + (q % 2) * 8, k = k0 + (q / 2) * KH;
        ldmatrix<!OA::k_major>(af[i],
                               OA::k_major ? a.at(m + rr, k) : a.at(m, k + rr));
      } else {
        gather_a_fragment<LC, T>(af[i], a, i, k0);
      }
    }
    if constexpr (ldmatrix_operand<T, OB>()) {
#pragma unroll
      for (int j = 0; j < NB; j += 2) {
        // Matrices: k +0/+KH (q % 2), chunks j / j + 1 (q / 2).
        const int jj = NB == 1 ? 0 : q / 2;
        const int n = n0 + (j + jj) * 8, k = k0 + (q % 2) * KH;
        unsigned r[4];
        ldmatrix<!OB::k_major>(r,
                               OB::k_major ? b.at(n + rr, k) : b.at(n, k + rr));
        bf[j][0] = r[0];
        bf[j][1] = r[1];
        if constexpr (NB > 1) {
          bf[j + 1][0] = r[2];
          bf[j + 1][1] = r[3];
        }
      }
    } else {
#pragma unroll
      for (int j = 0; j < NB; ++j)
#pragma unroll
        for (int r = 0; r < 2; ++r)
          bf[j][r] = gather_fragment<T>(b, n0 + j * 8 + g, k0 + r * KH + t * E);
    }
    // The accumulator fragment (i, j) through mma.
    auto multiply = [&](int i, int j, auto &&mma) {
      TC d[4];
#pragma unroll
      for (int c = 0; c < 4; ++c)
        d[c] = acc[fragment_element<LC>(i, j, c)];
      mma(d);
#pragma unroll
      for (int c = 0; c < 4; ++c)
        acc[fragment_element<LC>(i, j, c)] = d[c];
    };
    if constexpr (widens_to_f16<T>()) {
      // Two k16 halves: bytes 0-1 of every register, then bytes 2-3. A
      // and B split their k alike, so each product still meets its
      // partner. B is widened a chunk at a time, as its products need it:
      // all of a wide B widened at once doubles its registers.
      unsigned aw[2][MB][4];
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int i = 0; i < MB; ++i)
#pragma unroll
          for (int r = 0; r < 4; ++r)
            aw[h][i][r] = widen_pair<T>(af[i][r], h);
#pragma unroll
      for (int j = 0; j < NB; ++j) {
        unsigned bw[2][2];
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int r = 0; r < 2; ++r)
            bw[h][r] = widen_pair<T>(bf[j][r], h);
#pragma unroll
        for (int i = 0; i < MB; ++i)
          multiply(i, j, [&](float(&d)[4]) {
            mma_m16n8k16<f16>(d, aw[0][i], bw[0]);
            mma_m16n8k16<f16>(d, aw[1][i], bw[1]);
          });
      }
    } else {
#pragma unroll
      for (int i = 0; i < MB; ++i)
#pragma unroll
        for (int j = 0; j < NB; ++j)
          multiply(i, j, [&](TC(&d)[4]) { mma_fragment<T>(d, af[i], bf[j]); });
    }
  }
}
} // namespace detail

/// acc += A B over the operands' whole K for this warp's part of the
/// M x N accumulator in layout LC, with mma.sync; for a transposed LC as
/// C^T = B^T A^T.
template <class LC, class T, class OA, class OB, class TC, int NC>
__device__ void mma_sync_tiles(const OA &a, const OB &b, TC (&acc)[NC]) {
  if constexpr (transposed_mma_layout<LC>()) {
    static_assert(!OA::in_registers, "A^T is read from shared memory");
    detail::mma_sync_fragments<transposed_t<LC>, T>(b, a, acc);
  } else {
    detail::mma_sync_fragments<LC, T>(a, b, acc);
  }
}

} // namespace tile::rt
