// Grouped GEMM (Triton's tutorial 08): C_g = A_g B_g for a group of
// independent products of different sizes in one launch. As the tutorial
// does, the kernel takes each problem's matrices by address (arrays of
// int64), its sizes as (m, n, k) triples and its leading dimensions as
// (lda, ldb, ldc) triples, and as many programs as the GPU holds at once
// walk the BM x BN tiles of all the problems in order, each taking every
// num_programs-th tile. A, B and C are fp16 and row-major; products
// accumulate in fp32. Unlike the tutorial's, the sizes need not be
// multiples of the blocks: the edges are masked.
#include <cstdint>
#include <tile/tile.hpp>

// One BM x BN tile of C = A B, the tile (tile_m, tile_n).
template <int BM, int BN, int BK>
void gemm_tile(const tile::half *a, const tile::half *b, tile::half *c, int m,
               int n, int k, int lda, int ldb, int ldc, int tile_m,
               int tile_n) {
  auto rm = tile_m * BM + tile::arange<BM>();
  auto rn = tile_n * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * lda + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * ldb + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * ldc + tile::expand_dims<0>(rn),
              tile::cast<tile::half>(acc),
              tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
}

template <int BM, int BN, int BK>
TILE_KERNEL void grouped_gemm(const int64_t *a_addrs, const int64_t *b_addrs,
                              const int64_t *c_addrs, const int *sizes,
                              const int *leading, int group_size) {
  int tile_index = tile::program_id(0);
  int problem_start = 0; // the index of problem g's first tile
  for (int g = 0; g < group_size; ++g) {
    const int m = tile::load(sizes + 3 * g);
    const int n = tile::load(sizes + 3 * g + 1);
    const int k = tile::load(sizes + 3 * g + 2);
    const int tiles_n = tile::cdiv(n, BN);
    const int tiles = tile::cdiv(m, BM) * tiles_n;
    while (tile_index >= problem_start && tile_index < problem_start + tiles) {
      const int lda = tile::load(leading + 3 * g);
      const int ldb = tile::load(leading + 3 * g + 1);
      const int ldc = tile::load(leading + 3 * g + 2);
      const int64_t a_addr = tile::load(a_addrs + g);
      const int64_t b_addr = tile::load(b_addrs + g);
      const int64_t c_addr = tile::load(c_addrs + g);
      const auto *a = tile::cast<const tile::half *>(a_addr);
      const auto *b = tile::cast<const tile::half *>(b_addr);
      auto *c = tile::cast<tile::half *>(c_addr);
      const int t = tile_index - problem_start;
      // 16-byte-aligned matrices whose rows (and their masked ends) come
      // in 16-byte pieces move 16 bytes per copy (the tutorial asserts the
      // alignment with tl.multiple_of); other problems take the
      // element-wise path, 32 columns of K a step: its copies go through
      // registers, and at 64 a step they took the registers of the 16-byte
      // path the kernel shares them with (ptxas: 64 x 128 x 64 at 255
      // registers with spills, 194 without; 128 x 128 x 64 spilled 780
      // bytes, 168).
      if (((a_addr | b_addr | c_addr) & 15) == 0 &&
          ((n | k | lda | ldb | ldc) & 7) == 0)
        gemm_tile<BM, BN, BK>(
            tile::multiple_of<16>(a), tile::multiple_of<16>(b),
            tile::multiple_of<16>(c), m, tile::multiple_of<8>(n),
            tile::multiple_of<8>(k), tile::multiple_of<8>(lda),
            tile::multiple_of<8>(ldb), tile::multiple_of<8>(ldc), t / tiles_n,
            t % tiles_n);
      else
        gemm_tile<BM, BN, (BK < 32 ? BK : 32)>(a, b, c, m, n, k, lda, ldb, ldc,
                                               t / tiles_n, t % tiles_n);
      tile_index += tile::num_programs(0);
    }
    problem_start += tiles;
  }
}

// Tutorial 08's configurations that fit tilecc's rules (a warpgroup per 64
// rows on sm_90a), with tilecc's usual stages, and 64 x 64 blocks of 64
// columns of K, at 4 x 512^3 on an H100 as fast as 64 x 128 x 64 (95-96
// TFLOP/s against 92-96, session 73), where 64 x 64 x 32 ran 87-89. The
// last, 128 x 256 blocks in 8 warps (the matmul sample's first), is there
// for the benchmark only until measured: from 2048^3 one cuBLAS call a
// product runs 1.35-1.43x the 4-warp blocks (session 76).
TILE_CONFIGS(
    grouped_gemm,
    tile::config{.meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3},
    tile::config{.meta = {128, 128, 32}, .num_warps = 4, .num_stages = 4},
    tile::config{.meta = {64, 128, 64}, .num_warps = 4, .num_stages = 3},
    tile::config{.meta = {64, 64, 32}, .num_warps = 4, .num_stages = 4},
    tile::config{.meta = {64, 64, 64}, .num_warps = 4, .num_stages = 3},
    tile::config{.meta = {128, 256, 64},
                 .num_warps = 8,
                 .num_stages = 3,
                 .autotune = false});

// As many programs as the GPU runs at once.
template <int BM, int BN, int BK>
TILE_GRID(grouped_gemm)
tile::grid grouped_gemm_grid(const int64_t *, const int64_t *, const int64_t *,
                             const int *, const int *, int) {
  return {tile::num_sms() * tile::programs_per_sm()};
}
