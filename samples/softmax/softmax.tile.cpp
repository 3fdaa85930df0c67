// Row softmax (Triton's tutorial 02), for fp32 and fp16 rows: each row is
// loaded once, its maximum subtracted for stability, exponentiated,
// normalized by its sum and stored, so the data crosses memory once each way.
// fp16 rows are computed in fp32. softmax and softmax_f16 run one program per
// row. softmax_persistent runs as many programs as fit on the GPU at once,
// each looping over every num_programs-th row with its loads
// software-pipelined (tutorial 02's tl.range(..., num_stages=));
// softmax_persistent_dynamic runs as many, each taking its next row from a
// counter in memory, so that programs that finish early take more rows.
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

// The rows' loads are issued STAGES - 1 iterations ahead into shared
// memory, so they are in flight while earlier rows are computed.
template <int BLOCK, int STAGES>
TILE_KERNEL void softmax_persistent(const float *x, float *y, int x_stride,
                                    int y_stride, int n_rows, int n_cols) {
  for (int row :
       tile::range(tile::program_id(0), n_rows, tile::num_programs(0), STAGES))
    softmax_row<BLOCK>(x, y, row, x_stride, y_stride, n_cols);
}

// One configuration per row length, smallest first: the TILE_SELECT rules
// below make the wrapper take the first whose block holds a whole row.
// num_warps as Triton's tutorial chooses them for these block sizes; the two
// last, with fewer warps, are there for the benchmark to compare.
// rows_taken: an int, zero before a launch and zero after it, counting the
// rows taken after each program's first (program_id). A program asks once
// more than it gets a row: n_rows asks in all, so the one answered
// n_rows - 1 is the last, and its program zeroes the counter for the next
// launch. The next row's loads are issued before this row's math, so each
// program keeps a row in flight while it computes one.
template <int BLOCK>
TILE_KERNEL void
softmax_persistent_dynamic(const float *x, float *y, int x_stride, int y_stride,
                           int n_rows, int n_cols, int *rows_taken) {
  auto cols = tile::arange<BLOCK>();
  auto mask = cols < n_cols;
  int row = tile::program_id(0);
  auto v =
      tile::load(x + row * x_stride + cols, mask && row < n_rows, -INFINITY);
  while (row < n_rows) {
    const int taken =
        tile::atomic_add(rows_taken, 1, true, tile::mem_order::relaxed);
    if (taken == n_rows - 1)
      tile::store(rows_taken, 0);
    const int next = tile::num_programs(0) + taken;
    auto v_next = tile::load(x + next * x_stride + cols, mask && next < n_rows,
                             -INFINITY);
    auto num = tile::exp(v - tile::max(v));
    tile::store(y + row * y_stride + cols, num / tile::sum(num), mask);
    v = v_next;
    row = next;
  }
}

#define SOFTMAX_CONFIGS                                                        \
  tile::config{.meta = {256}, .num_warps = 4},                                 \
      tile::config{.meta = {512}, .num_warps = 4},                             \
      tile::config{.meta = {1024}, .num_warps = 4},                            \
      tile::config{.meta = {2048}, .num_warps = 8},                            \
      tile::config{.meta = {4096}, .num_warps = 16},                           \
      tile::config{.meta = {8192}, .num_warps = 16},                           \
      tile::config{.meta = {4096}, .num_warps = 8},                            \
      tile::config{.meta = {8192}, .num_warps = 8},                            \
      tile::config{.meta = {16384}, .num_warps = 16},                          \
      tile::config{.meta = {16384}, .num_warps = 32}
TILE_CONFIGS(softmax, SOFTMAX_CONFIGS);
TILE_CONFIGS(softmax_f16, SOFTMAX_CONFIGS);
// Persistent: BLOCK and STAGES, smallest block first as above; per block,
// the fastest on an H100 first.
TILE_CONFIGS(softmax_persistent_dynamic, SOFTMAX_CONFIGS);
TILE_CONFIGS(softmax_persistent, tile::config{.meta = {256, 2}, .num_warps = 4},
             tile::config{.meta = {512, 2}, .num_warps = 4},
             tile::config{.meta = {1024, 2}, .num_warps = 4},
             tile::config{.meta = {2048, 2}, .num_warps = 8},
             tile::config{.meta = {4096, 2}, .num_warps = 8},
             tile::config{.meta = {8192, 2}, .num_warps = 8},
             tile::config{.meta = {4096, 3}, .num_warps = 8},
             tile::config{.meta = {4096, 2}, .num_warps = 16},
             tile::config{.meta = {8192, 3}, .num_warps = 8},
             tile::config{.meta = {8192, 2}, .num_warps = 16});

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

template <int BLOCK, int STAGES>
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
template <int BLOCK, int STAGES>
TILE_GRID(softmax_persistent)
tile::grid
    softmax_persistent_grid(const float *, float *, int, int, int n_rows, int) {
  return {std::min(n_rows, tile::num_sms() * tile::programs_per_sm())};
}

template <int BLOCK>
TILE_SELECT(softmax_persistent_dynamic)
bool softmax_persistent_dynamic_fits(const float *, float *, int, int, int,
                                     int n_cols, int *) {
  return n_cols <= BLOCK;
}
// The row counter must be zero when a launch starts (a trial cut short
// would leave it otherwise): tuning zeroes it before each trial.
TILE_TUNE(softmax_persistent_dynamic)
tile::tuning softmax_persistent_dynamic_tuning(const float *, float *, int, int,
                                               int n_rows, int n_cols,
                                               int *rows_taken) {
  return {.key = {n_rows, n_cols},
          .reset_to_zero = {tile::elements(rows_taken, 1)}};
}
template <int BLOCK>
TILE_GRID(softmax_persistent_dynamic)
tile::grid softmax_persistent_dynamic_grid(const float *, float *, int, int,
                                           int n_rows, int, int *) {
  return {std::min(n_rows, tile::num_sms() * tile::programs_per_sm())};
}
