// RMS normalization of bf16 or fp16 rows (Llama's RMSNorm, as Liger-Kernel
// and unsloth ship it in Triton), computed in fp32 and rounded once:
//   forward   y = x * rstd * w, rstd = 1 / sqrt(mean(x^2) + eps), saving
//             each row's rstd;
//   backward  dx = rstd * (w dy - x^ mean(x^ w dy)), x^ = x * rstd, and
//             dw = sum over rows of dy x^: as many programs as run at once
//             (at most n_partials) each walk rows, sum their dw in
//             registers and write it as one of n_partials rows of partial
//             sums (the rows no program takes, zeros); a second kernel adds
//             the partial rows.
// A program holds whole rows in registers, so x and dy cross memory once.
// Row offsets are 64-bit: rows * stride may pass 2^31.
#include <algorithm>
#include <cstdint>
#include <tile/tile.hpp>

template <class T, int ROWS, int BLOCK>
void rms_norm_fwd_rows(const T *x, T *y, const T *w, float *rstd_out,
                       int stride, int n_rows, int n_cols, float eps) {
  const int first = tile::program_id(0) * ROWS;
  const int64_t base = int64_t(first) * stride;
  auto rows = first + tile::arange<ROWS>();
  auto cols = tile::arange<BLOCK>();
  auto row_ok = rows < n_rows;
  auto col_ok = cols < n_cols;
  auto mask = tile::expand_dims<1>(row_ok) && tile::expand_dims<0>(col_ok);
  auto offs = tile::expand_dims<1>(tile::arange<ROWS>()) * stride +
              tile::expand_dims<0>(cols);
  auto v = tile::cast<float>(tile::load(x + base + offs, mask, 0.0f));
  auto rstd = 1.0f / tile::sqrt(tile::sum<1>(v * v) / n_cols + eps);
  tile::store(rstd_out + rows, rstd, row_ok);
  auto wv = tile::cast<float>(tile::load(w + cols, col_ok, 0.0f));
  tile::store(
      y + base + offs,
      tile::cast<T>(v * tile::expand_dims<1>(rstd) * tile::expand_dims<0>(wv)),
      mask);
}

/// dx of the program's rows (rows program_id, + num_programs, ...), and
/// their dw summed into row program_id of partial_dw (n_partials x n_cols,
/// fp32; num_programs <= n_partials), whose rows past the grid get zeros.
/// The rows' x and dy are loaded STAGES - 1 rows ahead (through shared
/// memory), so that a program keeps rows in flight while it computes one.
template <class T, int BLOCK, int STAGES>
void rms_norm_bwd_rows(const T *dy, const T *x, const T *w, const float *rstd,
                       T *dx, float *partial_dw, int stride, int n_rows,
                       int n_cols, int n_partials) {
  auto cols = tile::arange<BLOCK>();
  auto col_ok = cols < n_cols;
  auto wv = tile::cast<float>(tile::load(w + cols, col_ok, 0.0f));
  auto dw = tile::zeros<float, BLOCK>();
  for (int row : tile::range(tile::program_id(0), n_rows, tile::num_programs(0),
                             STAGES)) {
    const int64_t base = int64_t(row) * stride;
    auto xhat = tile::cast<float>(tile::load(x + base + cols, col_ok, 0.0f)) *
                tile::load(rstd + row);
    auto dyv = tile::cast<float>(tile::load(dy + base + cols, col_ok, 0.0f));
    auto wdy = wv * dyv;
    const float c = tile::sum(xhat * wdy) / n_cols;
    tile::store(dx + base + cols,
                tile::cast<T>((wdy - xhat * c) * tile::load(rstd + row)),
                col_ok);
    dw += dyv * xhat;
  }
  tile::store(partial_dw + int64_t(tile::program_id(0)) * n_cols + cols, dw,
              col_ok);
  for (int q = tile::program_id(0) + tile::num_programs(0); q < n_partials;
       q += tile::num_programs(0))
    tile::store(partial_dw + int64_t(q) * n_cols + cols,
                tile::zeros<float, BLOCK>(), col_ok);
}

/// dw: the sum of the n_partials rows of partial sums, BLOCK_N columns per
/// program.
template <class T, int BLOCK_M, int BLOCK_N>
void rms_norm_dw_columns(const float *partial_dw, T *dw, int n_partials,
                         int n_cols) {
  auto cols = tile::program_id(0) * BLOCK_N + tile::arange<BLOCK_N>();
  auto acc = tile::zeros<float, BLOCK_M, BLOCK_N>();
  for (int i = 0; i < n_partials; i += BLOCK_M) {
    auto p = i + tile::arange<BLOCK_M>();
    auto mask = tile::expand_dims<1>(p < n_partials) &&
                tile::expand_dims<0>(cols < n_cols);
    acc += tile::load(partial_dw + tile::expand_dims<1>(p) * n_cols +
                          tile::expand_dims<0>(cols),
                      mask, 0.0f);
  }
  tile::store(dw + cols, tile::cast<T>(tile::sum<0>(acc)), cols < n_cols);
}

