// Row softmax, one program per row (Triton's tutorial 02): the row is loaded
// once, its maximum subtracted for stability, exponentiated, normalized by
// its sum and stored, so the data crosses memory once each way.
#include <cmath>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void softmax(const float *x, float *y, int x_stride, int y_stride,
                         [[maybe_unused]] int n_rows, int n_cols) {
  int row = tile::program_id(0);
  auto cols = tile::arange<BLOCK>();
  auto mask = cols < n_cols;
  // Masked-off columns read -inf, so they add nothing to the max or the sum.
  auto v = tile::load(x + row * x_stride + cols, mask, -INFINITY);
  auto num = tile::exp(v - tile::max(v));
  tile::store(y + row * y_stride + cols, num / tile::sum(num), mask);
}

// One configuration per row length, smallest first: TILE_SELECT below makes
// the wrapper take the first whose block holds a whole row. num_warps as
// Triton's tutorial chooses them for these block sizes.
TILE_CONFIGS(softmax, tile::config{.meta = {256}, .num_warps = 4},
             tile::config{.meta = {512}, .num_warps = 4},
             tile::config{.meta = {1024}, .num_warps = 4},
             tile::config{.meta = {2048}, .num_warps = 8},
             tile::config{.meta = {4096}, .num_warps = 16},
             tile::config{.meta = {8192}, .num_warps = 16});

template <int BLOCK>
TILE_SELECT(softmax)
bool softmax_fits(const float *, float *, int, int, int, int n_cols) {
  return n_cols <= BLOCK;
}

template <int BLOCK>
TILE_GRID(softmax)
tile::grid softmax_grid(const float *, float *, int, int, int n_rows, int) {
  return {n_rows};
}
