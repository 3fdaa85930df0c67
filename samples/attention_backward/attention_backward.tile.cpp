// Fused attention, backward pass (FlashAttention-2, Triton's tutorial 06):
// given Q, K, V, the forward pass's output O and row log-sum-exp lse, and
// the output's gradient dO, all of shape (Z, H, seq, D) row-major (lse:
// (Z, H, seq)), it computes dQ, dK and dV without writing the seq x seq
// probabilities to memory. With S = sm_scale Q K^T and
// P = softmax(S) = exp(S - lse):
//   dV = P^T dO, dP = dO V^T, dS = P * (dP - delta), delta = rowsum(dO * O),
//   dQ = sm_scale dS K, dK = sm_scale dS^T Q.
// Three kernels: attention_bwd_delta (delta, once per row), then
// attention_bwd_dkdv (a program per block of keys walks the blocks of
// queries) and attention_bwd_dq (a program per block of queries walks the
// blocks of keys); the last two are independent of each other. P is
// recomputed in each from lse with exp2, the scale folded into log2(e), as
// in the forward pass. With CAUSAL, row i attends to keys 0..i.
#include <algorithm>
#include <tile/tile.hpp>
#include <tuple>

// Which pairs of a block a loop masks: none (every query and key exists and
// the key comes before the query), those past seq, or those past seq or with
// the key after the query.
constexpr int unmasked = 0, seq_masked = 1, causal_masked = 2;

constexpr float log2e = 1.44269504f;

/// delta = rowsum(dO * O) for BM rows of one head; with ZERO_DQ, also
/// zeroes those rows of dq_acc, where the fused kernel then adds up dQ (as
/// FlashAttention-3's preprocessing does: one pass over memory fewer than
/// a memset of its own).
template <class T, int BM, int D, int ZERO_DQ>
void row_deltas(const T *o, const T *d_o, float *delta, float *dq_acc, int seq,
                int pid_m, int head) {
  // A head starts past 2^31 elements in large batches: its offset is 64-bit,
  // added to the base pointers once; offsets within a head are 32-bit.
  const long offset = static_cast<long>(head) * seq * D;
  auto rows = pid_m * BM + tile::arange<BM>();
  auto in_seq = tile::expand_dims<1>(rows < seq);
  auto at =
      tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(tile::arange<D>());
  auto ob = tile::cast<float>(tile::load(o + offset + at, in_seq));
  auto dob = tile::cast<float>(tile::load(d_o + offset + at, in_seq));
  tile::store(delta + static_cast<long>(head) * seq + rows,
              tile::sum<1>(ob * dob), rows < seq);
  if (ZERO_DQ)
    tile::store(dq_acc + offset + at, tile::zeros<float, BM, D>(), in_seq);
}

/// Accumulates into dk and dv the contributions of the queries [lo, hi) to
/// the BN keys `cols` (k_blk, v_blk) of one head, BM queries at a time:
/// P^T and dS^T are BN x BM, so both dots take them from registers.
template <class T, int BM, int BN, int D, int MASK, int DQ>
std::tuple<tile::tensor<float, BN, D>, tile::tensor<float, BN, D>>
key_gradients(const tile::tensor<T, BN, D> &k_blk,
              const tile::tensor<T, BN, D> &v_blk,
              tile::tensor<float, BN, D> dk, tile::tensor<float, BN, D> dv,
              const T *q, const T *d_o, const float *lse, const float *delta,
              const tile::tensor<int, BN> &cols, int lo, int hi, int seq,
              float qk_scale, float *dq_acc, float sm_scale) {
  auto rd = tile::arange<D>();
  for (int m0 = lo; m0 < hi; m0 += BM) {
    auto rows = m0 + tile::arange<BM>();
    // Q^T's block: D x BM, read from BM rows of Q.
    auto qt = tile::load(q + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(rows) * D,
                         tile::expand_dims<0>(rows < seq));
    auto dob = tile::load(d_o + tile::expand_dims<1>(rows) * D +
                              tile::expand_dims<0>(rd),
                          tile::expand_dims<1>(rows < seq));
    auto lse_2 = tile::load(lse + rows, rows < seq) * log2e;
    // Both products that need no other first, then the work on one while
    // the tensor cores compute the next (dP^T during exp2, dV during dS).
    auto st = tile::dot(k_blk, qt);
    auto dpt = tile::dot(v_blk, tile::trans(dob));
    auto pt = tile::exp2(st * qk_scale - tile::expand_dims<0>(lse_2));
    if (MASK != unmasked) {
      auto keep = tile::broadcast_to<BN, BM>(tile::expand_dims<0>(rows < seq));
      if (MASK == causal_masked)
        keep = keep && tile::expand_dims<0>(rows) >= tile::expand_dims<1>(cols);
      pt = tile::where(keep, pt, 0.0f);
    }
    dv = tile::dot(tile::cast<T>(pt), dob, dv);
    auto dst =
        pt * (dpt - tile::expand_dims<0>(tile::load(delta + rows, rows < seq)));
    dk = tile::dot(tile::cast<T>(dst), tile::trans(qt), dk);
    if (DQ) {
      auto dq = tile::dot(tile::trans(tile::cast<T>(dst)), k_blk);
      tile::atomic_add(dq_acc + tile::expand_dims<1>(rows) * D +
                           tile::expand_dims<0>(rd),
                       dq * sm_scale, tile::expand_dims<1>(rows < seq),
                       tile::mem_order::relaxed);
    }
  }
  return std::tuple{dk, dv};
}

