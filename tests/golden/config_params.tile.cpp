// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s --check-prefix=WRAPPER < %t/copy_maybe_clear.launch.cpp
// RUN: %FileCheck %s --check-prefix=KERNEL < %t/copy_maybe_clear.cu
//
// Parameters only some configurations read: the launch wrapper checks
// the arguments once for all of them. A pointer any configuration reads is
// assumed aligned in the aligned variants (CLEAR's stores of zeros are
// vectors, as the copy's), an integer only when every configuration reads
// it (`lead`, read by CLEAR alone, must not keep the other configuration
// from its aligned variant, so CLEAR's second copy, `lead` elements on,
// is not vectorized).
#include <tile/tile.hpp>

template <int BLOCK, int CLEAR>
TILE_KERNEL void copy_maybe_clear(const float *x, float *out,
                                  [[maybe_unused]] float *scratch, int n,
                                  [[maybe_unused]] int lead) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  tile::store(out + offs, tile::load(x + offs, offs < n), offs < n);
  if (CLEAR) {
    tile::store(scratch + offs, tile::zeros<float, BLOCK>(), offs < n);
    tile::store(out + lead + offs, tile::load(x + offs, offs < n), offs < n);
  }
}

TILE_CONFIGS(copy_maybe_clear, tile::config{.meta = {1024, 0}, .num_warps = 4},
             tile::config{.meta = {1024, 1}, .num_warps = 4});

template <int BLOCK, int CLEAR>
TILE_SELECT(copy_maybe_clear)
bool copy_maybe_clear_fits(const float *, float *, float *scratch, int, int) {
  return CLEAR == (scratch != nullptr);
}

template <int BLOCK, int CLEAR>
TILE_GRID(copy_maybe_clear)
tile::grid copy_maybe_clear_grid(const float *, float *, float *, int n, int) {
  return {tile::cdiv(n, BLOCK)};
}

// WRAPPER: const bool tilecc_aligned16 =
// WRAPPER: reinterpret_cast<std::uintptr_t>(scratch) % 16 == 0 && n % 4 == 0;
// WRAPPER-NOT: lead % 16

// KERNEL: // copy_maybe_clear_c0_aligned16:
// KERNEL: //   load t{{[0-9]+}}: v4
// KERNEL-NEXT: //   store t{{[0-9]+}}: v4
// KERNEL: // copy_maybe_clear_c1_aligned16:
// KERNEL: //   load t{{[0-9]+}}: v4
// KERNEL-NEXT: //   store t{{[0-9]+}}: v4
// KERNEL-NEXT: //   store t{{[0-9]+}}: v4
// KERNEL-NEXT: //   load t{{[0-9]+}}: v4
// KERNEL-NEXT: //   store t{{[0-9]+}}: v1
// KERNEL: // copy_maybe_clear_c1_generic:
