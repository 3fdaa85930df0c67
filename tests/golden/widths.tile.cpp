// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/widths.cu
// RUN: %FileCheck %s --check-prefix=LAUNCH < %t/widths.launch.cpp
// RUN: %if nvcc %{ %nvcc-sm90a %t/widths.cu -o %t/k.o %}
//
// Access width follows the element size (16 bytes when contiguity and
// alignment allow) and falls to one element when the access is strided.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void widths(const int8_t *a, int8_t *b, const double *c, double *d,
                        const tile::half *e, tile::half *f, const float *g,
                        float *h, int n, int stride) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  tile::store(b + offs, tile::load(a + offs, mask, int8_t(0)), mask);
  tile::store(d + offs, tile::load(c + offs, mask, 0.0), mask);
  tile::store(f + offs, tile::load(e + offs, mask, 0.0f), mask);
  tile::store(h + offs, tile::load(g + offs * stride, mask, 0.0f), mask);
}

TILE_CONFIGS(widths, tile::config{.meta = {1024}, .num_warps = 4});

template <int BLOCK>
TILE_GRID(widths)
tile::grid widths_grid(const int8_t *, int8_t *, const double *, double *,
                       const tile::half *, tile::half *, const float *,
                       float *, int n, int) {
  return {tile::cdiv(n, BLOCK)};
}

// The smallest element (int8) sets the elements per thread: 16 would fit
// 16 bytes, but 1024 elements over 128 threads give each thread 8, and
// Triton's rule keeps every thread busy before widening.
// CHECK: L0 = #blocked<spt=[8], tpw=[32], wpc=[4], order=[0]> over [1024]
// With stride == 1 (the `unit` variant, tried first) the strided access is
// contiguous too.
// CHECK-LABEL: widths_c0_unit(
// CHECK: rt::ld_global_v4(&{{.*}}(g + (offs[e] * stride))
// CHECK-LABEL: widths_c0_aligned16(
// CHECK: rt::ld_global_v8(&{{.*}}(a + offs[e])
// CHECK: rt::st_global_v8((b + offs[e])
// CHECK: for (int e = 0; e < 8; e += 2)
// CHECK-NEXT: rt::ld_global_v2(&{{.*}}(c + offs[e])
// CHECK: rt::st_global_v2((d + offs[e])
// A parameter named like the element index is renamed, not shadowed.
// CHECK: rt::ld_global_v8(&{{.*}}(e_ + offs[e])
// CHECK: rt::st_global_v8((f + offs[e])
// CHECK: for (int e = 0; e < 8; ++e)
// CHECK-NEXT: rt::ld_global_v1(&{{.*}}(g + (offs[e] * stride))
// CHECK: rt::st_global_v4((h + offs[e])
// CHECK-LABEL: widths_c0_generic(
// CHECK-NOT: ld_global_v{{[2-9]}}
// CHECK-LABEL: launch_widths_c0_generic(

// LAUNCH: const bool tilecc_unit =
// LAUNCH: stride == 1;
// LAUNCH: if (tilecc_unit)
// LAUNCH-NEXT: return launch_widths_c0_unit(
// LAUNCH: if (tilecc_aligned16)
// LAUNCH-NEXT: return launch_widths_c0_aligned16(