/// dK and dV for the BN keys from pid_n * BN of head `head`: the queries on
/// the diagonal first when causal (no query before the block sees it), then
/// the whole blocks below it (or all of them), then the last partial block.
template <class T, int BM, int BN, int D, int CAUSAL, int DQ>
void key_block(const T *q, const T *k, const T *v, const T *d_o,
               const float *lse, const float *delta, T *dk, T *dv,
               float *dq_acc, float sm_scale, int seq, int pid_n, int head) {
  // The masked queries of the diagonal start at the block's own start.
  static_assert(!CAUSAL || BN % BM == 0,
                "causal dK and dV need BN a multiple of BM");
  const long offset = static_cast<long>(head) * seq * D;
  const int start = pid_n * BN;
  auto cols = start + tile::arange<BN>();
  auto in_seq = tile::expand_dims<1>(cols < seq);
  auto at =
      tile::expand_dims<1>(cols) * D + tile::expand_dims<0>(tile::arange<D>());
  auto k_blk = tile::load(k + offset + at, in_seq);
  auto v_blk = tile::load(v + offset + at, in_seq);
  const float qk_scale = sm_scale * log2e;
  const T *const q_head = q + offset;
  const T *const do_head = d_o + offset;
  const float *const lse_head = lse + static_cast<long>(head) * seq;
  const float *const delta_head = delta + static_cast<long>(head) * seq;
  float *const dq_head = DQ ? dq_acc + offset : nullptr;
  auto dk_acc = tile::zeros<float, BN, D>();
  auto dv_acc = tile::zeros<float, BN, D>();
  const int whole = seq - seq % BM;
  int unmasked_from = 0;
  if (CAUSAL) {
    unmasked_from = start + BN;
    auto [dk_d, dv_d] = key_gradients<T, BM, BN, D, causal_masked, DQ>(
        k_blk, v_blk, dk_acc, dv_acc, q_head, do_head, lse_head, delta_head,
        cols, start, unmasked_from < seq ? unmasked_from : seq, seq, qk_scale,
        dq_head, sm_scale);
    dk_acc = dk_d;
    dv_acc = dv_d;
  }
  {
    auto [dk_u, dv_u] = key_gradients<T, BM, BN, D, unmasked, DQ>(
        k_blk, v_blk, dk_acc, dv_acc, q_head, do_head, lse_head, delta_head,
        cols, unmasked_from, whole, seq, qk_scale, dq_head, sm_scale);
    dk_acc = dk_u;
    dv_acc = dv_u;
  }
  {
    auto [dk_t, dv_t] = key_gradients<T, BM, BN, D, seq_masked, DQ>(
        k_blk, v_blk, dk_acc, dv_acc, q_head, do_head, lse_head, delta_head,
        cols, whole > unmasked_from ? whole : unmasked_from, seq, seq, qk_scale,
        dq_head, sm_scale);
    dk_acc = dk_t;
    dv_acc = dv_t;
  }
  tile::store(dk + offset + at, tile::cast<T>(dk_acc * sm_scale), in_seq);
  tile::store(dv + offset + at, tile::cast<T>(dv_acc), in_seq);
}

