// RUN: rm -rf %t
// RUN: %not %tilecc %s -o %t -DCASE=1 2>&1 | %check-errors %s --check-prefix=C1
// RUN: %not %tilecc %s -o %t -DCASE=2 2>&1 | %check-errors %s --check-prefix=C2
// RUN: %not %tilecc %s -o %t -DCASE=3 2>&1 | %check-errors %s --check-prefix=C3
// RUN: %not %tilecc %s -o %t -DCASE=4 2>&1 | %check-errors %s --check-prefix=C4
// RUN: test ! -e %t
//
// A descriptor's last stride is the constant 1; coordinates are braced
// lists of integers, as many as the box's dimensions; padding::nan pads
// floating-point tiles.
#include <array>
#include <tile/tile.hpp>

TILE_KERNEL void k(const float *x, const int *y, float *out, int n,
                   int stride) {
  auto offs = tile::expand_dims<1>(tile::arange<16>()) * 16 +
              tile::expand_dims<0>(tile::arange<16>());
#if CASE == 1
  // C1: descriptors.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: a tensor descriptor's last stride must be the constant 1
  auto d = tile::make_tensor_descriptor<16, 16>(x, {n, n}, {n, stride});
  tile::store(out + offs, d.load({0, 0}));
#endif
#if CASE == 2
  auto corner = [&] { return std::array<int, 2>{0, n}; };
  auto d = tile::make_tensor_descriptor<16, 16>(x, {n, n}, {n, 1});
  // C2: descriptors.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the box's offsets must be a braced list of 2 integers, {i, j}
  tile::store(out + offs, d.load(corner()));
#endif
#if CASE == 3
  auto p = tile::make_block_ptr<16, 16>(y, {n, n}, {n, 1}, {0, 0});
  // C3: descriptors.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: padding::nan pads floating-point tiles only
  tile::store(out + offs, tile::load(p, tile::boundary_check<0>, tile::padding::nan));
#endif
#if CASE == 4
  auto p = tile::make_block_ptr<16>(x, {n}, {1}, {0});
  // C4: descriptors.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: no matching function for call to 'advance'
  p = tile::advance(p, {0, 1});
#endif
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(const float *, const int *, float *, int, int) {
  return {1};
}
