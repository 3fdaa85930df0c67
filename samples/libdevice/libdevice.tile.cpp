// y = asin(x) over n elements with libdevice's accurate asinf (Triton's
// tutorial 07, which calls triton.language.extra.libdevice.asin).
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void libdevice_asin(const float *x, float *y, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  tile::store(y + offs, tile::asin(tile::load(x + offs, mask)), mask);
}

// Triton's autotuning list for elementwise kernels (see vector_add).
TILE_CONFIGS(libdevice_asin, tile::config{.meta = {1024}, .num_warps = 4},
             tile::config{.meta = {2048}, .num_warps = 8},
             tile::config{.meta = {4096}, .num_warps = 8},
             tile::config{.meta = {8192}, .num_warps = 16});

template <int BLOCK>
TILE_GRID(libdevice_asin)
tile::grid libdevice_asin_grid(const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
