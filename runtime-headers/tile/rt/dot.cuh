// Matrix multiply. On tensor cores (dot_mma, mma_tiles): fp16/bf16, tf32
// or 8-bit integer operands in shared memory, the accumulator in an mma
// layout. On CUDA
// cores (dot_fma), for any layouts: the operands are staged in shared
// memory, then every thread sums the products for the elements of the
// result it holds; tilecc uses it where tensor cores do not apply (fp32,
// shapes or types without an mma form). And transpose.
#pragma once

#include "tile/rt/layout.cuh"
#include "tile/rt/sync.cuh"
#include "tile/rt/types.cuh"
#if !defined(__HIPCC__)
#include "tile/rt/async_copy.cuh"
#include "tile/rt/mma.cuh"
#include "tile/rt/smem.cuh"
#include "tile/rt/tma.cuh"
#include "tile/rt/warp_specialize.cuh"
#include "tile/rt/wgmma.cuh"
#endif

#include <type_traits>

namespace tile::rt {

/// How dot multiplies float operands (tile::input_precision's order).
enum class precision { tf32, tf32x3, ieee };

/// x as the tensor cores read a TF32 operand: its low 13 mantissa bits
/// dropped (tile::detail::truncate_to_tf32).
__device__ __forceinline__ float truncate_to_tf32(float x) {
  return isfinite(x) ? __uint_as_float(__float_as_uint(x) & 0xffffe000u) : x;
}

namespace detail {
template <class T> struct dot_accumulator { using type = float; };
template <> struct dot_accumulator<int8_t> { using type = int; };
template <> struct dot_accumulator<uint8_t> { using type = int; };
template <> struct dot_accumulator<double> { using type = double; };
} // namespace detail

/// Bytes of shared memory dot_fma stages a (Batch x M x K) and b (Batch x
/// K x N) of T in.
template <class T>
__host__ __device__ constexpr int dot_fma_scratch(int m, int k, int n,
                                                  int batch = 1) {
  return (batch * m * k * int(sizeof(T)) + 15) / 16 * 16 +
         batch * k * n * int(sizeof(T));
}

/// out = acc + a b, with a (M x K) in layout LA, b (K x N) in LB, acc and
/// out (M x N) in LC; or, for 3-D layouts, each of the Batch products along
/// the first dimension. Products are exact; sums run in k order in int32
/// for 8-bit operands, in double for double and in float otherwise (with
/// fma). The operands are staged in scratch (16-byte aligned,
/// dot_fma_scratch bytes): the kernel's one buffer for the helpers that
/// pass a tile through shared memory, each waiting for every thread before
/// it returns (for Sync, the count sync_threads takes: a warp-specialized
/// kernel's consumers).
template <precision P, class LA, class LB, class LC, int Sync = 0, class T,
          class TC, int NA, int NB, int NC>
__device__ void dot_fma(const T (&a)[NA], const T (&b)[NB], const TC (&acc)[NC],
                        TC (&out)[NC], unsigned char *scratch) {
  constexpr int R = LA::rank;
  static_assert((R == 2 || R == 3) && LB::rank == R && LC::rank == R,
                "dot ranks");
  constexpr int Batch = R == 3 ? LA::shape(0) : 1, M = LA::shape(R - 2),
                K = LA::shape(R - 1), N = LB::shape(R - 1);
  static_assert(
      LB::shape(R - 2) == K && LC::shape(R - 2) == M && LC::shape(R - 1) == N &&
          (R == 2 || (LB::shape(0) == Batch && LC::shape(0) == Batch)),
      "dot shapes");
  using Acc = typename detail::dot_accumulator<T>::type;
  T *const sa = reinterpret_cast<T *>(scratch);
  T *const sb =
      reinterpret_cast<T *>(scratch + dot_fma_scratch<T>(M, K, N, Batch) -
                            Batch * K * N * int(sizeof(T)));
#pragma unroll
  for (int e = 0; e < NA; ++e)
    if (LA::owns(e))
      sa[linear_index<LA>(e)] = a[e];
#pragma unroll
  for (int e = 0; e < NB; ++e)
    if (LB::owns(e))
      sb[linear_index<LB>(e)] = b[e];
  sync_threads<Sync>();
  auto operand = [](T v) {
    Acc x = convert<Acc>(v);
    if constexpr (P == precision::tf32 && std::is_same_v<T, float>)
      x = truncate_to_tf32(x);
    return x;
  };
#pragma unroll
  for (int e = 0; e < NC; ++e) {
    const int i = LC::coord(e, R - 2), j = LC::coord(e, R - 1);
    const int batch = R == 3 ? LC::coord(e, 0) : 0;
    const T *const row = sa + (batch * M + i) * K;
    const T *const column = sb + batch * K * N + j;
    Acc s = convert<Acc>(acc[e]);
#pragma unroll 4
    for (int k = 0; k < K; ++k) {
      if constexpr (std::is_same_v<Acc, int>)
        s += operand(row[k]) * operand(column[k * N]);
      else
        s = fma(operand(row[k]), operand(column[k * N]), s);
    }
    out[e] = convert<TC>(s);
  }
  sync_threads<Sync>(); // the next dot or transpose reuses the buffers
}

#if !defined(__HIPCC__)
/// Whether this compilation issues wgmma for accumulator layout LC (sm_90a,
/// warpgroups stacked along M, or along N in a transposed layout) and
/// operands OA and OB of T (wgmma_product); otherwise mma.sync, one warp
/// at a time, which takes warps in any order.
template <class LC, class T, class OA, class OB>
__device__ constexpr bool uses_wgmma() {
#if __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  return wgmma_product<LC, T, OA, OB>();
#else
  return false;
#endif
}

/// acc += A B for the program's accumulator in layout LC, from operands
/// in shared memory that every thread has finished writing: wgmma on
/// sm_90a where LC stacks warpgroups, mma.sync otherwise. With InFlight = 1
/// a wgmma product may be left in flight: the call returns once the
/// previous one has finished, so the operands of the one before are free
/// again, and acc is untouchable until mma_wait_all().
///
/// A half accumulator (of half operands) is widened to float, the product
/// summed into it there and the sum rounded once, as the emulation does;
/// such a product is never left in flight.
template <class LC, class T, int InFlight = 0, class OA, class OB, class TC,
          int NC>
__device__ __forceinline__ void mma_tiles(const OA &a, const OB &b,
                                          TC (&acc)[NC]) {
  static_assert(InFlight == 0 || InFlight == 1, "at most one in flight");
  if constexpr (__is_same(TC, f16)) {
    static_assert(InFlight == 0, "a half accumulator is rounded at once");
    float wide[NC];
#pragma unroll
    for (int e = 0; e < NC; ++e)
      wide[e] = convert<float>(acc[e]);
    mma_tiles<LC, T>(a, b, wide);
#pragma unroll
    for (int e = 0; e < NC; ++e)
      acc[e] = convert<f16>(wide[e]);
  } else if constexpr (uses_wgmma<LC, T, OA, OB>()) {
    wgmma_issue<LC, T>(a, b, acc);
    wgmma_wait<InFlight>();
    if constexpr (InFlight == 0)
      fence_registers(acc);
  } else {
    mma_sync_tiles<LC, T>(a, b, acc);
  }
}

/// mma_tiles for consumer warpgroups that take turns on the tensor cores
/// (mma_turns<Groups>): waits for this warpgroup's turn, issues, passes the
/// turn on and then waits for its own product.
template <class LC, class T, int Groups, class OA, class OB, class TC, int NC>
__device__ __forceinline__ void mma_tiles_in_turn(const OA &a, const OB &b,
                                                  TC (&acc)[NC]) {
  mma_turns<Groups>::wait();
  if constexpr (!__is_same(TC, f16) && uses_wgmma<LC, T, OA, OB>()) {
    wgmma_issue<LC, T>(a, b, acc);
    mma_turns<Groups>::pass();
    wgmma_wait<0>();
    fence_registers(acc);
  } else {
    mma_tiles<LC, T>(a, b, acc);
    mma_turns<Groups>::pass();
  }
}

/// Issues acc += A B and returns with the product in flight where it runs
/// on wgmma (a rotated loop's dots); acc and A's registers are then
/// untouchable until an mma_wait covers it. Elsewhere the product is done
/// on return.
template <class LC, class T, class OA, class OB, class TC, int NC>
__device__ __forceinline__ void mma_issue(const OA &a, const OB &b,
                                          TC (&acc)[NC]) {
  static_assert(!__is_same(TC, f16), "a half accumulator is rounded at once");
  if constexpr (uses_wgmma<LC, T, OA, OB>())
    wgmma_issue<LC, T>(a, b, acc);
  else
    mma_sync_tiles<LC, T>(a, b, acc);
}

/// Waits until at most Pending of the products issued are still in flight,
/// the others' accumulators acc among them: their registers are fenced
/// after the wait, so that the compiler moves no read of them above it
/// (ptxas would then serialize the wgmmas).
template <int Pending, class... Acc>
__device__ __forceinline__ void mma_wait([[maybe_unused]] Acc &...acc) {
#if __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  wgmma_wait<Pending>();
  (fence_registers(acc), ...);
#endif
}

/// Waits for the products mma_tiles left in flight, into the accumulators
/// acc.
template <class... Acc>
__device__ __forceinline__ void mma_wait_all(Acc &...acc) {
  mma_wait<0>(acc...);
}

/// A tile in layout L written to swizzled shared memory, and its view as
/// a dot operand: operand B (K x N) when IsB, A (M x K) otherwise, stored
/// K-contiguous when KMajor (Tile is then MN x K, else K x MN).
template <class L, bool IsB, bool KMajor, class Tile, class T, int N>
__device__ smem_operand<Tile, KMajor> stage_operand(Tile t, const T (&v)[N]) {
  t.template store<L, IsB == KMajor>(v);
  return {t};
}

/// How dot_mma's a is used: a_loop_invariant when every iteration of a
/// loop that chooses (an if, or a where on a condition the same for all
/// elements) reads it unchanged. wgmma then reads it from shared memory
/// even where its registers hold the A fragments: ptxas 13.0 may give
/// another wgmma's A fragments the same registers (docs/decisions.md).
/// mma.sync reads it from registers either way.
enum a_use { a_anywhere, a_loop_invariant };

/// Where dot_mma stages a (M x K) in its scratch: after b (K x N), at the
/// next 1024 bytes (a swizzled tile's alignment).
template <class T>
__host__ __device__ constexpr int dot_mma_a_offset(int k, int n) {
  return (k * n * int(sizeof(T)) + 1023) / 1024 * 1024;
}

/// The operand view of b (K x N, layout LB) at `at` as stage_b writes it,
/// for a b that an earlier loop left there.
template <class LB, class T> __device__ auto b_operand(T *at) {
  constexpr int K = LB::shape(0), N = LB::shape(1);
  constexpr bool KMajor = sizeof(T) != 2;
  using TB = smem_tile<T, KMajor ? N : K, KMajor ? K : N>;
  return smem_operand<TB, KMajor>{TB{at}};
}

/// b (K x N, layout LB) written to swizzled shared memory at `at` (1024-byte
/// aligned) as tensor-core dots read it: K-major unless its elements are
/// 16-bit, as wgmma needs. A loop stages a loop-invariant b once this way.
template <class LB, class T, int NB>
__device__ auto stage_b(T *at, const T (&b)[NB]) {
  using OB = decltype(b_operand<LB>(at));
  return stage_operand<LB, true, OB::k_major>(typename OB::tile{at}, b);
}

/// What follows a dot that stages operands in scratch. any_op: the threads
/// meet after the product, as the next op may write the scratch.
/// tma_store: a TMA store or add comes first, before any other writer of
/// scratch; its barrier frees the scratch, and thread 0's wait for the
/// store's buffer comes before the dot's own barrier, which then stands for
/// the store's first (tilecc omits both).
enum class then { any_op, tma_store };

namespace detail {
/// The threads meet before a product reads what they staged (Next: as
/// dot_mma's).
template <then Next, int Sync>
__device__ __forceinline__ void meet_before_product() {
  if constexpr (Next == then::tma_store)
    if (threadIdx.x == 0)
      tma_store_wait<true>();
  fence_proxy_async();
  sync_threads<Sync>();
}

/// The threads meet after a product read their staging, unless a TMA
/// store's barrier does it (Next).
template <then Next, int Sync>
__device__ __forceinline__ void meet_after_product() {
  if constexpr (Next == then::any_op)
    sync_threads<Sync>();
}

/// dot_mma with b in shared memory (ob); BStaged says whether the caller
/// has just written it, so that the threads must meet before reading it.
template <class LA, class LC, a_use Use, int Sync, then Next, bool BStaged,
          class T, int NA, class OB, class TC, int NC>
__device__ void dot_mma_smem_b(const T (&a)[NA], const OB &ob,
                               const TC (&acc)[NC], TC (&out)[NC],
                               unsigned char *a_scratch) {
  constexpr int M = LA::shape(0), K = LA::shape(1);
#pragma unroll
  for (int e = 0; e < NC; ++e)
    out[e] = acc[e];
  if constexpr (sizeof(T) <= 2 && a_fragments<LA, LC>() &&
                (Use == a_anywhere ||
                 !uses_wgmma<LC, T, fragment_operand<LA, T, NA>, OB>())) {
    // Nothing staged: the meeting the store expects happens here.
    if constexpr (BStaged || Next == then::tma_store)
      meet_before_product<Next, Sync>();
    mma_tiles<LC, T>(fragment<LA>(a), ob, out);
    if constexpr (BStaged)
      meet_after_product<Next, Sync>();
  } else {
    using TA = smem_tile<T, M, K>;
    const auto oa =
        stage_operand<LA, false, true>(TA{reinterpret_cast<T *>(a_scratch)}, a);
    meet_before_product<Next, Sync>();
    mma_tiles<LC, T>(oa, ob, out);
    meet_after_product<Next, Sync>();
  }
}

/// dot_mma_trans_a with b in shared memory (ob): p is written at a_scratch.
template <class LP, class LC, int Sync, then Next, class T, int NP, class OB,
          class TC, int NC>
__device__ void dot_mma_trans_a_smem_b(const T (&p)[NP], const OB &ob,
                                       const TC (&acc)[NC], TC (&out)[NC],
                                       unsigned char *a_scratch) {
  static_assert(sizeof(T) == 2, "only 16-bit operands are read transposed");
  constexpr int K = LP::shape(0), M = LP::shape(1);
  using TA = smem_tile<T, K, M>;
  const TA ta{reinterpret_cast<T *>(a_scratch)};
  ta.template store<LP>(p);
#pragma unroll
  for (int e = 0; e < NC; ++e)
    out[e] = acc[e];
  meet_before_product<Next, Sync>();
  mma_tiles<LC, T>(operand<false>(ta), ob, out);
  meet_after_product<Next, Sync>();
}
} // namespace detail

/// out = acc + a b on tensor cores, with a (M x K) in layout LA and b
/// (K x N) in LB in registers: b is written to swizzled shared memory
/// first (stage_b), and so is a unless LA holds the A fragments LC needs
/// (and Use allows them). They are staged in scratch (1024-byte aligned;
/// b, then a at dot_mma_a_offset), the kernel's buffer that dot_fma's
/// describes. Sync: as dot_fma's; Next: what follows (then).
template <class LA, class LB, class LC, a_use Use = a_anywhere, int Sync = 0,
          then Next = then::any_op, class T, int NA, int NB, class TC, int NC>
__device__ void dot_mma(const T (&a)[NA], const T (&b)[NB], const TC (&acc)[NC],
                        TC (&out)[NC], unsigned char *scratch) {
  constexpr int K = LA::shape(1), N = LB::shape(1);
  const auto ob = stage_b<LB>(reinterpret_cast<T *>(scratch), b);
  detail::dot_mma_smem_b<LA, LC, Use, Sync, Next, true>(
      a, ob, acc, out, scratch + dot_mma_a_offset<T>(K, N));
}

/// dot_mma with b already in shared memory (stage_b, before a loop that
/// reads it unchanged): a, where it is staged, goes to the start of
/// scratch; with a's fragments in registers nothing is written and the
/// threads need not meet.
template <class LA, class LB, class LC, a_use Use = a_anywhere, int Sync = 0,
          then Next = then::any_op, class T, int NA, class Tile, bool KMajor,
          class TC, int NC>
__device__ void dot_mma(const T (&a)[NA], const smem_operand<Tile, KMajor> &b,
                        const TC (&acc)[NC], TC (&out)[NC],
                        unsigned char *scratch) {
  detail::dot_mma_smem_b<LA, LC, Use, Sync, Next, false>(a, b, acc, out,
                                                         scratch);
}

/// out = acc + trans(p) b on tensor cores, for 16-bit p (K x M, layout LP)
/// and b (K x N, LB) in registers: p is written to shared memory as it is,
/// which is A (M x K) stored M-major, the form wgmma and ldmatrix transpose
/// as they read it; so A crosses shared memory once, where a transpose
/// would take it there and back and the dot stage it again. Staged in
/// scratch, and Sync and Next, as dot_mma's.
template <class LP, class LB, class LC, int Sync = 0, then Next = then::any_op,
          class T, int NP, int NB, class TC, int NC>
__device__ void dot_mma_trans_a(const T (&p)[NP], const T (&b)[NB],
                                const TC (&acc)[NC], TC (&out)[NC],
                                unsigned char *scratch) {
  constexpr int K = LP::shape(0), N = LB::shape(1);
  const auto ob = stage_b<LB>(reinterpret_cast<T *>(scratch), b);
  detail::dot_mma_trans_a_smem_b<LP, LC, Sync, Next>(
      p, ob, acc, out, scratch + dot_mma_a_offset<T>(K, N));
}

/// dot_mma_trans_a with b already in shared memory (stage_b): p goes to
/// the start of scratch.
template <class LP, class LB, class LC, int Sync = 0, then Next = then::any_op,
          class T, int NP, class Tile, bool KMajor, class TC, int NC>
__device__ void
dot_mma_trans_a(const T (&p)[NP], const smem_operand<Tile, KMajor> &b,
                const TC (&acc)[NC], TC (&out)[NC], unsigned char *scratch) {
  detail::dot_mma_trans_a_smem_b<LP, LC, Sync, Next>(p, b, acc, out, scratch);
}
#endif

/// out = the transpose of the 2-D tile in (layout LS); out has layout LD.
/// The tile passes through scratch (M x N elements; dot_fma's buffer).
/// Sync: as dot_fma's.
template <class LS, class LD, int Sync = 0, class T, int NS, int ND>
__device__ void transpose(const T (&in)[NS], T (&out)[ND],
                          unsigned char *scratch) {
  constexpr int M = LS::shape(0);
  T *const buf = reinterpret_cast<T *>(scratch);
#pragma unroll
  for (int e = 0; e < NS; ++e)
    if (LS::owns(e))
      buf[LS::coord(e, 1) * M + LS::coord(e, 0)] = in[e];
  sync_threads<Sync>();
#pragma unroll
  for (int e = 0; e < ND; ++e)
    out[e] = buf[linear_index<LD>(e)];
  sync_threads<Sync>();
}

} // namespace tile::rt
