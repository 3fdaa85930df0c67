// Layer normalization (Triton's tutorial 05) of fp16 or bf16 rows, computed
// in fp32 and rounded once:
//   forward   y = (x - mean) * rstd * w + b, saving each row's mean and rstd;
//   backward  dx from dy, and dw, db summed over all rows in two stages:
//             a persistent program per group sums its rows' shares in
//             registers and writes them once as the group's partial sums
//             (or, as tutorial 05 does, each program adds its rows' share
//             to one of `groups` partial sums under that group's spin
//             lock), then a second kernel sums the groups.
// Every kernel holds a whole row (or ROWS rows) in registers, so x and dy
// cross memory once, except the forward's CHUNKED configurations: they
// read a row BLOCK columns at a time, three times (for the mean, the
// variance and the output) as tutorial 05 does, the second and third time
// from cache, and hold no row in registers, so rows of any length fit and
// more programs share an SM. The fp16 kernels keep tutorial 05's names
// (layer_norm_fwd, ...); the bf16 ones end in _bf16.
#include <algorithm>
#include <tile/tile.hpp>

template <class T, int ROWS, int BLOCK>
void layer_norm_fwd_rows(const T *x, T *y, const T *w, const T *b,
                         float *mean_out, float *rstd_out, int stride,
                         int n_rows, int n_cols, float eps) {
  auto rows = tile::program_id(0) * ROWS + tile::arange<ROWS>();
  auto cols = tile::arange<BLOCK>();
  auto row_ok = rows < n_rows;
  auto col_ok = cols < n_cols;
  auto mask = tile::expand_dims<1>(row_ok) && tile::expand_dims<0>(col_ok);
  auto offs = tile::expand_dims<1>(rows) * stride + tile::expand_dims<0>(cols);
  auto v = tile::cast<float>(tile::load(x + offs, mask, 0.0f));
  auto mean = tile::sum<1>(v) / n_cols;
  auto centered = tile::where(mask, v - tile::expand_dims<1>(mean), 0.0f);
  auto rstd =
      1.0f / tile::sqrt(tile::sum<1>(centered * centered) / n_cols + eps);
  tile::store(mean_out + rows, mean, row_ok);
  tile::store(rstd_out + rows, rstd, row_ok);
  auto wv = tile::cast<float>(tile::load(w + cols, col_ok, 0.0f));
  auto bv = tile::cast<float>(tile::load(b + cols, col_ok, 0.0f));
  auto out = centered * tile::expand_dims<1>(rstd) * tile::expand_dims<0>(wv) +
             tile::expand_dims<0>(bv);
  tile::store(y + offs, tile::cast<T>(out), mask);
}

/// The forward pass over one row per program, BLOCK columns at a time.
template <class T, int BLOCK>
void layer_norm_fwd_chunked(const T *x, T *y, const T *w, const T *b,
                            float *mean_out, float *rstd_out, int stride,
                            int n_cols, float eps) {
  const int row = tile::program_id(0);
  const T *x_row = x + row * stride;
  T *y_row = y + row * stride;
  auto cols = tile::arange<BLOCK>();
  auto sums = tile::zeros<float, BLOCK>();
  for (int start = 0; start < n_cols; start += BLOCK) {
    auto c = start + cols;
    sums += tile::cast<float>(tile::load(x_row + c, c < n_cols, 0.0f));
  }
  const float mean = tile::sum(sums) / n_cols;
  auto squares = tile::zeros<float, BLOCK>();
  for (int start = 0; start < n_cols; start += BLOCK) {
    auto c = start + cols;
    auto v = tile::cast<float>(tile::load(x_row + c, c < n_cols, 0.0f));
    auto centered = tile::where(c < n_cols, v - mean, 0.0f);
    squares += centered * centered;
  }
  const float rstd = 1.0f / tile::sqrt(tile::sum(squares) / n_cols + eps);
  tile::store(mean_out + row, mean);
  tile::store(rstd_out + row, rstd);
  for (int start = 0; start < n_cols; start += BLOCK) {
    auto c = start + cols;
    auto mask = c < n_cols;
    auto v = tile::cast<float>(tile::load(x_row + c, mask, 0.0f));
    auto wv = tile::cast<float>(tile::load(w + c, mask, 0.0f));
    auto bv = tile::cast<float>(tile::load(b + c, mask, 0.0f));
    tile::store(y_row + c, tile::cast<T>((v - mean) * rstd * wv + bv), mask);
  }
}

