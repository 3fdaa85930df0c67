// Kernels that exercise the translator's code generation broadly: every
// elementwise op family, integer wrap-around, 2-D tiles accessed along
// either dimension, a tile needed in two layouts, loops and branches that
// carry tiles, and 16-bit floats. ops_check.cpp runs each on the GPU and in
// emulation and compares.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tile/tile.hpp>
#include <type_traits>

template <int BLOCK>
TILE_KERNEL void float_ops(const float *x, const float *y, float *out, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto a = tile::load(x + offs, mask, 1.0f);
  auto b = tile::load(y + offs, mask, 2.0f);
  auto base = out + offs;
  tile::store(base, tile::where(a > b, a * b, a - b), mask);
  tile::store(base + n, tile::exp(a * 0.1f) + tile::sqrt(tile::abs(b)), mask);
  tile::store(base + 2 * n, tile::maximum(a, b) / (1.0f + tile::abs(b)), mask);
  tile::store(base + 3 * n, tile::sigmoid(a) + tile::erf(b), mask);
  tile::store(base + 4 * n, tile::floor(a) * tile::ceil(b), mask);
  tile::store(base + 5 * n, tile::fma(a, b, 0.5f), mask);
  tile::store(base + 6 * n, tile::clamp(a, -0.5f, 0.5f), mask);
  tile::store(base + 7 * n, tile::rsqrt(tile::abs(a) + 1.0f), mask);
  tile::store(base + 8 * n,
              tile::log(tile::abs(a) + 1.0f) - tile::log2(b * b + 1.0f), mask);
  tile::store(base + 9 * n, tile::exp2(a * 0.25f) + tile::sin(a) * tile::cos(b),
              mask);
  tile::store(base + 10 * n,
              tile::minimum(-a, b) +
                  tile::where(a < 0.0f && b > 0.0f, 1.0f, 0.0f),
              mask);
  // Every element through the polynomial, as in emulation: the device's
  // arithmetic against the host's, across the exponent range and below it.
  tile::store(base + 11 * n,
              tile::exp2_cubic<8>(a * 31.0f) +
                  tile::exp2_cubic<8>(-a * a * 10.0f),
              mask);
}

template <int BLOCK>
TILE_KERNEL void int_ops(const int *x, const int *y, int *out, int8_t *out8,
                         int64_t *out64, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto a = tile::load(x + offs, mask, 0);
  auto b = tile::load(y + offs, mask, 1);
  auto base = out + offs;
  tile::store(base, (a & b) | (a ^ 0x55), mask);
  tile::store(base + n, (a << 3) + (b >> 2), mask);
  tile::store(base + 2 * n, a % (tile::abs(b) + 1), mask);
  tile::store(base + 3 * n, tile::where(a >= b, a, -b) + (~a), mask);
  tile::store(base + 4 * n, tile::cast<int>(tile::cast<unsigned>(a) >> 28),
              mask);
  auto small = tile::cast<int8_t>(a);
  tile::store(out8 + offs, small + small * tile::cast<int8_t>(b), mask);
  tile::store(out64 + offs, tile::cast<int64_t>(a) * 65536 * 65536 + b, mask);
}

// Integer tiles divided in a loop by kernel arguments: each argument's
// multiply-and-shift divisor is made once, at the kernel's start.
template <int BLOCK>
TILE_KERNEL void invariant_divisions(const int *x, const unsigned *u, int *out,
                                     unsigned *uout, int n, int d, unsigned m) {
  auto cols = tile::arange<BLOCK>();
  for (int i = tile::program_id(0) * BLOCK; i < n;
       i += tile::num_programs(0) * BLOCK) {
    auto mask = i + cols < n;
    auto a = tile::load(x + i + cols, mask, 0);
    auto b = tile::load(u + i + cols, mask, 0u);
    tile::store(out + i + cols, a % d, mask);
    tile::store(out + n + i + cols, tile::floordiv(a, d), mask);
    tile::store(uout + i + cols, b % m, mask);
    tile::store(uout + n + i + cols, tile::floordiv(b, m), mask);
  }
}

// Row-major and column-major reads of one matrix; 1-D tiles broadcast into
// 2-D: one recomputed in the 2-D layout's slice (index arithmetic), one
// converted through shared memory (it was loaded).
template <int BM, int BN>
TILE_KERNEL void matrix(const float *a, const float *colv, float *out,
                        float *colout, int m, int n, int lda) {
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
  auto cols = tile::program_id(1) * BN + tile::arange<BN>();
  auto mask = tile::expand_dims<1>(rows < m) && tile::expand_dims<0>(cols < n);
  auto row_major = tile::load(a + tile::expand_dims<1>(rows) * lda +
                                  tile::expand_dims<0>(cols),
                              mask, 0.0f);
  auto transposed = tile::load(a + tile::expand_dims<1>(rows) +
                                   tile::expand_dims<0>(cols) * lda,
                               mask, 0.0f);
  auto out_offs = tile::expand_dims<1>(rows) * n + tile::expand_dims<0>(cols);
  tile::store(out + out_offs, row_major * 2.0f + transposed, mask);
  auto scale = tile::cast<float>(cols) * 0.5f;
  auto cv = tile::load(colv + cols, cols < n, 0.0f);
  if (tile::program_id(0) == 0)
    tile::store(colout + cols, scale + cv, cols < n);
  tile::store(
      out + m * n + out_offs,
      row_major * tile::expand_dims<0>(scale) - tile::expand_dims<0>(cv), mask);
}

template <int BLOCK>
TILE_KERNEL void loops(const float *x, float *out, int n, int steps) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask, 0.0f);
  auto acc = tile::zeros<float, BLOCK>();
  float weight = 1.0f;
  for (int s = 0; s < steps; s += 2) {
    acc = acc + v * weight;
    if (s % 4 == 0) {
      weight = weight * 0.5f;
      acc = tile::maximum(acc, -1.0f);
    } else {
      acc = acc - 0.25f;
    }
  }
  tile::store(out + offs, acc + weight, mask);
}

template <int BLOCK>
TILE_KERNEL void halves(const tile::half *x, const tile::bfloat16 *y,
                        tile::half *out, tile::bfloat16 *out_bf, float *out_f,
                        int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto a = tile::load(x + offs, mask, 0.0f);
  auto b = tile::load(y + offs, mask, 0.0f);
  tile::store(out + offs, a * a + a, mask);
  tile::store(out_bf + offs,
              tile::cast<tile::bfloat16>(tile::cast<float>(b) * 3.0f), mask);
  tile::store(out_f + offs, tile::cast<float>(a) + tile::cast<float>(b), mask);
}

// 8-bit floats: float to e4m3 and e5m2 (rounding to nearest even,
// saturating to the largest finite value) and back, and a dot of e5m2
// tiles (A computed, B row-major: staged from registers for the tensor
// cores) accumulating in float.
template <int BLOCK, int M, int N, int K>
TILE_KERNEL void eights(const float *x, tile::float8_e4m3 *out4,
                        tile::float8_e5m2 *out5, float *back,
                        const tile::float8_e5m2 *a, const tile::float8_e5m2 *b,
                        float *c, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask, 0.0f);
  auto e4 = tile::cast<tile::float8_e4m3>(v);
  auto e5 = tile::cast<tile::float8_e5m2>(v);
  tile::store(out4 + offs, e4, mask);
  tile::store(out5 + offs, e5, mask);
  tile::store(back + offs, tile::cast<float>(e4) - tile::cast<float>(e5), mask);
  auto rm = tile::arange<M>(), rn = tile::arange<N>();
  auto rk = tile::arange<K>();
  auto x_tile =
      tile::load(a + tile::expand_dims<1>(rm) * K + tile::expand_dims<0>(rk));
  auto y_tile =
      tile::load(b + tile::expand_dims<1>(rk) * N + tile::expand_dims<0>(rn));
  auto halved = tile::cast<tile::float8_e5m2>(tile::cast<float>(x_tile) * 0.5f);
  auto prod = tile::dot(halved, y_tile);
  tile::store(c + tile::expand_dims<1>(rm) * N + tile::expand_dims<0>(rn) +
                  tile::program_id(0) * M * N,
              prod);
}

// A strided gather: with stride == 1 the wrapper picks the `unit` variant,
// whose reads are 16 bytes wide.
template <int BLOCK>
TILE_KERNEL void strided(const float *x, float *out, int n, int stride) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  tile::store(out + offs, tile::load(x + offs * stride, mask) + 1.0f, mask);
}

// Reductions along each axis of a 2-D tile and of whole tiles, including a
// tile smaller than the program's threads (whose copies must not be counted
// twice).
template <int ROWS, int COLS>
TILE_KERNEL void reductions(const float *x, const int *k, float *out,
                            float *sums, float *col_min, int *arg, int *bits,
                            float *total, int n_rows, int n_cols) {
  int pid = tile::program_id(0);
  auto r = pid * ROWS + tile::arange<ROWS>();
  auto c = tile::arange<COLS>();
  auto offs = tile::expand_dims<1>(r) * n_cols + tile::expand_dims<0>(c);
  auto mask =
      tile::expand_dims<1>(r < n_rows) && tile::expand_dims<0>(c < n_cols);
  auto v = tile::load(x + offs, mask, -INFINITY);
  auto z = tile::load(x + offs, mask, 0.0f);
  tile::store(out + offs, v - tile::max<1, true>(v), mask);
  auto row_sums = tile::sum<1>(z);
  tile::store(sums + r, row_sums, r < n_rows);
  tile::store(col_min + pid * COLS + c, tile::min<0>(z), c < n_cols);
  tile::store(arg + r, tile::argmax<1>(v), r < n_rows);
  tile::store(bits + pid, tile::xor_sum(tile::load(k + offs, mask, 0)));
  tile::store(total + pid, tile::sum(row_sums));
}

// Row sums a loop carries (l = l * a + sum(x), t = sum(x * x) + t, then
// t on through a second loop), which tilecc keeps per lane through the
// loops and combines after them: the starting values must count once,
// with no steps too.
template <int ROWS, int COLS>
TILE_KERNEL void running_sums(const float *x, const float *decay,
                              const float *start, float *out, int n_rows,
                              int steps) {
  auto r = tile::program_id(0) * ROWS + tile::arange<ROWS>();
  auto c = tile::arange<COLS>();
  auto in_rows = r < n_rows;
  auto l = tile::load(start + r, in_rows, 0.0f);
  auto t = tile::full<ROWS>(1.0f);
  for (int s = 0; s < steps; ++s) {
    auto v = tile::load(x + tile::expand_dims<1>(r) * (steps * COLS) +
                            s * COLS + tile::expand_dims<0>(c),
                        tile::expand_dims<1>(in_rows), 0.0f);
    l = l * tile::load(decay + s * n_rows + r, in_rows, 1.0f) + tile::sum<1>(v);
    t = tile::sum<1>(v * v) + t;
  }
  // t's partial sums carry on into a second loop.
  for (int s = 0; s < steps; s += 2)
    t = t +
        tile::sum<1>(tile::load(x + tile::expand_dims<1>(r) * (steps * COLS) +
                                    s * COLS + tile::expand_dims<0>(c),
                                tile::expand_dims<1>(in_rows), 0.0f));
  tile::store(out + r, l, in_rows);
  tile::store(out + n_rows + r, t, in_rows);
}

// Reductions and scans with combines: a lambda, a (value, index) pair,
// Welford's (mean, m2, count), cumsum and cumprod, a reverse scan, and a
// non-commutative scan over pairs (the linear recurrence h = m * h + c),
// along each axis; includes tiles smaller than the program's threads.
template <int ROWS, int COLS>
TILE_KERNEL void combines(const float *x, float *row_stats, int *row_arg,
                          float *scans, int *col_counts, float *best,
                          int n_rows, int n_cols) {
  int pid = tile::program_id(0);
  auto r = pid * ROWS + tile::arange<ROWS>();
  auto c = tile::arange<COLS>();
  auto offs = tile::expand_dims<1>(r) * n_cols + tile::expand_dims<0>(c);
  auto in_rows = tile::expand_dims<1>(r < n_rows);
  auto mask = in_rows && tile::expand_dims<0>(c < n_cols);
  auto v = tile::load(x + offs, mask, 0.0f);

  auto larger = [](float a, float b) { return a > b ? a : b; };
  auto row_max = tile::reduce<1>(tile::load(x + offs, mask, -INFINITY), larger);
  auto welford = [](float mean_a, float m2_a, float n_a, float mean_b,
                    float m2_b, float n_b) {
    float n = n_a + n_b;
    float delta = mean_b - mean_a;
    float w = n == 0.0f ? 0.0f : n_b / n;
    return std::tuple{mean_a + delta * w, m2_a + m2_b + delta * delta * n_a * w,
                      n};
  };
  auto ones = tile::where(mask, 1.0f, 0.0f);
  auto [mean, m2, count] = tile::reduce<1>(
      std::tuple{v, tile::zeros<float, ROWS, COLS>(), ones}, welford);
  auto stats = row_stats + r * 3;
  tile::store(stats, row_max, r < n_rows);
  tile::store(stats + 1, mean, r < n_rows);
  tile::store(stats + 2, m2 / count, r < n_rows);

  auto smaller_first = [](float va, int ia, float vb, int ib) {
    bool take_b = vb < va || (vb == va && ib < ia);
    return std::make_tuple(take_b ? vb : va, take_b ? ib : ia);
  };
  auto cols = tile::broadcast_to<ROWS, COLS>(tile::expand_dims<0>(c));
  auto at = std::get<1>(tile::reduce<1>(
      std::tuple{tile::load(x + offs, mask, INFINITY), cols}, smaller_first));
  tile::store(row_arg + r, at, r < n_rows);

  auto local = tile::expand_dims<1>(tile::arange<ROWS>()) * COLS +
               tile::expand_dims<0>(c);
  auto plane = scans + pid * (ROWS * COLS * 4) + local;
  tile::store(plane, tile::cumsum<1>(v));
  tile::store(plane + ROWS * COLS, tile::cumprod<1>(1.0f + v * 0.01f));
  auto add = [](float a, float b) { return a + b; };
  tile::store(plane + 2 * ROWS * COLS, tile::associative_scan<0, true>(v, add));
  auto compose = [](float m1, float c1, float m2, float c2) {
    return std::tuple{m1 * m2, c1 * m2 + c2};
  };
  auto [m, h] =
      tile::associative_scan<1>(std::tuple{0.5f + 0.25f * v, v}, compose);
  tile::store(plane + 3 * ROWS * COLS, h + 0.0f * m);
  tile::store(col_counts + pid * (ROWS * COLS) + local,
              tile::cumsum<0>(tile::cast<int>(mask)));

  auto [top, top_row] = tile::reduce<0>(
      std::tuple{row_max, r}, [](float a, int ia, float b, int ib) {
        return std::tuple{a >= b ? a : b, a >= b ? ia : ib};
      });
  tile::store(best + pid * 2, top);
  tile::store(best + pid * 2 + 1, tile::cast<float>(top_row));
}

