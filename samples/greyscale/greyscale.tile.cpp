// Converts a planar RGB image [3, h, w] to greyscale [h, w] with the ITU-R
// BT.601 luma weights. Each program converts one BLOCK_H x BLOCK_W tile,
// addressed through 2-D offsets row * w + col and a 2-D mask (the
// rgb2grey_k kernel of the Triton book, chapter 2).
#include <tile/tile.hpp>

template <int BLOCK_H, int BLOCK_W>
TILE_KERNEL void greyscale(const float *rgb, float *grey, int h, int w) {
  // Column tiles on axis 0: consecutive programs read neighbouring pieces of
  // the same rows.
  int pid_w = tile::program_id(0);
  int pid_h = tile::program_id(1);
  auto offs_h = pid_h * BLOCK_H + tile::arange<BLOCK_H>();
  auto offs_w = pid_w * BLOCK_W + tile::arange<BLOCK_W>();
  auto offs = tile::expand_dims<1>(offs_h) * w + tile::expand_dims<0>(offs_w);
  auto mask =
      tile::expand_dims<1>(offs_h < h) && tile::expand_dims<0>(offs_w < w);
  int plane = h * w;
  auto r = tile::load(rgb + offs, mask);
  auto g = tile::load(rgb + plane + offs, mask);
  auto b = tile::load(rgb + 2 * plane + offs, mask);
  tile::store(grey + offs, 0.2989f * r + 0.5870f * g + 0.1140f * b, mask);
}

// The default (first) configuration is the fastest measured on an H100
// (docs/benchmarks-history.md): 4096-element tiles of long rows give each
// thread several 16-byte loads in flight. The others are tiles of 1024 elements
// from long rows to square.
TILE_CONFIGS(greyscale, tile::config{.meta = {16, 256}, .num_warps = 8},
             tile::config{.meta = {8, 128}, .num_warps = 4},
             tile::config{.meta = {16, 64}, .num_warps = 4},
             tile::config{.meta = {32, 32}, .num_warps = 4});

template <int BLOCK_H, int BLOCK_W>
TILE_GRID(greyscale)
tile::grid greyscale_grid(const float *, float *, int h, int w) {
  return {tile::cdiv(w, BLOCK_W), tile::cdiv(h, BLOCK_H)};
}
