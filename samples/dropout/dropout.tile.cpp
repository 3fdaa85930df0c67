// Seeded dropout (Triton's tutorial 04): each element is kept with
// probability 1 - p and scaled by 1 / (1 - p), or zeroed. The mask is a
// pure function of the seed and the element's offset (tile::rand), so no
// mask is stored: the backward pass regenerates it from the seed, and the
// same seed gives Triton's mask bit for bit.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void dropout(const float *x, float *out, int n, float p, int seed) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask);
  auto keep = tile::rand(seed, offs) > p;
  tile::store(out + offs, tile::where(keep, v / (1 - p), 0.0f), mask);
}

// Triton's autotuning list for elementwise kernels (see vector_add).
TILE_CONFIGS(dropout, tile::config{.meta = {1024}, .num_warps = 4},
             tile::config{.meta = {2048}, .num_warps = 8},
             tile::config{.meta = {4096}, .num_warps = 8},
             tile::config{.meta = {8192}, .num_warps = 16});

template <int BLOCK>
TILE_GRID(dropout)
tile::grid dropout_grid(const float *, float *, int n, float, int) {
  return {tile::cdiv(n, BLOCK)};
}

// Autotuning keys on the length alone: a new seed every step must not
// measure again.
TILE_TUNE(dropout)
tile::tuning dropout_tuning(const float *, float *, int n, float, int) {
  return {.key = {n}};
}