// Matrix multiply on small blocks: a K loop of dot over tiles of A and B
// (half, B given transposed so that trans runs too, on tensor cores by
// mma.sync even on sm_90a, the blocks too small for warpgroups; and float
// with ieee precision, on CUDA cores), with ragged edges masked.
template <int BM, int BN, int BK>
TILE_KERNEL void matmul_fma(const tile::half *a, const tile::half *bt,
                            const float *x, const float *y, float *c, float *z,
                            int m, int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  auto acc32 = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto rows_a = tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k);
    auto a_tile = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk), rows_a);
    auto bt_tile = tile::load(
        bt + tile::expand_dims<1>(rn) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rn < n) && tile::expand_dims<0>(kk < k));
    acc = tile::dot(a_tile, tile::trans(bt_tile), acc);
    auto x_tile = tile::load(
        x + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk), rows_a);
    auto y_tile = tile::load(
        y + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc32 = tile::dot(x_tile, y_tile, acc32, tile::input_precision::ieee);
  }
  auto offs = tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn);
  auto mask = tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n);
  tile::store(c + offs, acc, mask);
  tile::store(z + offs, acc32, mask);
}

// Triton's tutorial 03 as written there: pointer tiles built once from
// strides and advanced by the K loop, rows and columns wrapped with `%`
// instead of masked, K masked against what is left. The loop is
// pipelined with the carried pointers advanced for each prefetch. The
// accumulator is TC: float, or half (tensor cores sum in float, each dot
// rounds once).
template <class TC, int BM, int BN, int BK>
void matmul_ptrs_block(const tile::half *a, const tile::half *b, tile::half *c,
                       int m, int n, int k, int stride_am, int stride_ak,
                       int stride_bk, int stride_bn, int stride_cm,
                       int stride_cn) {
  auto offs_am = (tile::program_id(0) * BM + tile::arange<BM>()) % m;
  auto offs_bn = (tile::program_id(1) * BN + tile::arange<BN>()) % n;
  auto offs_k = tile::arange<BK>();
  auto a_ptrs = a + (tile::expand_dims<1>(offs_am) * stride_am +
                     tile::expand_dims<0>(offs_k) * stride_ak);
  auto b_ptrs = b + (tile::expand_dims<1>(offs_k) * stride_bk +
                     tile::expand_dims<0>(offs_bn) * stride_bn);
  auto acc = tile::zeros<TC, BM, BN>();
  for (int kb = 0; kb < tile::cdiv(k, BK); ++kb) {
    auto x = tile::load(a_ptrs, tile::expand_dims<0>(offs_k) < k - kb * BK,
                        tile::half(0.0f));
    auto y = tile::load(b_ptrs, tile::expand_dims<1>(offs_k) < k - kb * BK,
                        tile::half(0.0f));
    acc = tile::dot(x, y, acc);
    a_ptrs = a_ptrs + BK * stride_ak;
    b_ptrs = b_ptrs + BK * stride_bk;
  }
  auto offs_cm = tile::program_id(0) * BM + tile::arange<BM>();
  auto offs_cn = tile::program_id(1) * BN + tile::arange<BN>();
  tile::store(c + tile::expand_dims<1>(offs_cm) * stride_cm +
                  tile::expand_dims<0>(offs_cn) * stride_cn,
              tile::cast<tile::half>(acc),
              tile::expand_dims<1>(offs_cm < m) &&
                  tile::expand_dims<0>(offs_cn < n));
}

#define MATMUL_PTRS(kernel, TC)                                                \
  template <int BM, int BN, int BK>                                            \
  TILE_KERNEL void kernel(const tile::half *a, const tile::half *b,            \
                          tile::half *c, int m, int n, int k, int stride_am,   \
                          int stride_ak, int stride_bk, int stride_bn,         \
                          int stride_cm, int stride_cn) {                      \
    matmul_ptrs_block<TC, BM, BN, BK>(a, b, c, m, n, k, stride_am, stride_ak,  \
                                      stride_bk, stride_bn, stride_cm,         \
                                      stride_cn);                              \
  }
MATMUL_PTRS(matmul_ptrs, float)
MATMUL_PTRS(matmul_ptrs_f16acc, tile::half)

// Attention's loop of two dots: Q K^T reads q, loaded before the loop, and
// P V the p computed in it, whose accumulator an `if` (CHOICE 0), a
// `where` on the same condition (1) or a `where` on a per-row mask (2)
// chooses. On sm_90a, q as wgmma register fragments came back overwritten
// by p in the next iteration (ptxas) with the first two, pipelined or
// not; tilecc keeps q in shared memory there. Keys past n are masked; m
// is a multiple of BM.
template <int BM, int BN, int D, int CHOICE>
TILE_KERNEL void two_dots_branch(const tile::half *q, const tile::half *k,
                                 const tile::half *v, float *out, int m, int n,
                                 int keep) {
  auto rows = tile::program_id(0) * BM + tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto qt =
      tile::load(q + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd));
  auto acc = tile::zeros<float, BM, D>();
  for (int n0 = 0; n0 < n; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    auto kt = tile::load(k + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(cols) * D,
                         tile::expand_dims<0>(cols < n));
    auto s = tile::dot(qt, kt);
    auto p = tile::cast<tile::half>(
        tile::exp2(s - tile::expand_dims<1>(tile::max<1>(s))));
    auto vb = tile::load(v + tile::expand_dims<1>(cols) * D +
                             tile::expand_dims<0>(rd),
                         tile::expand_dims<1>(cols < n));
    auto scaled = acc * 0.5f;
    if (CHOICE == 0) {
      if (keep > 0)
        scaled = acc;
    } else if (CHOICE == 1) {
      scaled = tile::where(tile::full<BM, D>(keep) > 0, acc, scaled);
    } else {
      scaled = tile::where(tile::expand_dims<1>(rows) < keep * m, acc, scaled);
    }
    acc = tile::dot(p, vb, scaled);
  }
  tile::store(out + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd),
              acc);
}

// Split-K: program (i, j, s) multiplies block (i, j) over the s-th of
// SPLITS slices of K (whole blocks of BK: no block straddles two) and adds
// the product and its column sums to fp32 c and col_sums. Their old values
// unread, the atomics update memory from the dot's accumulator layout and
// from the reduction's, whose copies of a sum must not add twice; on
// sm_90a the product is one TMA reduce-add. The block's last split to
// count itself in (arrivals, zeroed before) rounds the block's sum into
// c_rounded: its count is an acquire, the others' a release, which must
// wait for their TMA adds to land.
template <int BM, int BN, int BK, int SPLITS>
TILE_KERNEL void matmul_split_k(const tile::half *a, const tile::half *b,
                                float *c, float *col_sums,
                                tile::half *c_rounded, int *arrivals, int m,
                                int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  const int slice = tile::cdiv(k, SPLITS * BK) * BK;
  const int k_lo = tile::program_id(2) * slice;
  const int k_hi = k_lo + slice < k ? k_lo + slice : k;
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = k_lo; k0 < k_hi; k0 += BK) {
    auto kk = k0 + tile::arange<BK>();
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  auto at = tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn);
  auto in = tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n);
  tile::atomic_add(c + at, acc, in, tile::mem_order::relaxed);
  tile::atomic_add(col_sums + rn, tile::sum<0>(acc), rn < n,
                   tile::mem_order::relaxed);
  int *block_arrivals = arrivals + tile::program_id(0) * tile::num_programs(1) +
                        tile::program_id(1);
  if (tile::atomic_add(block_arrivals, 1) == SPLITS - 1)
    tile::store(c_rounded + at, tile::cast<tile::half>(tile::load(c + at, in)),
                in);
}

