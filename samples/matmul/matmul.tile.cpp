// Matrix multiply C = A B (Triton's tutorial 03): A is M x K and B is K x N,
// both row-major, fp16 or bf16; products accumulate in fp32 on tensor cores
// and C is stored in the input type. matmul_tf32 multiplies fp32 matrices
// at TF32 precision; matmul_fp8 multiplies fp8 (e4m3) A by B given
// transposed (N x K row-major, the layout 8-bit GEMMs take) into fp16, and
// matmul_i8 int8 ones into int32. Programs walk the
// output in groups of GROUP_M block rows so that the blocks of A and B they
// share stay in L2. ACT = 1 applies a leaky ReLU before the store (a fused
// epilogue). The loads feeding dot are software-pipelined over num_stages
// shared-memory buffers.
#include "matmul_block.hpp"

#include <algorithm>
#include <cstdint>
#include <tile/tile.hpp>

// The kernels' offsets are 32-bit (matmul_block.hpp): a problem with an
// operand of 2^31 elements or more is refused (the launch wrapper returns
// an error) rather than addressed past the wrap. The rule of KERNEL, whose
// template parameters are the rest.
#define MATMUL_OFFSETS_FIT(KERNEL, TA, TB, TC, ...)                            \
  template <__VA_ARGS__>                                                       \
  TILE_SELECT(KERNEL)                                                          \
  bool KERNEL##_fits(const TA *, const TB *, TC *, int m, int n, int k) {      \
    return int64_t(m) * k <= INT32_MAX && int64_t(k) * n <= INT32_MAX &&       \
           int64_t(m) * n <= INT32_MAX;                                        \
  }

// Tutorial 09's persistent form: as many programs as the GPU runs at once
// walk the blocks of C in grouped order, so the next block's first copies
// can overlap this block's epilogue.
template <class T, int BM, int BN, int BK, int GROUP_M, int ACT>
void persistent_matmul_program(const T *a, const T *b, T *c, int m, int n,
                               int k) {
  const int blocks_m = tile::cdiv(m, BM), blocks_n = tile::cdiv(n, BN);
  const int blocks = blocks_m * blocks_n;
  for (int pid = tile::program_id(0); pid < blocks;
       pid += tile::num_programs(0)) {
    const auto [pid_m, pid_n] = tile::swizzle2d(pid / blocks_n, pid % blocks_n,
                                                blocks_m, blocks_n, GROUP_M);
    matmul_block<T, T, false, false, false, BM, BN, BK, ACT>(a, b, c, m, n, k,
                                                             pid_m, pid_n);
  }
}

template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_KERNEL void matmul_f16(const tile::half *a, const tile::half *b,
                            tile::half *c, int m, int n, int k) {
  matmul_program<tile::half, tile::half, false, false, false, BM, BN, BK,
                 GROUP_M, ACT>(a, b, c, m, n, k);
}

template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_KERNEL void matmul_bf16(const tile::bfloat16 *a, const tile::bfloat16 *b,
                             tile::bfloat16 *c, int m, int n, int k) {
  matmul_program<tile::bfloat16, tile::bfloat16, false, false, false, BM, BN,
                 BK, GROUP_M, ACT>(a, b, c, m, n, k);
}

// Tutorial 03's H100 configurations that fit tilecc's rules (a warpgroup
// per 64 rows) and the shared memory of both sm_90a and sm_80, the first
// transposed, a small one for small problems, and one whose 96 KB of
// stages let two programs share an SM; the last applies the leaky ReLU
// (asked for by index: the autotuner never chooses it). More
// configurations may follow.
#define MATMUL_CONFIGS(kernel, ...)                                            \
  TILE_CONFIGS(                                                                \
      kernel,                                                                  \
      tile::config{                                                            \
          .meta = {128, 256, 64, 8, 0}, .num_warps = 8, .num_stages = 3},      \
      tile::config{                                                            \
          .meta = {256, 128, 64, 8, 0}, .num_warps = 8, .num_stages = 3},      \
      tile::config{                                                            \
          .meta = {128, 128, 64, 8, 0}, .num_warps = 4, .num_stages = 4},      \
      tile::config{                                                            \
          .meta = {128, 128, 32, 8, 0}, .num_warps = 4, .num_stages = 4},      \
      tile::config{                                                            \
          .meta = {64, 64, 32, 8, 0}, .num_warps = 4, .num_stages = 4},        \
      tile::config{                                                            \
          .meta = {128, 128, 64, 8, 0}, .num_warps = 4, .num_stages = 3},      \
      tile::config{.meta = {128, 128, 64, 8, 1},                               \
                   .num_warps = 4,                                             \
                   .num_stages = 4,                                            \
                   .autotune = false} __VA_OPT__(, ) __VA_ARGS__)

