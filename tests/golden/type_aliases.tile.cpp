// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s < %t/scale.launch.h
// RUN: %FileCheck %s --check-prefix=RULES < %t/scale.launch.cpp
// RUN: %if nvcc %{ %host-cxx %t/scale.launch.cpp -o %t/scale.o %}
// RUN: %if nvcc %{ %nvcc-sm90a %t/scale.cu -o %t/scale90.o %}
#include <cstdint>
#include <tile/tile.hpp>
// The launch wrapper does not include the kernel's source, so the aliases
// the source declares are spelled out in its signatures and in the rules'
// parameters; aliases of the system headers (int8_t) stay as written.
using half_t = tile::half;
namespace model {
using count = int;
using weights = const half_t *;
} // namespace model

// CHECK: cudaError_t scale(const tile::half *x, const tile::half *w, tile::half *y,
// CHECK-NEXT: const int8_t *flags, int n, cudaStream_t stream = nullptr,
template <int BLOCK>
TILE_KERNEL void scale(const half_t *x, model::weights w, half_t *y,
                       const int8_t *flags, model::count n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto keep = tile::load(flags + offs, offs < n) != 0;
  auto v = tile::cast<float>(tile::load(x + offs, offs < n)) *
           tile::cast<float>(tile::load(w + offs, offs < n));
  tile::store(y + offs, tile::cast<half_t>(tile::where(keep, v, 0.0f)),
              offs < n);
}
TILE_CONFIGS(scale, tile::config{.meta = {1024}});

// RULES: static tile::grid grid_0(const tile::half *, const tile::half *, tile::half *,
// RULES-NEXT: const int8_t *, {{\[\[maybe_unused\]\]}} int n) {
template <int BLOCK>
TILE_GRID(scale)
tile::grid scale_grid(const half_t *, model::weights, half_t *, const int8_t *,
                      model::count n) {
  return {tile::cdiv(n, BLOCK)};
}
