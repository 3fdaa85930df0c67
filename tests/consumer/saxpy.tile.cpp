// out = a * x + y over n elements: the consumer project's own kernel, built
// through the installed tilecc package.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void saxpy(float a, const float *x, const float *y, float *out,
                       int n) {
  int pid = tile::program_id(0);
  auto offs = pid * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto xs = tile::load(x + offs, mask, 0.0f);
  auto ys = tile::load(y + offs, mask, 0.0f);
  tile::store(out + offs, a * xs + ys, mask);
}

TILE_CONFIGS(saxpy, tile::config{.meta = {1024}, .num_warps = 4});

template <int BLOCK>
TILE_GRID(saxpy)
tile::grid saxpy_grid(float, const float *, const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