/// Accumulates into dq the contributions of the keys [lo, hi) to the BM
/// queries `rows` (q_blk, do_blk, their lse in log2 units and delta) of one
/// head, BN keys at a time.
template <class T, int BM, int BN, int D, int MASK>
tile::tensor<float, BM, D> query_gradient(
    const tile::tensor<T, BM, D> &q_blk, const tile::tensor<T, BM, D> &do_blk,
    const tile::tensor<float, BM> &lse_2,
    const tile::tensor<float, BM> &delta_blk, tile::tensor<float, BM, D> dq,
    const T *k, const T *v, const tile::tensor<int, BM> &rows, int lo, int hi,
    int seq, float qk_scale) {
  auto rd = tile::arange<D>();
  for (int n0 = lo; n0 < hi; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    // K^T's and V^T's blocks: D x BN, read from BN rows of K and V.
    auto key_cols = tile::expand_dims<0>(cols < seq);
    auto kt = tile::load(k + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(cols) * D,
                         key_cols);
    auto p = tile::exp2(tile::dot(q_blk, kt) * qk_scale -
                        tile::expand_dims<1>(lse_2));
    if (MASK != unmasked) {
      auto keep = tile::broadcast_to<BM, BN>(key_cols);
      if (MASK == causal_masked)
        keep = keep && tile::expand_dims<0>(cols) <= tile::expand_dims<1>(rows);
      p = tile::where(keep, p, 0.0f);
    }
    auto vt = tile::load(v + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(cols) * D,
                         key_cols);
    auto ds = p * (tile::dot(do_blk, vt) - tile::expand_dims<1>(delta_blk));
    dq = tile::dot(tile::cast<T>(ds), tile::trans(kt), dq);
  }
  return dq;
}

/// dQ for the BM queries from pid_m * BM of head `head`: the keys that need
/// no mask first (all keys before the diagonal, or all whole blocks), then
/// the masked ones (the diagonal, or the last partial block).
template <class T, int BM, int BN, int D, int CAUSAL>
void query_block(const T *q, const T *k, const T *v, const T *d_o,
                 const float *lse, const float *delta, T *dq, float sm_scale,
                 int seq, int pid_m, int head) {
  // The unmasked keys end where the diagonal's block starts.
  static_assert(!CAUSAL || BM % BN == 0, "causal dQ needs BM a multiple of BN");
  const long offset = static_cast<long>(head) * seq * D;
  const int start = pid_m * BM;
  auto rows = start + tile::arange<BM>();
  auto in_seq = tile::expand_dims<1>(rows < seq);
  auto at =
      tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(tile::arange<D>());
  auto q_blk = tile::load(q + offset + at, in_seq);
  auto do_blk = tile::load(d_o + offset + at, in_seq);
  const long row_offset = static_cast<long>(head) * seq;
  auto lse_2 = tile::load(lse + row_offset + rows, rows < seq) * log2e;
  auto delta_blk = tile::load(delta + row_offset + rows, rows < seq);
  const float qk_scale = sm_scale * log2e;
  const T *const k_head = k + offset;
  const T *const v_head = v + offset;
  auto dq_acc = tile::zeros<float, BM, D>();
  const int masked_from = CAUSAL ? start : seq - seq % BN;
  dq_acc = query_gradient<T, BM, BN, D, unmasked>(
      q_blk, do_blk, lse_2, delta_blk, dq_acc, k_head, v_head, rows, 0,
      masked_from, seq, qk_scale);
  dq_acc = query_gradient < T, BM, BN, D,
  CAUSAL ? causal_masked
         : seq_masked > (q_blk, do_blk, lse_2, delta_blk, dq_acc, k_head,
                         v_head, rows, masked_from,
                         CAUSAL && start + BM < seq ? start + BM : seq, seq,
                         qk_scale);
  tile::store(dq + offset + at, tile::cast<T>(dq_acc * sm_scale), in_seq);
}

// The kernels, fp16 as in tutorial 06 (the helpers above take any element
// type): heads is Z * H, for the grid; head_dim and causal pick the
// configuration (TILE_SELECT below).
// dq_acc: null for the two-kernel pass; the fused kernel's fp32 sum of dQ,
// to zero, before it (ZERO_DQ picks the configuration).
template <int BM, int D, int ZERO_DQ>
TILE_KERNEL void attention_bwd_delta_f16(const tile::half *o,
                                         const tile::half *d_o, float *delta,
                                         [[maybe_unused]] float *dq_acc,
                                         int seq, [[maybe_unused]] int heads,
                                         [[maybe_unused]] int head_dim) {
  // The fused kernel after it (launch_pdl) may take the SMs its last
  // programs leave, and wait there for its deltas and zeroed dq_acc.
  tile::gdc_launch_dependents();
  row_deltas<tile::half, BM, D, ZERO_DQ>(
      o, d_o, delta, dq_acc, seq, tile::program_id(0), tile::program_id(1));
}