// Each step of a pipelined loop adds its own product to fp32 c, which an
// sm_90a TMA variant does with one TMA reduce-add a step, its buffer
// rewritten only once the previous step's add has read it.
template <int BM, int BN, int BK>
TILE_KERNEL void matmul_step_adds(const tile::half *a, const tile::half *b,
                                  float *c, int m, int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + tile::arange<BK>();
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    tile::atomic_add(
        c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn),
        tile::dot(x, y),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n),
        tile::mem_order::relaxed);
  }
}

// A fused attention backward's dQ step: S = K Q^T (BN x BM), then
// trans(S) K (BM x D). With 8 warps the 64-row product splits its warps
// along N too, numbered M first so that each warpgroup owns 64 rows
// (wgmma on sm_90a).
// At 64 x 128 x 128 its dots and transpose share 48 KB of scratch, the
// most sm_80 allows static. With 2 stages Q^T's blocks are prefetched (by
// TMA on sm_90a) and K's block is written to shared memory once, as the
// second dot's B; with a producer warpgroup the second dot meets the
// consumers at their named barrier. With ADD the product is added to out
// (by TMA on sm_90a, whose barrier then stands for the dot's last).
template <int BM, int BN, int D, int ADD>
TILE_KERNEL void transposed_dot(const tile::half *k, const tile::half *q,
                                float *out, int m) {
  auto rn = tile::arange<BN>();
  auto rd = tile::arange<D>();
  auto k_blk =
      tile::load(k + tile::expand_dims<1>(rn) * D + tile::expand_dims<0>(rd));
  for (int m0 = 0; m0 < m; m0 += BM) {
    auto rows = m0 + tile::arange<BM>();
    auto qt = tile::load(q + tile::expand_dims<1>(rd) +
                             tile::expand_dims<0>(rows) * D,
                         tile::expand_dims<0>(rows < m));
    auto p = tile::cast<tile::half>(tile::dot(k_blk, qt) * 0.125f);
    auto product = tile::dot(tile::trans(p), k_blk);
    auto at = out + tile::expand_dims<1>(rows) * D + tile::expand_dims<0>(rd);
    if (ADD)
      tile::atomic_add(at, product, tile::expand_dims<1>(rows < m),
                       tile::mem_order::relaxed);
    else
      tile::store(at, product, tile::expand_dims<1>(rows < m));
  }
}

// C = A B of fp32 at TF32 precision, B row-major: on sm_90a the dot
// multiplies C^T = B^T A^T and C has the transpose of a wgmma accumulator
// layout, which C's store and its reductions along both axes (row sums,
// column maxima) take as any blocked layout.
template <int BM, int BN, int BK>
TILE_KERNEL void tf32_reduced(const float *a, const float *b, float *c,
                              float *row_sums, float *col_max, int k) {
  auto rm = tile::arange<BM>();
  auto rn = tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto x = tile::load(a + tile::expand_dims<1>(rm) * k +
                        tile::expand_dims<0>(k0 + rk));
    auto y = tile::load(b + tile::expand_dims<1>(k0 + rk) * BN +
                        tile::expand_dims<0>(rn));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * BN + tile::expand_dims<0>(rn),
              acc);
  tile::store(row_sums + rm, tile::sum<1>(acc));
  tile::store(col_max + rn, tile::max<0>(acc));
}

// Attention's two products in a pipelined loop, for 8- and 32-bit
// elements: S = Q K^T, then acc += P V with P computed from S, held in
// S's accumulator layout. Their mma A fragments hold consecutive k, which
// an accumulator's column pairs are not: an 8-bit P's are exchanged among
// each row's threads, a 32-bit P is staged. V is given transposed, K-major
// as 8-bit tensor-core operands must be. 8-bit integers accumulate in int.
template <class T, int BM, int BN, int D>
void chained_dots(const T *q, const T *k, const T *vt, float *out, int seq) {
  using Acc = std::conditional_t<std::is_integral_v<T>, int, float>;
  auto rm = tile::arange<BM>();
  auto rd = tile::arange<D>();
  auto q_tile =
      tile::load(q + tile::expand_dims<1>(rm) * D + tile::expand_dims<0>(rd));
  auto acc = tile::zeros<Acc, BM, D>();
  for (int n0 = 0; n0 < seq; n0 += BN) {
    auto cols = n0 + tile::arange<BN>();
    auto s = tile::dot(q_tile, tile::load(k + tile::expand_dims<1>(rd) +
                                          tile::expand_dims<0>(cols) * D));
    auto vb = tile::load(vt + tile::expand_dims<1>(rd) * seq +
                         tile::expand_dims<0>(cols));
    acc = tile::dot(tile::cast<T>(s * 0.125f), tile::trans(vb), acc);
  }
  tile::store(out + tile::expand_dims<1>(rm) * D + tile::expand_dims<0>(rd),
              tile::cast<float>(acc));
}
template <int BM, int BN, int D>
TILE_KERNEL void
chained_dots_fp8(const tile::float8_e4m3 *q, const tile::float8_e4m3 *k,
                 const tile::float8_e4m3 *vt, float *out, int seq) {
  chained_dots<tile::float8_e4m3, BM, BN, D>(q, k, vt, out, seq);
}
template <int BM, int BN, int D>
TILE_KERNEL void chained_dots_tf32(const float *q, const float *k,
                                   const float *vt, float *out, int seq) {
  chained_dots<float, BM, BN, D>(q, k, vt, out, seq);
}
template <int BM, int BN, int D>
TILE_KERNEL void chained_dots_i8(const int8_t *q, const int8_t *k,
                                 const int8_t *vt, float *out, int seq) {
  chained_dots<int8_t, BM, BN, D>(q, k, vt, out, seq);
}

// S = Q K^T for row blocks of Q against one block of K, in a loop that
// names its stages (each thread stages its Q elements): K^T, the same
// every iteration, is written to shared memory once, before the loop, and
// the dot takes Q's fragments from registers.
template <int BM, int BN, int D>
TILE_KERNEL void invariant_b_dot(const tile::half *k, const tile::half *q,
                                 float *out, int m) {
  auto rn = tile::arange<BN>();
  auto rd = tile::arange<D>();
  auto kt = tile::trans(
      tile::load(k + tile::expand_dims<1>(rn) * D + tile::expand_dims<0>(rd)));
  for (int m0 : tile::range(0, m, BM, 2)) {
    auto rows = m0 + tile::arange<BM>();
    auto q_blk = tile::load(q + tile::expand_dims<1>(rows) * D +
                            tile::expand_dims<0>(rd));
    tile::store(out + tile::expand_dims<1>(rows) * BN +
                    tile::expand_dims<0>(rn),
                tile::dot(q_blk, kt));
  }
}