// One program per block of C can also have a producer warpgroup issue its
// TMA copies (sm_90a; the persistent form could too, but has not been
// measured with it). The 128 x 256 blocks in four stages (192 KB: sm_90a
// only) are tutorial 03's choice where one wave of programs runs a long K
// (8192 x 512 x 4096): their C goes out through the stages' memory.
#define MATMUL_AND_WARP_SPECIALIZED_CONFIGS(kernel)                            \
  MATMUL_CONFIGS(kernel,                                                       \
                 tile::config{.meta = {128, 256, 64, 8, 0},                    \
                              .num_warps = 8,                                  \
                              .num_stages = 3,                                 \
                              .warp_specialize = true},                        \
                 tile::config{.meta = {128, 128, 64, 8, 0},                    \
                              .num_warps = 4,                                  \
                              .num_stages = 4,                                 \
                              .warp_specialize = true},                        \
                 tile::config{.meta = {128, 256, 64, 8, 0},                    \
                              .num_warps = 8,                                  \
                              .num_stages = 4},                                \
                 tile::config{.meta = {128, 256, 64, 8, 0},                    \
                              .num_warps = 8,                                  \
                              .num_stages = 4,                                 \
                              .warp_specialize = true})
MATMUL_AND_WARP_SPECIALIZED_CONFIGS(matmul_f16);
MATMUL_AND_WARP_SPECIALIZED_CONFIGS(matmul_bf16);

template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_GRID(matmul_f16)
tile::grid matmul_f16_grid(const tile::half *, const tile::half *, tile::half *,
                           int m, int n, int) {
  return {tile::cdiv(m, BM) * tile::cdiv(n, BN)};
}
template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_GRID(matmul_bf16)
tile::grid matmul_bf16_grid(const tile::bfloat16 *, const tile::bfloat16 *,
                            tile::bfloat16 *, int m, int n, int) {
  return {tile::cdiv(m, BM) * tile::cdiv(n, BN)};
}

template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_KERNEL void matmul_tf32(const float *a, const float *b, float *c, int m,
                             int n, int k) {
  matmul_program<float, float, false, false, false, BM, BN, BK, GROUP_M, ACT>(
      a, b, c, m, n, k);
}

// 32 bytes of K per tensor-core instruction: BK is a multiple of 8 here.
// On sm_90a these dots multiply C^T = B^T A^T (B is row-major fp32, which
// wgmma cannot read as staged), so a 256 x 128 block issues 64 x 256
// wgmmas, as a 128 x 256 block of fp16 does. Four of its stages (192 KB)
// are more than sm_80 has: the sm_80 build leaves that configuration out
// (tilecc --skip-unsupported).
#define MATMUL_TF32_LARGE_BLOCK                                                \
  tile::config {                                                               \
    .meta = {256, 128, 32, 8, 0}, .num_warps = 8, .num_stages = 4,             \
    .warp_specialize = true                                                    \
  }
TILE_CONFIGS(
    matmul_tf32,
    tile::config{.meta = {128, 128, 32, 8, 0}, .num_warps = 4, .num_stages = 4},
    tile::config{.meta = {128, 256, 32, 8, 0}, .num_warps = 8, .num_stages = 3},
    tile::config{.meta = {256, 128, 32, 8, 0}, .num_warps = 8, .num_stages = 3},
    tile::config{.meta = {64, 64, 32, 8, 0}, .num_warps = 4, .num_stages = 4},
    tile::config{.meta = {128, 128, 32, 8, 1},
                 .num_warps = 4,
                 .num_stages = 4,
                 .autotune = false},
    MATMUL_TF32_LARGE_BLOCK);

template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_GRID(matmul_tf32)
tile::grid
    matmul_tf32_grid(const float *, const float *, float *, int m, int n, int) {
  return {tile::cdiv(m, BM) * tile::cdiv(n, BN)};
}

template <int BM, int BN, int BK, int GROUP_M>
TILE_KERNEL void matmul_fp8(const tile::float8_e4m3 *a,
                            const tile::float8_e4m3 *b_t, tile::half *c, int m,
                            int n, int k) {
  matmul_program<tile::float8_e4m3, tile::half, false, true, false, BM, BN, BK,
                 GROUP_M, 0>(a, b_t, c, m, n, k);
}

// BK is a multiple of 32 for 8-bit operands.
TILE_CONFIGS(
    matmul_fp8,
    tile::config{.meta = {128, 256, 128, 8}, .num_warps = 8, .num_stages = 3},
    tile::config{.meta = {128, 128, 128, 8}, .num_warps = 4, .num_stages = 4},
    tile::config{.meta = {128, 256, 64, 8}, .num_warps = 8, .num_stages = 4},
    tile::config{.meta = {64, 64, 64, 8}, .num_warps = 4, .num_stages = 4});

template <int BM, int BN, int BK, int GROUP_M>
TILE_GRID(matmul_fp8)
tile::grid matmul_fp8_grid(const tile::float8_e4m3 *, const tile::float8_e4m3 *,
                           tile::half *, int m, int n, int) {
  return {tile::cdiv(m, BM) * tile::cdiv(n, BN)};
}

