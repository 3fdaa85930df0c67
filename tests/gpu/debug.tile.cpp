// device_print and device_assert, built with -DTILE_DEBUG (add_tile_kernel's
// DEBUG): debug_check.cpp compares the lines the GPU prints with those the
// emulation prints, and expects the failed assertion's error.
#include <tile/tile.hpp>

template <int BLOCK> TILE_KERNEL void printed(const int *x, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask);
  tile::device_assert(v >= 0, "x must not be negative", mask);
  tile::device_print("x", v);
  tile::device_print("half and square", tile::cast<float>(v) * 0.5f, v * v);
  tile::device_print("n: ", n);
  tile::device_print<tile::hex>("bits", v, tile::cast<float>(v) * 0.5f,
                                tile::cast<tile::half>(v));
}
TILE_CONFIGS(printed, tile::config{.meta = {8}, .num_warps = 1});
template <int BLOCK>
TILE_GRID(printed)
tile::grid printed_grid(const int *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
