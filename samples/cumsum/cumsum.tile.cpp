// Inclusive prefix sums along the rows of an fp32 matrix (torch.cumsum(x,
// dim=1)): each program loads ROWS whole rows, scans them in registers and
// stores them, so the data crosses memory once each way. x and y share the
// row stride.
#include <tile/tile.hpp>

template <int ROWS, int BLOCK>
TILE_KERNEL void cumsum_rows(const float *x, float *y, int stride, int n_rows,
                             int n_cols) {
  auto rows = tile::program_id(0) * ROWS + tile::arange<ROWS>();
  auto cols = tile::arange<BLOCK>();
  auto mask = tile::expand_dims<1>(rows < n_rows) &&
              tile::expand_dims<0>(cols < n_cols);
  auto offs = tile::expand_dims<1>(rows) * stride + tile::expand_dims<0>(cols);
  // Masked-off columns lie past the row's end and read 0: they come after
  // every column that is stored, so they change no stored sum.
  auto v = tile::load(x + offs, mask, 0.0f);
  tile::store(y + offs, tile::cumsum<1>(v), mask);
}

// One or more configurations per row length, smallest block first: the
// TILE_SELECT rule below makes the wrapper take the first whose block holds
// a whole row. Short rows take several per program, so that a program still
// moves enough data; 8 to 16 elements per thread otherwise. The others are
// there for the benchmark to compare.
TILE_CONFIGS(cumsum_rows, tile::config{.meta = {4, 256}, .num_warps = 4},
             tile::config{.meta = {8, 256}, .num_warps = 8},
             tile::config{.meta = {1, 256}, .num_warps = 2},
             tile::config{.meta = {1, 512}, .num_warps = 4},
             tile::config{.meta = {1, 1024}, .num_warps = 4},
             tile::config{.meta = {1, 2048}, .num_warps = 8},
             tile::config{.meta = {1, 4096}, .num_warps = 8},
             tile::config{.meta = {1, 4096}, .num_warps = 16},
             tile::config{.meta = {1, 8192}, .num_warps = 16},
             tile::config{.meta = {1, 8192}, .num_warps = 8});

template <int ROWS, int BLOCK>
TILE_SELECT(cumsum_rows)
bool cumsum_rows_fits(const float *, float *, int, int, int n_cols) {
  return n_cols <= BLOCK;
}

template <int ROWS, int BLOCK>
TILE_GRID(cumsum_rows)
tile::grid cumsum_rows_grid(const float *, float *, int, int n_rows, int) {
  return {tile::cdiv(n_rows, ROWS)};
}