template <int BM, int BN, int D, int CAUSAL>
TILE_KERNEL void attention_bwd_dkdv_f16(
    const tile::half *q, const tile::half *k, const tile::half *v,
    const tile::half *d_o, const float *lse, const float *delta, tile::half *dk,
    tile::half *dv, float sm_scale, int seq, [[maybe_unused]] int heads,
    [[maybe_unused]] int head_dim, [[maybe_unused]] int causal) {
  key_block<tile::half, BM, BN, D, CAUSAL, 0>(
      q, k, v, d_o, lse, delta, dk, dv, nullptr, sm_scale, seq,
      tile::program_id(0), tile::program_id(1));
}

// dK and dV as attention_bwd_dkdv_f16, and dQ in the same loop (as
// FlashAttention-2 and 3 do): each step adds its dS K to dq_acc (fp32,
// zeroed by attention_bwd_delta_f16; one TMA reduce-add of the block on
// sm_90a), so P and dP are computed once for all three gradients, not again by
// a dQ kernel. attention_bwd_dq_cast_f16 then rounds dq_acc to fp16.
// PERSISTENT: as many programs as the GPU holds at once, each walking
// (head, key block) tiles a grid's width apart.
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT>
TILE_KERNEL void attention_bwd_fused_f16(
    const tile::half *q, const tile::half *k, const tile::half *v,
    const tile::half *d_o, const float *lse, const float *delta, tile::half *dk,
    tile::half *dv, float *dq_acc, float sm_scale, int seq,
    [[maybe_unused]] int heads, [[maybe_unused]] int head_dim,
    [[maybe_unused]] int causal) {
  // attention_bwd_dq_cast_f16 (launch_pdl) may start on the SMs its last
  // programs leave.
  tile::gdc_launch_dependents();
  if (PERSISTENT) {
    const int blocks = tile::cdiv(seq, BN);
    for (int t = tile::program_id(0); t < blocks * heads;
         t += tile::num_programs(0))
      key_block<tile::half, BM, BN, D, CAUSAL, 1>(q, k, v, d_o, lse, delta, dk,
                                                  dv, dq_acc, sm_scale, seq,
                                                  t % blocks, t / blocks);
  } else {
    key_block<tile::half, BM, BN, D, CAUSAL, 1>(
        q, k, v, d_o, lse, delta, dk, dv, dq_acc, sm_scale, seq,
        tile::program_id(0), tile::program_id(1));
  }
}

/// dq = dq_acc rounded to fp16, BM rows of one head at a time.
template <int BM, int D>
TILE_KERNEL void attention_bwd_dq_cast_f16(const float *dq_acc, tile::half *dq,
                                           int seq, [[maybe_unused]] int heads,
                                           [[maybe_unused]] int head_dim) {
  const long offset = static_cast<long>(tile::program_id(1)) * seq * D;
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
  auto at =
      tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(tile::arange<D>());
  auto in_seq = tile::expand_dims<1>(rows < seq);
  tile::store(dq + offset + at,
              tile::cast<tile::half>(tile::load(dq_acc + offset + at, in_seq)),
              in_seq);
}

template <int BM, int BN, int D, int CAUSAL>
TILE_KERNEL void attention_bwd_dq_f16(
    const tile::half *q, const tile::half *k, const tile::half *v,
    const tile::half *d_o, const float *lse, const float *delta, tile::half *dq,
    float sm_scale, int seq, [[maybe_unused]] int heads,
    [[maybe_unused]] int head_dim, [[maybe_unused]] int causal) {
  query_block<tile::half, BM, BN, D, CAUSAL>(q, k, v, d_o, lse, delta, dq,
                                             sm_scale, seq, tile::program_id(0),
                                             tile::program_id(1));
}

