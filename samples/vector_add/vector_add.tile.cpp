// out = x + y over n elements, one BLOCK-sized tile per program (Triton's
// tutorial 01).
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void vector_add(const float *x, const float *y, float *out, int n) {
  int pid = tile::program_id(0);
  auto offs = pid * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto a = tile::load(x + offs, mask, 0.0f);
  auto b = tile::load(y + offs, mask, 0.0f);
  tile::store(out + offs, a + b, mask);
}

// Triton's autotuning list for elementwise kernels: 8 to 16 elements per
// thread, so that each thread has several 16-byte accesses in flight.
TILE_CONFIGS(vector_add, tile::config{.meta = {1024}, .num_warps = 4},
             tile::config{.meta = {2048}, .num_warps = 8},
             tile::config{.meta = {4096}, .num_warps = 8},
             tile::config{.meta = {8192}, .num_warps = 16});

template <int BLOCK>
TILE_GRID(vector_add)
tile::grid vector_add_grid(const float *, const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