// dK's product with a loop-invariant B: P = K Q^T for each block of Q's
// rows (Q^T prefetched), then acc += P W with W loaded before the loop. W
// is written to shared memory once and P's fragments stay in registers, so
// the second dot writes nothing to shared memory.
template <int BN, int BM, int D>
TILE_KERNEL void invariant_b_acc(const tile::half *k, const tile::half *q,
                                 const tile::half *w, float *out, int m) {
  auto rn = tile::arange<BN>();
  auto rd = tile::arange<D>();
  auto k_blk =
      tile::load(k + tile::expand_dims<1>(rn) * D + tile::expand_dims<0>(rd));
  auto w_blk = tile::load(w + tile::expand_dims<1>(tile::arange<BM>()) * D +
                          tile::expand_dims<0>(rd));
  auto acc = tile::zeros<float, BN, D>();
  for (int m0 = 0; m0 < m; m0 += BM) {
    auto rows = m0 + tile::arange<BM>();
    auto qt = tile::load(q + tile::expand_dims<1>(rd) +
                         tile::expand_dims<0>(rows) * D);
    auto p = tile::cast<tile::half>(tile::dot(k_blk, qt) * 0.125f);
    acc = tile::dot(p, w_blk, acc);
  }
  tile::store(out + tile::expand_dims<1>(rn) * D + tile::expand_dims<0>(rd),
              acc);
}

// Atomics on a pointer tile (a histogram; float max through a CAS loop)
// and on one pointer (once per program), including a tile smaller than the
// program's threads, whose copies must not add twice.
template <int BLOCK>
TILE_KERNEL void histogram(const int *x, int *hist, float *peak, int *programs,
                           int n, int bins) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask, 0);
  auto bin = v % bins;
  tile::atomic_add(hist + bin, 1, mask);
  tile::atomic_max(peak + bin, tile::cast<float>(v) * 0.5f, mask);
  tile::atomic_add(programs, 1);
}

// 16-bit float atomic adds, many lanes to a bin (sums of ones and halves,
// exact in either type, so any order of the adds gives the same result).
template <int BLOCK>
TILE_KERNEL void half_sums(const int *bins, tile::half *h, tile::bfloat16 *b,
                           int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto bin = tile::load(bins + offs, mask, 0);
  tile::atomic_add(h + bin, 1.0f, mask, tile::mem_order::relaxed);
  tile::atomic_add(b + bin, 0.5f, mask, tile::mem_order::relaxed);
}

// libdevice's functions (tl.extra.libdevice) in float and double, the
// std:: spellings of a few on scalars, and the IEEE-rounded forms.
template <int BLOCK>
TILE_KERNEL void libdevice(const float *x, const double *xd, float *out,
                           double *outd, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto a = tile::load(x + offs, mask, 0.5f); // in (-1, 1)
  auto base = out + offs;
  tile::store(base, tile::asin(a) + tile::acos(a) * tile::atan(a), mask);
  tile::store(base + n, tile::tan(a) - tile::sinh(a) + tile::cosh(a), mask);
  tile::store(base + 2 * n,
              tile::asinh(a) + tile::atanh(a * 0.5f) +
                  tile::acosh(tile::abs(a) + 1.0f),
              mask);
  tile::store(base + 3 * n,
              tile::log10(a + 2.0f) + tile::log1p(a) - tile::expm1(a), mask);
  tile::store(base + 4 * n, tile::cbrt(a) + tile::erfc(a) + tile::erfinv(a),
              mask);
  tile::store(base + 5 * n,
              tile::trunc(a * 7.5f) + tile::rint(a * 7.5f) * 10.0f +
                  tile::round(a * 7.5f) * 100.0f,
              mask);
  tile::store(base + 6 * n,
              tile::atan2(a, a + 0.25f) + tile::hypot(a, 2.0f) +
                  tile::copysign(1.5f, a),
              mask);
  tile::store(base + 7 * n, tile::div_rn(a, 3.0f) + tile::sqrt_rn(a + 1.0f),
              mask);
  const float s = tile::load(x);
  tile::store(base + 8 * n,
              std::asin(s) + std::atan2(s, 2.0f) + std::log1p(s) +
                  std::nearbyint(s * 5.0f) + tile::fdiv(a, 7.0f),
              mask);
  auto d = tile::load(xd + offs, mask, 0.5);
  tile::store(outd + offs, tile::asin(d) + tile::expm1(d) * tile::cbrt(d),
              mask);
  tile::store(outd + n + offs,
              tile::atan2(d, 0.5) + tile::div_rn(d, 3.0) + tile::erfinv(d),
              mask);
}

// Bit reinterpretation, high products and the *_like constructors.
template <int BLOCK>
TILE_KERNEL void bits(const float *x, const int *a, const unsigned *u,
                      const std::int64_t *w, int *out, unsigned *uout,
                      std::int64_t *wout, float *fout, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto f = tile::load(x + offs, mask, 1.0f);
  auto i = tile::load(a + offs, mask, 0);
  auto v = tile::load(u + offs, mask, 0u);
  auto l = tile::load(w + offs, mask, std::int64_t(0));
  tile::store(out + offs, tile::bitcast<int>(f) ^ tile::umulhi(i, i + 7), mask);
  tile::store(uout + offs,
              tile::umulhi(v, 0x9E3779B9u) + tile::bitcast<unsigned>(i), mask);
  tile::store(wout + offs, tile::umulhi(l, l * 3 + 1), mask);
  tile::store(fout + offs,
              tile::bitcast<float>(tile::bitcast<int>(f) + 1) +
                  tile::zeros_like(f) + tile::full_like(f, 2),
              mask);
}

// Alignment and contiguity the caller vouches for (tile::multiple_of,
// tile::max_contiguous): the generic variant vectorizes too.
template <int BLOCK>
TILE_KERNEL void hinted(const float *x, float *out, int n) {
  const float *xa = tile::multiple_of<16>(x);
  float *oa = tile::multiple_of<16>(out);
  auto offs = tile::max_contiguous<BLOCK>(tile::multiple_of<BLOCK>(
      tile::program_id(0) * BLOCK + tile::arange<BLOCK>()));
  auto mask = offs < tile::multiple_of<16>(n);
  tile::assume(n >= 16);
  tile::store(oa + offs, tile::load(xa + offs, mask) * 2.0f + 1.0f, mask);
}

// Philox streams from 32- and 64-bit offsets (tl.randint, randint4x, rand,
// randn, randn4x).
template <int BLOCK>
TILE_KERNEL void random(unsigned *words, std::uint64_t *words64, float *uni,
                        float *normal, std::int64_t seed, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto [r0, r1, r2, r3] = tile::randint4x(seed, offs);
  tile::store(words + offs, r0, mask);
  tile::store(words + n + offs, r1, mask);
  tile::store(words + 2 * n + offs, r2, mask);
  tile::store(words + 3 * n + offs, r3, mask);
  tile::store(words + 4 * n + offs, tile::randint<7>(seed, offs), mask);
  auto wide = tile::cast<std::int64_t>(offs) * 3000000000LL;
  tile::store(words64 + offs, tile::randint(seed, wide), mask);
  tile::store(uni + offs, tile::rand(seed, offs), mask);
  tile::store(uni + n + offs, tile::rand(seed, wide), mask);
  tile::store(normal + offs, tile::randn(seed, offs), mask);
  auto [n1, n2, n3, n4] = tile::randn4x(seed, offs);
  tile::store(normal + n + offs, n1 + n2 * n3 - n4, mask);
}

