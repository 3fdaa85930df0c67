// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// RUN: %tilecc %s -o %t --skip-unsupported 2>&1 | %check-errors %s --check-prefix=SKIP
// RUN: test ! -e %t/k.cu && test -e %t/pipeline_shared_memory.tile.h
// SKIP: pipeline_shared_memory.tile.cpp:21:3: warning: k is left out for sm_90a:
// SKIP-SAME: a loop software-pipelined with num_stages = 5 needs 246784 bytes
// CHECK: pipeline_shared_memory.tile.cpp:21:3: error: a loop software-pipelined
// with num_stages = 5 needs 246784 bytes of shared memory (configuration 0),
// more than the 232448 sm_90a allows: use fewer stages or smaller tiles
#include <tile/tile.hpp>
// Each stage of a pipelined loop holds a tile of every staged load in
// shared memory: too many stages are reported at translation time, with
// the numbers, like Triton's OutOfResources; --skip-unsupported leaves
// the kernel out with a warning instead (one source, several targets).
template <int BM, int BN, int BK>
TILE_KERNEL void k(const tile::half *a, const tile::half *b, float *c, int n) {
  auto rm = tile::arange<BM>();
  auto rn = tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < n; k0 += BK)
    acc = tile::dot(tile::load(a + tile::expand_dims<1>(rm) * n +
                               tile::expand_dims<0>(k0 + rk)),
                    tile::load(b + tile::expand_dims<1>(k0 + rk) * BN +
                               tile::expand_dims<0>(rn)),
                    acc);
  tile::store(c + tile::expand_dims<1>(rm) * BN + tile::expand_dims<0>(rn),
              acc);
}
TILE_CONFIGS(k, tile::config{
                    .meta = {128, 256, 64}, .num_warps = 8, .num_stages = 5});
template <int BM, int BN, int BK>
TILE_GRID(k)
tile::grid k_grid(const tile::half *, const tile::half *, float *, int) {
  return {1};
}
