// RUN: rm -rf %t && %not %tilecc %s -o %t 2>&1 | %check-errors %s
// RUN: test ! -e %t
// CHECK: reduce_shared_memory.tile.cpp:16:22: error: the kernel's reductions
// CHECK-SAME: and scans across warps need 65536 bytes of static shared memory
// CHECK-SAME: (configuration 0), more than the 49152 sm_90a allows: use
// CHECK-SAME: smaller tiles or fewer warps
#include <tile/tile.hpp>
// A reduction across warps meets in a buffer the runtime declares static
// (32 warps along the row, 256 rows of doubles: 64 KB), which NVIDIA GPUs
// cap at 48 KB: reported at the reduction rather than left to ptxas.
TILE_KERNEL void row_sums(const double *x, double *y) {
  auto r = tile::arange<256>();
  auto c = tile::arange<4096>();
  auto v =
      tile::load(x + tile::expand_dims<1>(r) * 4096 + tile::expand_dims<0>(c));
  tile::store(y + r, tile::sum<1>(v));
}
TILE_CONFIGS(row_sums, tile::config{.num_warps = 32});
TILE_GRID(row_sums) tile::grid row_sums_grid(const double *, double *) {
  return {1};
}
