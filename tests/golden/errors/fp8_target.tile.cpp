// RUN: rm -rf %t && %not %tilecc %s -o %t --target gfx90a 2>&1 | %check-errors %s
// RUN: test ! -e %t
// RUN: %tilecc %s -o %t --target gfx90a --skip-unsupported 2>&1 | %check-errors %s --check-prefix=SKIP
// RUN: test -e %t/fine.hip && test ! -e %t/widen.hip
// RUN: %tilecc %s -o %t.cuda --target sm_80
// CHECK: fp8_target.tile.cpp:18:46: error: 8-bit floats (tile::float8_e4m3) are not supported on gfx90a
// SKIP: fp8_target.tile.cpp:18:46: warning: widen is left out for gfx90a: 8-bit floats (tile::float8_e4m3) are not supported on gfx90a
#include <tile/tile.hpp>
// ROCm's gfx90a has no 8-bit float type: a kernel that touches one is
// reported where it does (here, the offset added to the fp8 pointer), and no
// file is written; --skip-unsupported leaves such kernels out instead, so
// that one source serves several targets. CUDA targets have them (sm_80
// multiplies them on fp16 tensor cores).
template <int BLOCK>
TILE_KERNEL void widen(const tile::float8_e4m3 *x, float *y) {
  auto offs = tile::arange<BLOCK>();
  tile::store(y + offs,
              tile::cast<float>(tile::load(x + offs)));
}
template <int BLOCK> TILE_KERNEL void fine(const float *x, float *y) {
  auto offs = tile::arange<BLOCK>();
  tile::store(y + offs, tile::load(x + offs) * 2.0f);
}
TILE_CONFIGS(widen, tile::config{.meta = {256}, .num_warps = 4});
TILE_CONFIGS(fine, tile::config{.meta = {256}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(widen)
tile::grid widen_grid(const tile::float8_e4m3 *, float *) { return {1}; }
template <int BLOCK>
TILE_GRID(fine)
tile::grid fine_grid(const float *, float *) { return {1}; }