/// dx of ROWS rows, and their dw = sum(dy * xhat) and db = sum(dy) added
/// to one of `groups` partial sums (fp32, groups x n_cols): program p adds
/// to group p % groups under that group's spin lock. locks holds the lock
/// words, then a count per group that says whether the group's partial sums
/// have been written; it must be zero before the launch.
template <class T, int ROWS, int BLOCK>
void layer_norm_bwd_dx_rows(T *dx, const T *dy, float *partial_dw,
                            float *partial_db, const T *x, const T *w,
                            const float *mean, const float *rstd, int *locks,
                            int stride, int n_rows, int n_cols, int groups) {
  int program = tile::program_id(0);
  auto rows = program * ROWS + tile::arange<ROWS>();
  auto cols = tile::arange<BLOCK>();
  auto row_ok = rows < n_rows;
  auto col_ok = cols < n_cols;
  auto mask = tile::expand_dims<1>(row_ok) && tile::expand_dims<0>(col_ok);
  auto offs = tile::expand_dims<1>(rows) * stride + tile::expand_dims<0>(cols);
  auto xv = tile::cast<float>(tile::load(x + offs, mask, 0.0f));
  auto dyv = tile::cast<float>(tile::load(dy + offs, mask, 0.0f));
  auto wv = tile::cast<float>(tile::load(w + cols, col_ok, 0.0f));
  auto rs = tile::expand_dims<1>(tile::load(rstd + rows, row_ok, 0.0f));
  auto mu = tile::expand_dims<1>(tile::load(mean + rows, row_ok, 0.0f));
  auto xhat = tile::where(mask, (xv - mu) * rs, 0.0f);
  auto wdy = tile::expand_dims<0>(wv) * dyv;
  auto c1 = tile::sum<1, true>(xhat * wdy) / n_cols;
  auto c2 = tile::sum<1, true>(wdy) / n_cols;
  tile::store(dx + offs, tile::cast<T>((wdy - (xhat * c1 + c2)) * rs), mask);

  // The program's rows are summed first: one locked update per program.
  auto dw = tile::sum<0>(dyv * xhat);
  auto db = tile::sum<0>(dyv);
  int group = program % groups;
  int *lock = locks + group;
  int *count = locks + groups + group;
  auto dw_ptrs = partial_dw + group * n_cols + cols;
  auto db_ptrs = partial_db + group * n_cols + cols;
  while (tile::atomic_cas(lock, 0, 1) == 1) {
  }
  // The first program of a group writes its partial sums; later ones add.
  bool first = tile::load(count) == 0;
  if (first)
    tile::atomic_xchg(count, 1);
  auto earlier = col_ok && !first;
  tile::store(dw_ptrs, dw + tile::load(dw_ptrs, earlier, 0.0f), col_ok);
  tile::store(db_ptrs, db + tile::load(db_ptrs, earlier, 0.0f), col_ok);
  // Every thread's stores before the release.
  tile::debug_barrier();
  tile::atomic_xchg(lock, 0);
}