TILE_CONFIGS(float_ops, tile::config{.meta = {512}, .num_warps = 4},
             tile::config{.meta = {128}, .num_warps = 1});
TILE_CONFIGS(int_ops, tile::config{.meta = {256}, .num_warps = 2});
TILE_CONFIGS(invariant_divisions, tile::config{.meta = {256}, .num_warps = 2});
TILE_CONFIGS(libdevice, tile::config{.meta = {256}, .num_warps = 4});
TILE_CONFIGS(bits, tile::config{.meta = {256}, .num_warps = 4});
TILE_CONFIGS(hinted, tile::config{.meta = {256}, .num_warps = 2});
TILE_CONFIGS(random, tile::config{.meta = {512}, .num_warps = 4},
             tile::config{.meta = {64}, .num_warps = 2});
TILE_CONFIGS(matrix, tile::config{.meta = {32, 32}, .num_warps = 4},
             tile::config{.meta = {16, 64}, .num_warps = 2});
TILE_CONFIGS(loops, tile::config{.meta = {256}, .num_warps = 4});
TILE_CONFIGS(halves, tile::config{.meta = {1024}, .num_warps = 4});
TILE_CONFIGS(eights, tile::config{.meta = {512, 64, 64, 64}, .num_warps = 4});
TILE_CONFIGS(strided, tile::config{.meta = {512}, .num_warps = 4});
TILE_CONFIGS(histogram, tile::config{.meta = {256}, .num_warps = 4},
             tile::config{.meta = {16}, .num_warps = 4});
TILE_CONFIGS(combines, tile::config{.meta = {4, 64}, .num_warps = 4},
             tile::config{.meta = {16, 256}, .num_warps = 8},
             tile::config{.meta = {2, 16}, .num_warps = 4},
             tile::config{.meta = {64, 8}, .num_warps = 2});
TILE_CONFIGS(matmul_fma, tile::config{.meta = {32, 32, 16}, .num_warps = 4},
             tile::config{.meta = {16, 64, 32}, .num_warps = 2},
             tile::config{.meta = {32, 32, 256}, .num_warps = 4});
#define MATMUL_PTRS_CONFIGS(kernel)                                            \
  TILE_CONFIGS(                                                                \
      kernel,                                                                  \
      tile::config{.meta = {128, 128, 64}, .num_warps = 4, .num_stages = 3},   \
      tile::config{.meta = {64, 64, 32}, .num_warps = 4, .num_stages = 2},     \
      tile::config{.meta = {32, 64, 32}, .num_warps = 4, .num_stages = 2})
MATMUL_PTRS_CONFIGS(matmul_ptrs);
MATMUL_PTRS_CONFIGS(matmul_ptrs_f16acc);
TILE_CONFIGS(
    two_dots_branch,
    tile::config{.meta = {128, 64, 64, 0}, .num_warps = 8, .num_stages = 3},
    tile::config{.meta = {128, 64, 64, 0}, .num_warps = 8},
    tile::config{.meta = {128, 64, 64, 1}, .num_warps = 8, .num_stages = 3},
    tile::config{.meta = {128, 64, 64, 2}, .num_warps = 8, .num_stages = 3});
TILE_CONFIGS(matmul_split_k,
             tile::config{
                 .meta = {64, 64, 32, 4}, .num_warps = 4, .num_stages = 3},
             tile::config{.meta = {32, 32, 16, 3}, .num_warps = 4});
TILE_CONFIGS(matmul_step_adds, tile::config{.meta = {64, 64, 32},
                                            .num_warps = 4,
                                            .num_stages = 3});
TILE_CONFIGS(
    transposed_dot, tile::config{.meta = {64, 64, 64, 0}, .num_warps = 8},
    tile::config{.meta = {64, 64, 64, 0}, .num_warps = 4},
    tile::config{.meta = {64, 128, 128, 0}, .num_warps = 8},
    tile::config{.meta = {64, 64, 64, 0}, .num_warps = 4, .num_stages = 2},
    tile::config{.meta = {64, 128, 128, 0}, .num_warps = 8, .num_stages = 2},
    tile::config{.meta = {64, 64, 64, 0},
                 .num_warps = 4,
                 .num_stages = 2,
                 .warp_specialize = true},
    tile::config{.meta = {64, 128, 128, 0},
                 .num_warps = 8,
                 .num_stages = 2,
                 .warp_specialize = true},
    tile::config{.meta = {64, 64, 64, 1}, .num_warps = 4, .num_stages = 2},
    tile::config{.meta = {64, 128, 128, 1},
                 .num_warps = 8,
                 .num_stages = 2,
                 .warp_specialize = true},
    tile::config{.meta = {32, 64, 64, 1}, .num_warps = 4, .num_stages = 2});
// Pipelined (B^T gathered from its stage), unpipelined (rt::dot_mma
// stages both operands K-major), 8 warps that split C^T's columns too, and
// a producer warpgroup.
TILE_CONFIGS(
    tf32_reduced,
    tile::config{.meta = {64, 64, 32}, .num_warps = 4, .num_stages = 3},
    tile::config{.meta = {64, 64, 32}, .num_warps = 4},
    tile::config{.meta = {128, 64, 32}, .num_warps = 8, .num_stages = 2},
    tile::config{.meta = {64, 64, 32},
                 .num_warps = 4,
                 .num_stages = 2,
                 .warp_specialize = true});
TILE_CONFIGS(chained_dots_fp8, tile::config{.meta = {64, 64, 64},
                                            .num_warps = 4,
                                            .num_stages = 3});
TILE_CONFIGS(chained_dots_tf32, tile::config{.meta = {64, 64, 64},
                                             .num_warps = 4,
                                             .num_stages = 3});
TILE_CONFIGS(chained_dots_i8, tile::config{.meta = {64, 64, 64},
                                           .num_warps = 4,
                                           .num_stages = 3});
TILE_CONFIGS(invariant_b_dot,
             tile::config{.meta = {64, 64, 64}, .num_warps = 4},
             tile::config{.meta = {64, 128, 64}, .num_warps = 8});
TILE_CONFIGS(
    invariant_b_acc,
    tile::config{.meta = {64, 64, 64}, .num_warps = 4, .num_stages = 2},
    tile::config{.meta = {128, 64, 64}, .num_warps = 8, .num_stages = 2});
TILE_CONFIGS(running_sums, tile::config{.meta = {64, 32}, .num_warps = 4},
             tile::config{.meta = {16, 128}, .num_warps = 4},
             tile::config{.meta = {4, 256}, .num_warps = 4},
             tile::config{.meta = {8, 8}, .num_warps = 4});
TILE_CONFIGS(reductions, tile::config{.meta = {4, 64}, .num_warps = 4},
             tile::config{.meta = {16, 256}, .num_warps = 8},
             tile::config{.meta = {2, 16}, .num_warps = 4});

#define MATMUL_PTRS_GRID(kernel)                                               \
  template <int BM, int BN, int BK>                                            \
  TILE_GRID(kernel)                                                            \
  tile::grid kernel##_grid(const tile::half *, const tile::half *,             \
                           tile::half *, int m, int n, int, int, int, int,     \
                           int, int, int) {                                    \
    return {tile::cdiv(m, BM), tile::cdiv(n, BN)};                             \
  }