// Per kernel, head_dim and masking, the fastest of a sweep on an H200
// (docs/benchmarks-history.md): 64 x 64 blocks of 4 warps but at head_dim 128
// for dK and dV (128 keys, 8 warps: the loop keeps K and V in shared memory,
// its accumulators take the registers) and dQ without a mask (128 queries, 8
// warps: 2-8 % faster than 64 x 64); three dK/dV programs an SM at head_dim
// 64 without a mask (K and V then in shared memory: 1.06-1.24x faster than
// two warp-specialized programs with K and V in registers); a producer
// warpgroup issuing the copies (sm_90a) for the causal dK and dV at head_dim
// 64 (3-9 % faster than without; three programs an SM were 2-3 % faster at
// seq 1024 and 4096, 8 % slower at 8192), for both at head_dim 128 without
// a mask (0-2 % for dK and dV) and for the causal dQ at head_dim 128 (1-15
// %; once 2.5 % slower at seq 4096, in four runs); three causal dQ programs
// an SM at head_dim 64 (168 registers a thread instead of 176: 12-19 %
// faster). The causal loops need blocks that tile the diagonal
// (static_asserts check it): BN a multiple of BM for dK and dV (a block of
// keys starts its masked queries at its own start), BM a multiple of BN for
// dQ.
TILE_CONFIGS(attention_bwd_delta_f16,
             tile::config{.meta = {64, 64, 0}, .num_warps = 4},
             tile::config{.meta = {64, 128, 0}, .num_warps = 4},
             tile::config{.meta = {64, 64, 1}, .num_warps = 4},
             tile::config{.meta = {64, 128, 1}, .num_warps = 4});