/// dx of rows group, group + groups, ... (one program per group, each
/// loop in STAGES stages), and their dw and db summed in registers and
/// written once as the group's partial sums: no lock, and one write of the
/// partial sums per group instead of one update per program. counts (one
/// per group, zero before the launch) says which groups were written.
template <class T, int BLOCK, int STAGES>
void layer_norm_bwd_dx_persistent(T *dx, const T *dy, float *partial_dw,
                                  float *partial_db, const T *x, const T *w,
                                  const float *mean, const float *rstd,
                                  int *counts, int stride, int n_rows,
                                  int n_cols, int groups) {
  const int group = tile::program_id(0);
  auto cols = tile::arange<BLOCK>();
  auto col_ok = cols < n_cols;
  auto wv = tile::cast<float>(tile::load(w + cols, col_ok, 0.0f));
  auto dw = tile::zeros<float, BLOCK>();
  auto db = tile::zeros<float, BLOCK>();
  for (int row : tile::range(group, n_rows, groups, STAGES)) {
    auto offs = row * stride + cols;
    auto xv = tile::cast<float>(tile::load(x + offs, col_ok, 0.0f));
    auto dyv = tile::cast<float>(tile::load(dy + offs, col_ok, 0.0f));
    const float rs = tile::load(rstd + row);
    const float mu = tile::load(mean + row);
    auto xhat = tile::where(col_ok, (xv - mu) * rs, 0.0f);
    auto wdy = wv * dyv;
    const float c1 = tile::sum(xhat * wdy) / n_cols;
    const float c2 = tile::sum(wdy) / n_cols;
    tile::store(dx + offs, tile::cast<T>((wdy - (xhat * c1 + c2)) * rs),
                col_ok);
    dw += dyv * xhat;
    db += dyv;
  }
  tile::store(partial_dw + group * n_cols + cols, dw, col_ok);
  tile::store(partial_db + group * n_cols + cols, db, col_ok);
  tile::store(counts + group, 1);
}

/// dw and db: the sums of the groups' partial sums, BLOCK_N columns per
/// program. Groups no program reached (their count is zero) hold nothing.
template <class T, int BLOCK_M, int BLOCK_N>
void layer_norm_bwd_dwdb_columns(const float *partial_dw,
                                 const float *partial_db, const int *counts,
                                 T *dw, T *db, int groups, int n_cols) {
  auto cols = tile::program_id(0) * BLOCK_N + tile::arange<BLOCK_N>();
  auto acc_dw = tile::zeros<float, BLOCK_M, BLOCK_N>();
  auto acc_db = tile::zeros<float, BLOCK_M, BLOCK_N>();
  for (int i = 0; i < groups; i += BLOCK_M) {
    auto g = i + tile::arange<BLOCK_M>();
    auto used = tile::load(counts + g, g < groups, 0) != 0;
    auto mask =
        tile::expand_dims<1>(used) && tile::expand_dims<0>(cols < n_cols);
    auto offs = tile::expand_dims<1>(g) * n_cols + tile::expand_dims<0>(cols);
    acc_dw += tile::load(partial_dw + offs, mask, 0.0f);
    acc_db += tile::load(partial_db + offs, mask, 0.0f);
  }
  tile::store(dw + cols, tile::cast<T>(tile::sum<0>(acc_dw)), cols < n_cols);
  tile::store(db + cols, tile::cast<T>(tile::sum<0>(acc_db)), cols < n_cols);
}