// The kernels for each type: T is not a meta-parameter.
#define RMS_NORM_KERNELS(SUFFIX, T)                                            \
  template <int ROWS, int BLOCK>                                               \
  TILE_KERNEL void rms_norm_fwd_##SUFFIX(const T *x, T *y, const T *w,         \
                                         float *rstd, int stride, int n_rows,  \
                                         int n_cols, float eps) {              \
    rms_norm_fwd_rows<T, ROWS, BLOCK>(x, y, w, rstd, stride, n_rows, n_cols,   \
                                      eps);                                    \
  }                                                                            \
  template <int BLOCK, int STAGES>                                             \
  TILE_KERNEL void rms_norm_bwd_##SUFFIX(                                      \
      const T *dy, const T *x, const T *w, const float *rstd, T *dx,           \
      float *partial_dw, int stride, int n_rows, int n_cols, int n_partials) { \
    rms_norm_bwd_rows<T, BLOCK, STAGES>(dy, x, w, rstd, dx, partial_dw,        \
                                        stride, n_rows, n_cols, n_partials);   \
  }                                                                            \
  template <int BLOCK_M, int BLOCK_N>                                          \
  TILE_KERNEL void rms_norm_dw_##SUFFIX(const float *partial_dw, T *dw,        \
                                        int n_partials, int n_cols) {          \
    rms_norm_dw_columns<T, BLOCK_M, BLOCK_N>(partial_dw, dw, n_partials,       \
                                             n_cols);                          \
  }                                                                            \
  /* A block holds a whole row; rows of 2048 go two a program. */              \
  TILE_CONFIGS(rms_norm_fwd_##SUFFIX,                                          \
               tile::config{.meta = {2, 2048}, .num_warps = 8},                \
               tile::config{.meta = {1, 4096}, .num_warps = 8},                \
               tile::config{.meta = {1, 8192}, .num_warps = 16});              \
  TILE_CONFIGS(rms_norm_bwd_##SUFFIX,                                          \
               tile::config{.meta = {2048, 2}, .num_warps = 8},                \
               tile::config{.meta = {4096, 2}, .num_warps = 8},                \
               tile::config{.meta = {8192, 2}, .num_warps = 16},               \
               tile::config{.meta = {2048, 3}, .num_warps = 4},                \
               tile::config{.meta = {4096, 3}, .num_warps = 8});               \
  TILE_CONFIGS(rms_norm_dw_##SUFFIX,                                           \
               tile::config{.meta = {32, 128}, .num_warps = 4});               \
  template <int ROWS, int BLOCK>                                               \
  TILE_SELECT(rms_norm_fwd_##SUFFIX)                                           \
  bool rms_norm_fwd_##SUFFIX##_fits(const T *, T *, const T *, float *, int,   \
                                    int, int n_cols, float) {                  \
    return n_cols <= BLOCK;                                                    \
  }                                                                            \
  template <int BLOCK, int STAGES>                                             \
  TILE_SELECT(rms_norm_bwd_##SUFFIX)                                           \
  bool rms_norm_bwd_##SUFFIX##_fits(const T *, const T *, const T *,           \
                                    const float *, T *, float *, int, int,     \
                                    int n_cols, int n_partials) {              \
    return n_cols <= BLOCK && n_partials >= 1;                                 \
  }                                                                            \
  template <int ROWS, int BLOCK>                                               \
  TILE_GRID(rms_norm_fwd_##SUFFIX)                                             \
  tile::grid rms_norm_fwd_##SUFFIX##_grid(const T *, T *, const T *, float *,  \
                                          int, int n_rows, int, float) {       \
    return {tile::cdiv(n_rows, ROWS)};                                         \
  }                                                                            \
  /* As many programs as run at once, no more than there are rows or */        \
  /* rows of partial sums; one where there are no rows, to write zeros. */     \
  template <int BLOCK, int STAGES>                                             \
  TILE_GRID(rms_norm_bwd_##SUFFIX)                                             \
  tile::grid rms_norm_bwd_##SUFFIX##_grid(const T *, const T *, const T *,     \
                                          const float *, T *, float *, int,    \
                                          int n_rows, int, int n_partials) {   \
    return {                                                                   \
        std::max(1, std::min({n_rows, n_partials,                              \
                              tile::num_sms() * tile::programs_per_sm()}))};   \
  }                                                                            \
  template <int BLOCK_M, int BLOCK_N>                                          \
  TILE_GRID(rms_norm_dw_##SUFFIX)                                              \
  tile::grid rms_norm_dw_##SUFFIX##_grid(const float *, T *, int,              \
                                         int n_cols) {                         \
    return {tile::cdiv(n_cols, BLOCK_N)};                                      \
  }

RMS_NORM_KERNELS(bf16, tile::bfloat16)
RMS_NORM_KERNELS(f16, tile::half)
#undef RMS_NORM_KERNELS
