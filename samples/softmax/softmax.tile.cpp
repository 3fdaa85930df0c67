// Row softmax (Triton's tutorial 02), for fp32 and fp16 rows: each row is
// loaded once, its maximum subtracted for stability, exponentiated,
// normalized by its sum and stored, so the data crosses memory once each way.
// fp16 rows are computed in fp32. softmax and softmax_f16 run one program per
// row; softmax_persistent runs as many programs as fit on the GPU at once,
// each looping over rows and loading the next while it works on one.
#include <algorithm>
#include <cmath>
#include <tile/tile.hpp>

/// One row's softmax; the kernels below inline it.
template <int BLOCK, class T>
void softmax_row(const T *x, T *y, int row, int x_stride, int y_stride,
                 int n_cols) {
  auto cols = tile::arange<BLOCK>();
  auto mask = cols < n_cols;
  // Masked-off columns read -inf, so they add nothing to the max or the sum.
  auto v =
      tile::cast<float>(tile::load(x + row * x_stride + cols, mask, -INFINITY));
  auto num = tile::exp(v - tile::max(v));
  tile::store(y + row * y_stride + cols, tile::cast<T>(num / tile::sum(num)),
              mask);
}

template <int BLOCK>
TILE_KERNEL void softmax(const float *x, float *y, int x_stride, int y_stride,
                         [[maybe_unused]] int n_rows, int n_cols) {
  softmax_row<BLOCK>(x, y, tile::program_id(0), x_stride, y_stride, n_cols);
}

template <int BLOCK>
TILE_KERNEL void softmax_f16(const tile::half *x, tile::half *y, int x_stride,
                             int y_stride, [[maybe_unused]] int n_rows,
                             int n_cols) {
  softmax_row<BLOCK>(x, y, tile::program_id(0), x_stride, y_stride, n_cols);
}

template <int BLOCK>
TILE_KERNEL void softmax_persistent(const float *x, float *y, int x_stride,
                                    int y_stride, int n_rows, int n_cols) {
  auto cols = tile::arange<BLOCK>();
  auto mask = cols < n_cols;
  int step = tile::num_programs(0);
  // Each program loads its next row before it works on the current one, so
  // the load's latency hides behind the arithmetic (the grid never has more
  // programs than rows, so the first row exists).
  auto next =
      tile::load(x + tile::program_id(0) * x_stride + cols, mask, -INFINITY);
  for (int row = tile::program_id(0); row < n_rows; row += step) {
    auto v = next;
    int following = row + step;
    next = tile::load(x + following * x_stride + cols,
                      mask && following < n_rows, -INFINITY);
    auto num = tile::exp(v - tile::max(v));
    tile::store(y + row * y_stride + cols, num / tile::sum(num), mask);
  }
}

// One configuration per row length, smallest first: the TILE_SELECT rules
// below make the wrapper take the first whose block holds a whole row.
// num_warps as Triton's tutorial chooses them for these block sizes; the two
// last, with fewer warps, are there for the benchmark to compare.
#define SOFTMAX_CONFIGS                                                        \
  tile::config{.meta = {256}, .num_warps = 4},                                 \
      tile::config{.meta = {512}, .num_warps = 4},                             \
      tile::config{.meta = {1024}, .num_warps = 4},                            \
      tile::config{.meta = {2048}, .num_warps = 8},                            \
      tile::config{.meta = {4096}, .num_warps = 16},                           \
      tile::config{.meta = {8192}, .num_warps = 16},                           \
      tile::config{.meta = {4096}, .num_warps = 8},                            \
      tile::config{.meta = {8192}, .num_warps = 8}
TILE_CONFIGS(softmax, SOFTMAX_CONFIGS);
TILE_CONFIGS(softmax_f16, SOFTMAX_CONFIGS);
TILE_CONFIGS(softmax_persistent, SOFTMAX_CONFIGS);

template <int BLOCK>
TILE_SELECT(softmax)
bool softmax_fits(const float *, float *, int, int, int, int n_cols) {
  return n_cols <= BLOCK;
}
template <int BLOCK>
TILE_SELECT(softmax_f16)
bool softmax_f16_fits(const tile::half *, tile::half *, int, int, int,
                      int n_cols) {
  return n_cols <= BLOCK;
}

template <int BLOCK>
TILE_SELECT(softmax_persistent)
bool softmax_persistent_fits(const float *, float *, int, int, int,
                             int n_cols) {
  return n_cols <= BLOCK;
}

template <int BLOCK>
TILE_GRID(softmax)
tile::grid softmax_grid(const float *, float *, int, int, int n_rows, int) {
  return {n_rows};
}
template <int BLOCK>
TILE_GRID(softmax_f16)
tile::grid softmax_f16_grid(const tile::half *, tile::half *, int, int,
                            int n_rows, int) {
  return {n_rows};
}
// As many programs as can be resident at once: the SM count times the
// programs one SM holds, given the kernel's registers and threads.
template <int BLOCK>
TILE_GRID(softmax_persistent)
tile::grid
    softmax_persistent_grid(const float *, float *, int, int, int n_rows, int) {
  return {std::min(n_rows, tile::num_sms() * tile::programs_per_sm())};
}
