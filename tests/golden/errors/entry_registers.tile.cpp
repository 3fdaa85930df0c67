// clang-format off
// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// RUN: %not %tilecc %s -o %t -- -DCOMPUTED_A 2>&1 | %check-errors --check-prefix=REGS %s
// RUN: test ! -e %t
// RUN: %tilecc %s -o %t --target sm_80
// CHECK: entry_registers.tile.cpp:[[@LINE+20]]:{{[0-9]+}}: error: the 64 x 128 wgmma of the dot at line [[@LINE+20]] needs 90 registers a thread at the kernel's entry (ptxas), but 4 programs of 256 threads an SM (configuration 0) leave 64: use a smaller min_programs_per_sm, fewer warps or narrower blocks
// REGS: entry_registers.tile.cpp:[[@LINE+19]]:{{[0-9]+}}: error: the 64 x 128 wgmma of the dot at line [[@LINE+19]] needs 94 registers a thread
// clang-format on
// A wgmma's registers must fit those a thread has at the kernel's entry
// (ptxas compiles no instruction beyond them): 4 programs of 8 warps leave
// 64, and a warp's 128 columns of fp32 accumulator need 64 and ptxas 26
// more (94 with A in registers). sm_80's mma.sync needs few.
#include <tile/tile.hpp>

TILE_KERNEL void k(const tile::half *a, const tile::half *b, float *c) {
  auto r = tile::arange<128>();
  auto q = tile::arange<64>();
  auto x =
      tile::load(a + tile::expand_dims<1>(r) * 64 + tile::expand_dims<0>(q));
#ifdef COMPUTED_A
  x = x * x;
#endif
  auto y =
      tile::load(b + tile::expand_dims<1>(q) * 128 + tile::expand_dims<0>(r));
  tile::store(c + tile::expand_dims<1>(r) * 128 + tile::expand_dims<0>(r),
              tile::dot(x, y));
}
TILE_CONFIGS(k, tile::config{.num_warps = 8, .min_programs_per_sm = 4});
TILE_GRID(k)
tile::grid k_grid(const tile::half *, const tile::half *, float *) {
  return {1};
}
