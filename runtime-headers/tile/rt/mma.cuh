// Warp-level tensor-core instructions (sm_80 and later): ldmatrix loads
// fragments from shared memory, mma.sync multiplies 16x8x16 fragments.
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

/// d += a b for one m16n8k16 fragment: fp16 or bf16 inputs, fp32
/// accumulators (c0 c1: row g, c2 c3: row g + 8; columns 2 t + {0, 1}).
template <class T>
__device__ __forceinline__ void
mma_m16n8k16(float (&d)[4], const unsigned (&a)[4], const unsigned *b) {
  if constexpr (__is_same(T, bf16))
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]));
}

/// Element of an accumulator in layout LC (rt::blocked with a warp owning
/// 16 rows and whole 8-column chunks) for fragment row block i (of the
/// warp's), chunk j, register q (mma's c0..c3 order).
template <class LC>
__device__ constexpr int fragment_element(int i, int j, int q) {
  digits g;
  g.s[1] = q % 2;
  g.r[0] = q / 2 + 2 * i;
  g.r[1] = j;
  return LC::compose(g);
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
/// accumulator layout of M x K: its fragments are exactly the registers
/// that mma.sync's and wgmma's A operands take, so a tile computed in the
/// accumulator layout of an earlier dot (attention's probabilities) feeds
/// the next dot without going through shared memory.
template <class LA, class T, int N> struct fragment_operand {
  using layout = LA;
  static constexpr bool in_registers = true;
  static constexpr int k = LA::shape(1);
  const T (&regs)[N];

  /// The four registers of the m16 x k16 fragment of row block i (of the
  /// warp's) at k0, in mma's a0..a3 order: rows g and g + 8 of k chunk
  /// k0 / 8, then of the next chunk.
  __device__ void fragment(unsigned (&r)[4], int i, int k0) const {
#pragma unroll
    for (int c = 0; c < 2; ++c)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        r[2 * c + h] =
            pack_b16(regs[fragment_element<LA>(i, k0 / 8 + c, 2 * h)],
                     regs[fragment_element<LA>(i, k0 / 8 + c, 2 * h + 1)]);
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

/// acc += A B over the operands' whole K for this warp's part of the
/// M x N accumulator in layout LC, with mma.sync.
template <class LC, class T, class OA, class OB, int NC>
__device__ void mma_sync_tiles(const OA &a, const OB &b, float (&acc)[NC]) {
  static_assert(LC::size_per_thread(0) == 1 && LC::size_per_thread(1) == 2 &&
                    LC::warp_tile(0) == 16 && LC::warp_tile(1) % 8 == 0,
                "an mma accumulator layout");
  constexpr int K = OA::k, MB = LC::reps(0) / 2, NB = LC::warp_tile(1) / 8;
  static_assert(OB::k == K && (NB % 2 == 0 || NB == 1), "whole chunk pairs");
  static_assert(fragments_match<LC, OA>(), "A fragments for LC's warps");
  const int lane = threadIdx.x % 32, q = lane / 8, rr = lane % 8;
  [[maybe_unused]] const int m0 = LC::warp_pos(0) * 16;
  const int n0 = LC::warp_pos(1) * LC::warp_tile(1);
#pragma unroll
  for (int k0 = 0; k0 < K; k0 += 16) {
    unsigned af[MB][4], bf[NB][2];
#pragma unroll
    for (int i = 0; i < MB; ++i) {
      if constexpr (OA::in_registers) {
        a.fragment(af[i], i, k0);
      } else {
        // Matrices: rows +0/+8 (q % 2), k +0/+8 (q / 2).
        const int m = m0 + i * LC::tile(0) + (q % 2) * 8, k = k0 + (q / 2) * 8;
        ldmatrix<!OA::k_major>(af[i],
                               OA::k_major ? a.at(m + rr, k) : a.at(m, k + rr));
      }
    }
#pragma unroll
    for (int j = 0; j < NB; j += 2) {
      // Matrices: k +0/+8 (q % 2), chunks j / j + 1 (q / 2).
      const int jj = NB == 1 ? 0 : q / 2;
      const int n = n0 + (j + jj) * 8, k = k0 + (q % 2) * 8;
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
#pragma unroll
    for (int i = 0; i < MB; ++i)
#pragma unroll
      for (int j = 0; j < NB; ++j) {
        float d[4];
#pragma unroll
        for (int c = 0; c < 4; ++c)
          d[c] = acc[fragment_element<LC>(i, j, c)];
        mma_m16n8k16<T>(d, af[i], bf[j]);
#pragma unroll
        for (int c = 0; c < 4; ++c)
          acc[fragment_element<LC>(i, j, c)] = d[c];
      }
  }
}

} // namespace tile::rt
