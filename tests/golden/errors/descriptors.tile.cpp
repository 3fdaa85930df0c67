// RUN: rm -rf %t
// RUN: %not %tilecc %s -o %t -DCASE=1 2>&1 | %check-errors %s --check-prefix=C1
// RUN: %not %tilecc %s -o %t -DCASE=2 2>&1 | %check-errors %s --check-prefix=C2
// RUN: %not %tilecc %s -o %t -DCASE=3 2>&1 | %check-errors %s --check-prefix=C3
// RUN: %not %tilecc %s -o %t -DCASE=4 2>&1 | %check-errors %s --check-prefix=C4
// RUN: %not %tilecc %s -o %t -DCASE=5 2>&1 | %check-errors %s --check-prefix=C5
// RUN: %not %tilecc %s -o %t -DCASE=6 2>&1 | %check-errors %s --check-prefix=C6
// RUN: %not %tilecc %s -o %t -DCASE=7 2>&1 | %check-errors %s --check-prefix=C7
// RUN: %not %tilecc %s -o %t -DCASE=8 2>&1 | %check-errors %s --check-prefix=C8
// RUN: test ! -e %t
//
// A descriptor's last stride is the constant 1; coordinates are braced
// lists of integers, as many as the box's dimensions; padding::nan pads
// floating-point tiles. A kernel parameter may be a tensor descriptor,
// taken by value (the host makes it), not a block pointer; its shape and
// strides are read along constant dimensions it has.
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

// A second kernel, whose parameters are the cases'.
#if CASE == 5
// C5: descriptors.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: a block_ptr cannot be a kernel parameter: make it in the kernel with tile::make_block_ptr
TILE_KERNEL void p(tile::block_ptr<const float, 16> x, float *out) {
  tile::store(out + tile::arange<16>(), tile::load(x, tile::boundary_check<>));
}
TILE_GRID(p) tile::grid p_grid(tile::block_ptr<const float, 16>, float *) {
  return {1};
}
#elif CASE == 6
// C6: descriptors.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: a tensor descriptor parameter is taken by value
TILE_KERNEL void p(const tile::tensor_descriptor<const float, 16> &x, float *out) {
  tile::store(out + tile::arange<16>(), x.load({0}));
}
TILE_GRID(p)
tile::grid p_grid(const tile::tensor_descriptor<const float, 16> &, float *) {
  return {1};
}
#elif CASE >= 7
TILE_KERNEL void p(tile::tensor_descriptor<const float, 16, 16> x, float *out) {
  auto offs = tile::expand_dims<1>(tile::arange<16>()) * 16 +
              tile::expand_dims<0>(tile::arange<16>());
#if CASE == 7
  // C7: descriptors.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the descriptor has no dimension 2
  tile::store(out + offs, x.load({x.shape(2), 0}));
#else
  // C8: descriptors.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the dimension must be a compile-time constant
  tile::store(out + offs, x.load({x.stride(tile::program_id(0)), 0}));
#endif
}
TILE_GRID(p)
tile::grid p_grid(tile::tensor_descriptor<const float, 16, 16>, float *) {
  return {1};
}
#endif
#if CASE >= 5
TILE_CONFIGS(p, tile::config{});
#endif