MATMUL_PTRS_GRID(matmul_ptrs)
MATMUL_PTRS_GRID(matmul_ptrs_f16acc)
template <int BLOCK>
TILE_GRID(float_ops)
tile::grid float_ops_grid(const float *, const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(int_ops)
tile::grid
    int_ops_grid(const int *, const int *, int *, int8_t *, int64_t *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(invariant_divisions)
tile::grid invariant_divisions_grid(const int *, const unsigned *, int *,
                                    unsigned *, int, int, unsigned) {
  return {3}; // each program loops over blocks
}
template <int BLOCK>
TILE_GRID(libdevice)
tile::grid
    libdevice_grid(const float *, const double *, float *, double *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(hinted)
tile::grid hinted_grid(const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(bits)
tile::grid bits_grid(const float *, const int *, const unsigned *,
                     const std::int64_t *, int *, unsigned *, std::int64_t *,
                     float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(random)
tile::grid random_grid(unsigned *, std::uint64_t *, float *, float *,
                       std::int64_t, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BM, int BN>
TILE_GRID(matrix)
tile::grid matrix_grid(const float *, const float *, float *, float *, int m,
                       int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}
template <int BLOCK>
TILE_GRID(loops)
tile::grid loops_grid(const float *, float *, int n, int) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(halves)
tile::grid halves_grid(const tile::half *, const tile::bfloat16 *, tile::half *,
                       tile::bfloat16 *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK, int M, int N, int K>
TILE_GRID(eights)
tile::grid eights_grid(const float *, tile::float8_e4m3 *, tile::float8_e5m2 *,
                       float *, const tile::float8_e5m2 *,
                       const tile::float8_e5m2 *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(strided)
tile::grid strided_grid(const float *, float *, int n, int) {
  return {tile::cdiv(n, BLOCK)};
}
template <int ROWS, int COLS>
TILE_GRID(reductions)
tile::grid reductions_grid(const float *, const int *, float *, float *,
                           float *, int *, int *, float *, int n_rows, int) {
  return {tile::cdiv(n_rows, ROWS)};
}
template <int ROWS, int COLS>
TILE_GRID(running_sums)
tile::grid running_sums_grid(const float *, const float *, const float *,
                             float *, int n_rows, int) {
  return {tile::cdiv(n_rows, ROWS)};
}
template <int ROWS, int COLS>
TILE_GRID(combines)
tile::grid combines_grid(const float *, float *, int *, float *, int *, float *,
                         int n_rows, int) {
  return {tile::cdiv(n_rows, ROWS)};
}
template <int BM, int BN, int BK>
TILE_GRID(matmul_fma)
tile::grid
    matmul_fma_grid(const tile::half *, const tile::half *, const float *,
                    const float *, float *, float *, int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}
template <int BM, int BN, int BK, int SPLITS>
TILE_GRID(matmul_split_k)
tile::grid
    matmul_split_k_grid(const tile::half *, const tile::half *, float *,
                        float *, tile::half *, int *, int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN), SPLITS};
}
// Tuning measures each configuration many times: c and col_sums, which
// the kernel adds to, are put back before each trial, and the arrival
// counters (one per block of the smallest blocks a configuration takes,
// 32 x 32) zeroed.
TILE_TUNE(matmul_split_k)
tile::tuning matmul_split_k_tuning(const tile::half *, const tile::half *,
                                   float *c, float *col_sums, tile::half *,
                                   int *arrivals, int m, int n, int k) {
  return {.key = {m, n, k},
          .reset_to_zero = {tile::elements(arrivals, tile::cdiv(m, 32) *
                                                         tile::cdiv(n, 32))},
          .restore_value = {tile::elements(c, 1LL * m * n),
                            tile::elements(col_sums, n)}};
}
template <int BM, int BN, int BK>
TILE_GRID(matmul_step_adds)
tile::grid matmul_step_adds_grid(const tile::half *, const tile::half *,
                                 float *, int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}
template <int BM, int BN, int D, int ADD>
TILE_GRID(transposed_dot)
tile::grid
    transposed_dot_grid(const tile::half *, const tile::half *, float *, int) {
  return {1};
}
template <int BM, int BN, int D>
TILE_GRID(chained_dots_fp8)
tile::grid
    chained_dots_fp8_grid(const tile::float8_e4m3 *, const tile::float8_e4m3 *,
                          const tile::float8_e4m3 *, float *, int) {
  return {1};
}
template <int BM, int BN, int D>
TILE_GRID(chained_dots_tf32)
tile::grid chained_dots_tf32_grid(const float *, const float *, const float *,
                                  float *, int) {
  return {1};
}
template <int BM, int BN, int D>
TILE_GRID(chained_dots_i8)
tile::grid chained_dots_i8_grid(const int8_t *, const int8_t *, const int8_t *,
                                float *, int) {
  return {1};
}
template <int BM, int BN, int BK>
TILE_GRID(tf32_reduced)
tile::grid tf32_reduced_grid(const float *, const float *, float *, float *,
                             float *, int) {
  return {1};
}
template <int BM, int BN, int D>
TILE_GRID(invariant_b_dot)
tile::grid
    invariant_b_dot_grid(const tile::half *, const tile::half *, float *, int) {
  return {1};
}
template <int BN, int BM, int D>
TILE_GRID(invariant_b_acc)
tile::grid invariant_b_acc_grid(const tile::half *, const tile::half *,
                                const tile::half *, float *, int) {
  return {1};
}
template <int BM, int BN, int D, int CHOICE>
TILE_GRID(two_dots_branch)
tile::grid two_dots_branch_grid(const tile::half *, const tile::half *,
                                const tile::half *, float *, int m, int, int) {
  return {tile::cdiv(m, BM)};
}
TILE_CONFIGS(half_sums, tile::config{.meta = {256}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(half_sums)
tile::grid half_sums_grid(const int *, tile::half *, tile::bfloat16 *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(histogram)
tile::grid histogram_grid(const int *, int *, float *, int *, int n, int) {
  return {tile::cdiv(n, BLOCK)};
}

// Programmatic dependent launch: chain_next (launch_pdl) reads what
// chain_first writes, its bias before its wait; chain_next_at_entry waits
// before everything (tilecc puts the wait there). chain_first lets them
// start as soon as all its programs have begun, and takes a while (steps).
template <int BLOCK>
TILE_KERNEL void chain_first(const float *x, float *y, int n, int steps) {
  tile::gdc_launch_dependents();
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask, 0.0f);
  for (int s = 0; s < steps; ++s)
    v = v * 0.5f + 1.0f;
  tile::store(y + offs, v, mask);
}
template <int BLOCK>
TILE_KERNEL void chain_next(const float *bias, const float *y, float *z,
                            int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto b = tile::load(bias + offs, mask, 0.0f);
  tile::gdc_wait();
  tile::store(z + offs, tile::load(y + offs, mask, 0.0f) + b, mask);
}
template <int BLOCK>
TILE_KERNEL void chain_next_at_entry(const float *bias, const float *y,
                                     float *z, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  tile::store(z + offs,
              tile::load(y + offs, mask, 0.0f) +
                  tile::load(bias + offs, mask, 0.0f),
              mask);
}
TILE_CONFIGS(chain_first, tile::config{.meta = {1024}, .num_warps = 4});
TILE_CONFIGS(chain_next,
             tile::config{.meta = {1024}, .num_warps = 4, .launch_pdl = true});
TILE_CONFIGS(chain_next_at_entry,
             tile::config{.meta = {512}, .num_warps = 4, .launch_pdl = true});
template <int BLOCK>
TILE_GRID(chain_first)
tile::grid chain_first_grid(const float *, float *, int n, int) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(chain_next)
tile::grid chain_next_grid(const float *, const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
template <int BLOCK>
TILE_GRID(chain_next_at_entry)
tile::grid
    chain_next_at_entry_grid(const float *, const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// Declared for aligned arguments only: it has no generic variant, and its
// wrapper refuses other arguments.
template <int BLOCK>
TILE_KERNEL void aligned_scale(const float *x, float *out, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  tile::store(out + offs, tile::load(x + offs, mask, 0.0f) * 2.0f, mask);
}
TILE_CONFIGS(aligned_scale,
             tile::config{.meta = {1024},
                          .assume = tile::assumption::aligned16});
template <int BLOCK>
TILE_GRID(aligned_scale)
tile::grid aligned_scale_grid(const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// <cmath> and <algorithm> on scalars (issue 48): slot I of out holds the
// I-th result, of iout the integer ones. std::max and std::min keep their
// comparisons' answer for a NaN; std::fmax and std::fmin ignore it.
template <int N>
TILE_KERNEL void std_math(float *out, int *iout, float s, float t, int k,
                          int j) {
  auto i = tile::arange<N>();
  auto r = tile::zeros<float, N>();
  auto pick = [&](int At, float V) { r = tile::where(i == At, V, r); };
  pick(0, std::sqrt(s));
  pick(1, std::exp(s) + std::exp2(t));
  pick(2, std::log(std::fabs(s)) + std::log2(std::fabs(t)));
  pick(3, std::sin(s) + std::cos(t));
  pick(4, std::floor(s) + std::ceil(t));
  pick(5, std::erf(s));
  pick(6, std::fma(s, t, 1.0f));
  pick(7, std::fmax(s, t));
  pick(8, std::fmin(s, t));
  pick(9, std::max(s, t));
  pick(10, std::min(s, t));
  pick(11, std::clamp(s, -1.0f, 1.0f));
  pick(12, std::abs(s) + sqrtf(std::fabs(t)));
  pick(13, std::isnan(s) ? 1.0f : 0.0f);
  pick(14, std::isinf(s) ? 1.0f : 0.0f);
  pick(15, std::isfinite(t) ? 1.0f : 0.0f);
  pick(16, float(std::sqrt(k * k)));
  pick(17, std::tanh(s) + std::tanh(t));
  pick(18, std::pow(std::fabs(s), t));
  // The tile forms of tanh and pow.
  auto x = tile::cast<float>(i) * 0.125f - 2.0f;
  r = tile::where(i >= 20, tile::tanh(x) + tile::pow(tile::abs(x), 0.5f), r);
  tile::store(out + i, r);
  auto q = tile::zeros<int, N>();
  q = tile::where(i == 0, std::max(k, j), q);
  q = tile::where(i == 1, std::min(k, j), q);
  q = tile::where(i == 2, std::abs(k), q);
  q = tile::where(i == 3, std::clamp(k, -4, 4), q);
  tile::store(iout + i, q);
}
TILE_CONFIGS(std_math, tile::config{.meta = {32}, .num_warps = 1});
template <int N>
TILE_GRID(std_math)
tile::grid std_math_grid(float *, int *, float, float, int, int) {
  return {1};
}

// Triton's idiom for tensors past 2^31 elements (issue 48): a 64-bit start
// plus an arange is a 64-bit index tile.
template <int BLOCK>
TILE_KERNEL void add_one_64(const int8_t *x, int8_t *y, int64_t base,
                            int64_t n) {
  int64_t start = base + int64_t(tile::program_id(0)) * BLOCK;
  auto i = start + tile::arange<BLOCK>();
  auto mask = i < n;
  tile::store(y + i, tile::load(x + i, mask) + 1, mask);
}
TILE_CONFIGS(add_one_64, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(add_one_64)
tile::grid add_one_64_grid(const int8_t *, int8_t *, int64_t base, int64_t n) {
  return {static_cast<int>((n - base + BLOCK - 1) / BLOCK)};
}

// Early return and continue (issue 48): programs past the end return first;
// every third step is skipped; program 1 adds a helper's early-returned
// value and returns from a branch.
template <int N> float sum_or_max(const tile::tensor<float, N> &v, int mode) {
  if (mode == 0)
    return tile::sum(v);
  return tile::max(v);
}

template <int BLOCK>
TILE_KERNEL void early_exit(const float *x, float *out, int n, int steps,
                            int mode) {
  const int pid = tile::program_id(0);
  if (pid * BLOCK >= n)
    return;
  auto offs = pid * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask, 0.0f);
  auto acc = tile::zeros<float, BLOCK>();
  for (int k = 0; k < steps; ++k) {
    if (k % 3 == 1)
      continue;
    acc = acc + v * float(k);
  }
  if (pid == 1) {
    tile::store(out + offs, acc + sum_or_max(v, mode), mask);
    return;
  }
  tile::store(out + offs, acc, mask);
}
TILE_CONFIGS(early_exit, tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(early_exit)
tile::grid early_exit_grid(const float *, float *, int n, int, int) {
  return {tile::cdiv(n, BLOCK) + 2};
}

// break and return inside loops (issue 48): each program adds its row's
// blocks until their sum passes a limit; a while loop, a range-for with
// continue, a loop nested in another, a while loop whose condition has a
// side effect (it must not run again after the break), and a return from a
// loop that skips the rest of the kernel (row 5).
template <int BLOCK>
TILE_KERNEL void breaks(const float *x, float *out, int *counts, int n,
                        float limit) {
  const int row = tile::program_id(0);
  auto offs = tile::arange<BLOCK>();
  auto acc = tile::zeros<float, BLOCK>();
  int steps = 0;
  for (int k = 0; k < n; k += BLOCK) {
    acc = acc + tile::load(x + row * n + k + offs, k + offs < n, 0.0f);
    steps += 1;
    if (tile::sum(acc) > limit)
      break;
  }
  int j = 0;
  while (j < 100) {
    if (j * j >= steps * 7)
      break;
    j += 1;
  }
  float extra = 0.0f;
  for (int i : tile::range(0, 16)) {
    if (i % 2 == 1)
      continue;
    if (i > steps)
      break;
    extra += float(i);
  }
  int pairs = 0;
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      if (b > a + row % 3)
        break;
      pairs += 1;
    }
  int *polls = counts + row * 6 + 4;
  int iterations = 0;
  while (tile::atomic_add(polls, 1) < 10) {
    iterations += 1;
    if (iterations == 3)
      break;
  }
  for (int r = 0; r < 4; ++r) {
    tile::store(counts + row * 6 + 5, r);
    if (row == 5 && r == 2)
      return;
  }
  tile::store(out + row * BLOCK + offs, acc + extra);
  tile::store(counts + row * 6, steps);
  tile::store(counts + row * 6 + 1, j);
  tile::store(counts + row * 6 + 2, pairs);
  tile::store(counts + row * 6 + 3, iterations);
}
TILE_CONFIGS(breaks, tile::config{.meta = {64}, .num_warps = 2});
template <int BLOCK>
TILE_GRID(breaks)
tile::grid breaks_grid(const float *, float *, int *, int, float) {
  return {6};
}