// The kernels for each type (T is not a meta-parameter), their
// configurations, selection, tuning and grids.
//
// Forward: short rows take several per program, so that a program still
// moves enough data; a block must hold a whole row (TILE_SELECT) unless the
// configuration is CHUNKED (one row per program), and the wrapper's default
// is the first configuration that fits, the fastest measured on an H100
// (fp16). The others are there for the benchmark and the tuner to
// compare; the last two, chunked with register_prefetch (each pass's next
// chunk loaded while this one's sums run), only for the benchmark, until
// measured beside the same blocks without it.
// Backward: persistent programs first (PERSISTENT_STAGES > 0: one per
// group, each loop in that many stages; no lock): 1.4-2.4x the locked
// ones on an H100 (docs/benchmarks-history.md, session 61); then tutorial 05's
// locked partial sums, several rows per program, for the benchmark to compare.
// Autotuning: the rows' shape decides, and every trial must find the locks
// and the counts beside them zero (the partial sums start over with them).
#define LAYER_NORM_KERNELS(SUFFIX, T)                                          \
  template <int ROWS, int BLOCK, int CHUNKED>                                  \
  TILE_KERNEL void layer_norm_fwd##SUFFIX(                                     \
      const T *x, T *y, const T *w, const T *b, float *mean_out,               \
      float *rstd_out, int stride, int n_rows, int n_cols, float eps) {        \
    static_assert(!CHUNKED || ROWS == 1, "a chunked program takes one row");   \
    if (CHUNKED)                                                               \
      layer_norm_fwd_chunked<T, BLOCK>(x, y, w, b, mean_out, rstd_out, stride, \
                                       n_cols, eps);                           \
    else                                                                       \
      layer_norm_fwd_rows<T, ROWS, BLOCK>(x, y, w, b, mean_out, rstd_out,      \
                                          stride, n_rows, n_cols, eps);        \
  }                                                                            \
  template <int ROWS, int BLOCK, int PERSISTENT_STAGES>                        \
  TILE_KERNEL void layer_norm_bwd_dx##SUFFIX(                                  \
      T *dx, const T *dy, float *partial_dw, float *partial_db, const T *x,    \
      const T *w, const float *mean, const float *rstd, int *locks,            \
      int stride, int n_rows, int n_cols, int groups) {                        \
    static_assert(!PERSISTENT_STAGES || ROWS == 1,                             \
                  "a persistent program takes one row at a time");             \
    if (PERSISTENT_STAGES)                                                     \
      layer_norm_bwd_dx_persistent<T, BLOCK, PERSISTENT_STAGES>(               \
          dx, dy, partial_dw, partial_db, x, w, mean, rstd, locks + groups,    \
          stride, n_rows, n_cols, groups);                                     \
    else                                                                       \
      layer_norm_bwd_dx_rows<T, ROWS, BLOCK>(dx, dy, partial_dw, partial_db,   \
                                             x, w, mean, rstd, locks, stride,  \
                                             n_rows, n_cols, groups);          \
  }                                                                            \
  template <int BLOCK_M, int BLOCK_N>                                          \
  TILE_KERNEL void layer_norm_bwd_dwdb##SUFFIX(                                \
      const float *partial_dw, const float *partial_db, const int *counts,     \
      T *dw, T *db, int groups, int n_cols) {                                  \
    layer_norm_bwd_dwdb_columns<T, BLOCK_M, BLOCK_N>(                          \
        partial_dw, partial_db, counts, dw, db, groups, n_cols);               \
  }                                                                            \
  TILE_CONFIGS(layer_norm_fwd##SUFFIX,                                         \
               tile::config{.meta = {1, 256, 0}, .num_warps = 2},              \
               tile::config{.meta = {4, 1024, 0}, .num_warps = 4},             \
               tile::config{.meta = {2, 1024, 0}, .num_warps = 4},             \
               tile::config{.meta = {4, 1024, 0}, .num_warps = 8},             \
               tile::config{.meta = {8, 1024, 0}, .num_warps = 8},             \
               tile::config{.meta = {1, 2048, 0}, .num_warps = 8},             \
               tile::config{.meta = {2, 4096, 0}, .num_warps = 8},             \
               tile::config{.meta = {1, 4096, 0}, .num_warps = 8},             \
               tile::config{.meta = {2, 4096, 0}, .num_warps = 16},            \
               tile::config{.meta = {1, 4096, 0}, .num_warps = 4},             \
               tile::config{.meta = {1, 8192, 0}, .num_warps = 8},             \
               tile::config{.meta = {1, 8192, 0}, .num_warps = 16},            \
               tile::config{.meta = {2, 8192, 0}, .num_warps = 16},            \
               tile::config{.meta = {1, 16384, 0}, .num_warps = 16},           \
               tile::config{.meta = {1, 16384, 0}, .num_warps = 8},            \
               tile::config{.meta = {1, 16384, 0}, .num_warps = 32},           \
               tile::config{.meta = {1, 1024, 1}, .num_warps = 4},             \
               tile::config{.meta = {1, 2048, 1}, .num_warps = 4},             \
               tile::config{.meta = {1, 2048, 1}, .num_warps = 8},             \
               tile::config{.meta = {1, 4096, 1}, .num_warps = 8},             \
               tile::config{.meta = {1, 8192, 1}, .num_warps = 8},             \
               tile::config{.meta = {1, 16384, 1}, .num_warps = 8},            \
               tile::config{.meta = {1, 2048, 1},                              \
                            .num_warps = 8,                                    \
                            .autotune = false,                                 \
                            .register_prefetch = true},                        \
               tile::config{.meta = {1, 4096, 1},                              \
                            .num_warps = 8,                                    \
                            .autotune = false,                                 \
                            .register_prefetch = true});                       \
  TILE_CONFIGS(layer_norm_bwd_dx##SUFFIX,                                      \
               tile::config{.meta = {1, 1024, 2}, .num_warps = 4},             \
               tile::config{.meta = {1, 4096, 2}, .num_warps = 8},             \
               tile::config{.meta = {1, 8192, 2}, .num_warps = 16},            \
               tile::config{.meta = {4, 1024, 0}, .num_warps = 8},             \
               tile::config{.meta = {2, 4096, 0}, .num_warps = 16},            \
               tile::config{.meta = {2, 8192, 0}, .num_warps = 16});           \
  TILE_CONFIGS(layer_norm_bwd_dwdb##SUFFIX,                                    \
               tile::config{.meta = {32, 128}, .num_warps = 4});               \
  template <int ROWS, int BLOCK, int CHUNKED>                                  \
  TILE_SELECT(layer_norm_fwd##SUFFIX)                                          \
  bool layer_norm_fwd##SUFFIX##_fits(const T *, T *, const T *, const T *,     \
                                     float *, float *, int, int, int n_cols,   \
                                     float) {                                  \
    return CHUNKED || n_cols <= BLOCK;                                         \
  }                                                                            \
  template <int ROWS, int BLOCK, int PERSISTENT_STAGES>                        \
  TILE_SELECT(layer_norm_bwd_dx##SUFFIX)                                       \
  bool layer_norm_bwd_dx##SUFFIX##_fits(                                       \
      T *, const T *, float *, float *, const T *, const T *, const float *,   \
      const float *, int *, int, int, int n_cols, int groups) {                \
    return n_cols <= BLOCK && groups > 0;                                      \
  }                                                                            \
  TILE_TUNE(layer_norm_bwd_dx##SUFFIX)                                         \
  tile::tuning layer_norm_bwd_dx##SUFFIX##_tuning(                             \
      T *, const T *, float *, float *, const T *, const T *, const float *,   \
      const float *, int *locks, int, int n_rows, int n_cols, int groups) {    \
    return {.key = {n_rows, n_cols},                                           \
            .reset_to_zero = {tile::elements(locks, 2 * groups)}};             \
  }                                                                            \
  template <int ROWS, int BLOCK, int CHUNKED>                                  \
  TILE_GRID(layer_norm_fwd##SUFFIX)                                            \
  tile::grid layer_norm_fwd##SUFFIX##_grid(const T *, T *, const T *,          \
                                           const T *, float *, float *, int,   \
                                           int n_rows, int, float) {           \
    return {tile::cdiv(n_rows, ROWS)};                                         \
  }                                                                            \
  template <int ROWS, int BLOCK, int PERSISTENT_STAGES>                        \
  TILE_GRID(layer_norm_bwd_dx##SUFFIX)                                         \
  tile::grid layer_norm_bwd_dx##SUFFIX##_grid(                                 \
      T *, const T *, float *, float *, const T *, const T *, const float *,   \
      const float *, int *, int, int n_rows, int, int groups) {                \
    if (PERSISTENT_STAGES)                                                     \
      return {std::min(n_rows, groups)};                                       \
    return {tile::cdiv(n_rows, ROWS)};                                         \
  }                                                                            \
  template <int BLOCK_M, int BLOCK_N>                                          \
  TILE_GRID(layer_norm_bwd_dwdb##SUFFIX)                                       \
  tile::grid layer_norm_bwd_dwdb##SUFFIX##_grid(                               \
      const float *, const float *, const int *, T *, T *, int, int n_cols) {  \
    return {tile::cdiv(n_cols, BLOCK_N)};                                      \
  }

/// Whether forward configuration c takes rows of n_cols: its selection
/// rule, for the tests and benchmarks that hold a configuration at run
/// time.
constexpr bool layer_norm_fwd_takes(const tile::config &c, int n_cols) {
  return c.meta[2] || n_cols <= c.meta[1];
}

LAYER_NORM_KERNELS(, tile::half)
LAYER_NORM_KERNELS(_bf16, tile::bfloat16)
#undef LAYER_NORM_KERNELS