template <int BM, int BN, int BK, int GROUP_M>
TILE_KERNEL void matmul_i8(const int8_t *a, const int8_t *b_t, int32_t *c,
                           int m, int n, int k) {
  matmul_program<int8_t, int32_t, false, true, false, BM, BN, BK, GROUP_M, 0>(
      a, b_t, c, m, n, k);
}

// BK is a multiple of 32 for 8-bit operands.
TILE_CONFIGS(
    matmul_i8,
    tile::config{.meta = {128, 256, 128, 8}, .num_warps = 8, .num_stages = 3},
    tile::config{.meta = {128, 128, 128, 8}, .num_warps = 4, .num_stages = 4},
    tile::config{.meta = {128, 128, 64, 8}, .num_warps = 4, .num_stages = 4},
    tile::config{.meta = {64, 64, 64, 8}, .num_warps = 4, .num_stages = 4});

template <int BM, int BN, int BK, int GROUP_M>
TILE_GRID(matmul_i8)
tile::grid matmul_i8_grid(const int8_t *, const int8_t *, int32_t *, int m,
                          int n, int) {
  return {tile::cdiv(m, BM) * tile::cdiv(n, BN)};
}

template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_KERNEL void persistent_matmul_f16(const tile::half *a, const tile::half *b,
                                       tile::half *c, int m, int n, int k) {
  persistent_matmul_program<tile::half, BM, BN, BK, GROUP_M, ACT>(a, b, c, m, n,
                                                                  k);
}

template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_KERNEL void
persistent_matmul_bf16(const tile::bfloat16 *a, const tile::bfloat16 *b,
                       tile::bfloat16 *c, int m, int n, int k) {
  persistent_matmul_program<tile::bfloat16, BM, BN, BK, GROUP_M, ACT>(a, b, c,
                                                                      m, n, k);
}

MATMUL_CONFIGS(persistent_matmul_f16);
MATMUL_CONFIGS(persistent_matmul_bf16);

template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_KERNEL void persistent_matmul_tf32(const float *a, const float *b,
                                        float *c, int m, int n, int k) {
  persistent_matmul_program<float, BM, BN, BK, GROUP_M, ACT>(a, b, c, m, n, k);
}

// With a producer warpgroup, the next block's copies run during this
// block's epilogue; the second fits sm_80.
TILE_CONFIGS(persistent_matmul_tf32, MATMUL_TF32_LARGE_BLOCK,
             tile::config{.meta = {256, 128, 32, 8, 0},
                          .num_warps = 8,
                          .num_stages = 3});

// Every program the GPU holds at once, but no more than there are blocks.
template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_GRID(persistent_matmul_f16)
tile::grid persistent_matmul_f16_grid(const tile::half *, const tile::half *,
                                      tile::half *, int m, int n, int) {
  return {std::min(tile::cdiv(m, BM) * tile::cdiv(n, BN),
                   tile::num_sms() * tile::programs_per_sm())};
}
template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_GRID(persistent_matmul_tf32)
tile::grid persistent_matmul_tf32_grid(const float *, const float *, float *,
                                       int m, int n, int) {
  return {std::min(tile::cdiv(m, BM) * tile::cdiv(n, BN),
                   tile::num_sms() * tile::programs_per_sm())};
}
template <int BM, int BN, int BK, int GROUP_M, int ACT>
TILE_GRID(persistent_matmul_bf16)
tile::grid
    persistent_matmul_bf16_grid(const tile::bfloat16 *, const tile::bfloat16 *,
                                tile::bfloat16 *, int m, int n, int) {
  return {std::min(tile::cdiv(m, BM) * tile::cdiv(n, BN),
                   tile::num_sms() * tile::programs_per_sm())};
}

MATMUL_OFFSETS_FIT(matmul_f16, tile::half, tile::half, tile::half, int BM,
                   int BN, int BK, int GROUP_M, int ACT)
MATMUL_OFFSETS_FIT(matmul_bf16, tile::bfloat16, tile::bfloat16, tile::bfloat16,
                   int BM, int BN, int BK, int GROUP_M, int ACT)
MATMUL_OFFSETS_FIT(matmul_tf32, float, float, float, int BM, int BN, int BK,
                   int GROUP_M, int ACT)
MATMUL_OFFSETS_FIT(matmul_fp8, tile::float8_e4m3, tile::float8_e4m3, tile::half,
                   int BM, int BN, int BK, int GROUP_M)
MATMUL_OFFSETS_FIT(matmul_i8, int8_t, int8_t, int32_t, int BM, int BN, int BK,
                   int GROUP_M)
MATMUL_OFFSETS_FIT(persistent_matmul_f16, tile::half, tile::half, tile::half,
                   int BM, int BN, int BK, int GROUP_M, int ACT)
MATMUL_OFFSETS_FIT(persistent_matmul_bf16, tile::bfloat16, tile::bfloat16,
                   tile::bfloat16, int BM, int BN, int BK, int GROUP_M, int ACT)
MATMUL_OFFSETS_FIT(persistent_matmul_tf32, float, float, float, int BM, int BN,
                   int BK, int GROUP_M, int ACT)
#undef MATMUL_OFFSETS_FIT
