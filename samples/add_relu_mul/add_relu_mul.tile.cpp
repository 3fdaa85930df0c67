// out = relu(x + bias) * scale over n elements: a bias add, an activation
// and a scaling fused into one pass over memory (Triton's k_bias_relu_scale;
// unfused, PyTorch runs three kernels and moves each array more than once).
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void add_relu_mul(const float *x, const float *bias, float *out,
                              float scale, int n) {
  int pid = tile::program_id(0);
  auto offs = pid * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto h = tile::load(x + offs, mask) + tile::load(bias + offs, mask);
  tile::store(out + offs, tile::maximum(h, 0.0f) * scale, mask);
}

// Triton's autotuning list for elementwise kernels (see vector_add).
TILE_CONFIGS(add_relu_mul, tile::config{.meta = {1024}, .num_warps = 4},
             tile::config{.meta = {2048}, .num_warps = 8},
             tile::config{.meta = {4096}, .num_warps = 8},
             tile::config{.meta = {8192}, .num_warps = 16});

template <int BLOCK>
TILE_GRID(add_relu_mul)
tile::grid
    add_relu_mul_grid(const float *, const float *, float *, float, int n) {
  return {tile::cdiv(n, BLOCK)};
}