TILE_CONFIGS(attention_bwd_dkdv_f16,
             tile::config{.meta = {64, 64, 64, 0},
                          .num_warps = 4,
                          .num_stages = 2,
                          .min_programs_per_sm = 3},
             tile::config{.meta = {64, 64, 64, 1},
                          .num_warps = 4,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {64, 128, 128, 0},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{
                 .meta = {64, 128, 128, 1}, .num_warps = 8, .num_stages = 2});
TILE_CONFIGS(attention_bwd_dq_f16,
             tile::config{
                 .meta = {64, 64, 64, 0}, .num_warps = 4, .num_stages = 3},
             tile::config{.meta = {64, 64, 64, 1},
                          .num_warps = 4,
                          .num_stages = 3,
                          .min_programs_per_sm = 3},
             tile::config{.meta = {128, 64, 128, 0},
                          .num_warps = 8,
                          .num_stages = 2,
                          .warp_specialize = true},
             tile::config{.meta = {64, 64, 128, 1},
                          .num_warps = 4,
                          .num_stages = 2,
                          .warp_specialize = true});

// The fused kernel and its cast are programmatic dependent launches
// (launch_pdl): their programs start on the SMs the kernel before them
// leaves (1.02x the fused pass at head_dim 64, seq 1024, 1.005x at 128;
// even at 4096 and 8192). dK and dV are not: launched early beside a dQ
// on another stream, which waits for delta as before, they took the SMs
// first and the pass was 0.97x at head_dim 64, causal, seq 4096.
// The fused kernel at head_dim 128, causal or not, and at 64 without a mask
// (docs/benchmarks-history.md: the whole pass 1.03-1.09x faster than with the
// two kernels from seq 4096 at head_dim 128, 1.03-1.06x at 64, where 64 x 128
// blocks win from seq 4096 and 64 x 64 at 1024; slower at seq 1024 but at
// head_dim 128 without a mask, and at head_dim 64 causal). The benchmark
// keeps the faster pass. Persistent 64 x 128 programs at head_dim 64: the
// fused pass 1.02x at seq 8192, about even at 4096, 0.99x at 1024 (at
// head_dim 128 the kernel 1.00-1.01x without a mask, 0.81x causal: not
// kept).
TILE_CONFIGS(attention_bwd_fused_f16,
             tile::config{.meta = {64, 128, 128, 0, 0},
                          .num_warps = 8,
                          .num_stages = 2,
                          .launch_pdl = true},
             tile::config{.meta = {64, 128, 128, 1, 0},
                          .num_warps = 8,
                          .num_stages = 2,
                          .launch_pdl = true},
             tile::config{.meta = {64, 128, 64, 0, 0},
                          .num_warps = 8,
                          .num_stages = 2,
                          .launch_pdl = true},
             tile::config{.meta = {64, 64, 64, 0, 0},
                          .num_warps = 4,
                          .num_stages = 2,
                          .launch_pdl = true},
             tile::config{.meta = {64, 128, 64, 0, 1},
                          .num_warps = 8,
                          .num_stages = 2,
                          .launch_pdl = true});
TILE_CONFIGS(
    attention_bwd_dq_cast_f16,
    tile::config{.meta = {64, 128}, .num_warps = 4, .launch_pdl = true},
    tile::config{.meta = {64, 64}, .num_warps = 4, .launch_pdl = true});

template <int BM, int D, int ZERO_DQ>
TILE_SELECT(attention_bwd_delta_f16)
bool attention_bwd_delta_f16_fits(const tile::half *, const tile::half *,
                                  float *, float *dq_acc, int, int,
                                  int head_dim) {
  return head_dim == D && ZERO_DQ == (dq_acc != nullptr);
}
template <int BM, int D, int ZERO_DQ>
TILE_GRID(attention_bwd_delta_f16)
tile::grid
    attention_bwd_delta_f16_grid(const tile::half *, const tile::half *,
                                 float *, float *, int seq, int heads, int) {
  return {tile::cdiv(seq, BM), heads};
}

template <int BM, int BN, int D, int CAUSAL>
TILE_SELECT(attention_bwd_dkdv_f16)
bool attention_bwd_dkdv_f16_fits(const tile::half *, const tile::half *,
                                 const tile::half *, const tile::half *,
                                 const float *, const float *, tile::half *,
                                 tile::half *, float, int, int, int head_dim,
                                 int causal) {
  return head_dim == D && causal == CAUSAL;
}
template <int BM, int BN, int D, int CAUSAL>
TILE_GRID(attention_bwd_dkdv_f16)
tile::grid attention_bwd_dkdv_f16_grid(const tile::half *, const tile::half *,
                                       const tile::half *, const tile::half *,
                                       const float *, const float *,
                                       tile::half *, tile::half *, float,
                                       int seq, int heads, int, int) {
  return {tile::cdiv(seq, BN), heads};
}

template <int BM, int BN, int D, int CAUSAL>
TILE_SELECT(attention_bwd_dq_f16)
bool attention_bwd_dq_f16_fits(const tile::half *, const tile::half *,
                               const tile::half *, const tile::half *,
                               const float *, const float *, tile::half *,
                               float, int, int, int head_dim, int causal) {
  return head_dim == D && causal == CAUSAL;
}
template <int BM, int BN, int D, int CAUSAL>
TILE_GRID(attention_bwd_dq_f16)
tile::grid attention_bwd_dq_f16_grid(const tile::half *, const tile::half *,
                                     const tile::half *, const tile::half *,
                                     const float *, const float *, tile::half *,
                                     float, int seq, int heads, int, int) {
  return {tile::cdiv(seq, BM), heads};
}

template <int BM, int BN, int D, int CAUSAL, int PERSISTENT>
TILE_SELECT(attention_bwd_fused_f16)
bool attention_bwd_fused_f16_fits(const tile::half *, const tile::half *,
                                  const tile::half *, const tile::half *,
                                  const float *, const float *, tile::half *,
                                  tile::half *, float *, float, int, int,
                                  int head_dim, int causal) {
  return head_dim == D && causal == CAUSAL;
}
// dQ is added up in dq_acc: tuning zeroes it before each trial.
TILE_TUNE(attention_bwd_fused_f16)
tile::tuning
attention_bwd_fused_f16_tuning(const tile::half *, const tile::half *,
                               const tile::half *, const tile::half *,
                               const float *, const float *, tile::half *,
                               tile::half *, float *dq_acc, float, int seq,
                               int heads, int head_dim, int causal) {
  return {.key = {seq, heads, head_dim, causal},
          .reset_to_zero = {
              tile::elements(dq_acc, (long long)heads * seq * head_dim)}};
}
template <int BM, int BN, int D, int CAUSAL, int PERSISTENT>
TILE_GRID(attention_bwd_fused_f16)
tile::grid attention_bwd_fused_f16_grid(const tile::half *, const tile::half *,
                                        const tile::half *, const tile::half *,
                                        const float *, const float *,
                                        tile::half *, tile::half *, float *,
                                        float, int seq, int heads, int, int) {
  if (!PERSISTENT)
    return {tile::cdiv(seq, BN), heads};
  return {std::min(tile::cdiv(seq, BN) * heads,
                   tile::num_sms() * tile::programs_per_sm())};
}

template <int BM, int D>
TILE_SELECT(attention_bwd_dq_cast_f16)
bool attention_bwd_dq_cast_f16_fits(const float *, tile::half *, int, int,
                                    int head_dim) {
  return head_dim == D;
}
template <int BM, int D>
TILE_GRID(attention_bwd_dq_cast_f16)
tile::grid attention_bwd_dq_cast_f16_grid(const float *, tile::half *, int seq,
                                          int heads, int) {
  return {tile::cdiv(seq, BM), heads};
}
