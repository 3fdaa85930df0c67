// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/downcast.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/downcast.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-ptx-sm80 %t/downcast.cu -o %t/downcast.ptx %}
// RUN: %if nvcc %{ %FileCheck --check-prefix=PTX %s < %t/downcast.ptx %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/downcast.hip -o %t.hip/downcast.o %}
// RUN: %tilecc %s --emit=ir | %FileCheck --check-prefix=IR %s
//
// tl.cast's fp_downcast_rounding="rtz" is a template argument of cast:
// float to half and bfloat16 and double to float are one cvt.rz each;
// double to half steps the nearest-even result toward zero where it
// rounded away (AMD GPUs do so for all). A constant cast toward zero stays
// a cast op rather than a constant rounded to nearest.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void downcast(const float *x, const double *y, tile::half *h,
                          tile::bfloat16 *b, float *f, tile::half *hd) {
  using tile::rounding;
  auto i = tile::arange<BLOCK>();
  tile::store(h + i, tile::cast<tile::half, rounding::rtz>(tile::load(x + i)));
  tile::store(b + i,
              tile::cast<tile::bfloat16, rounding::rtz>(tile::load(x + i)));
  tile::store(f + i, tile::cast<float, rounding::rtz>(tile::load(y + i)));
  tile::store(hd + i, tile::cast<tile::half, rounding::rtz>(tile::load(y + i)) +
                          tile::cast<tile::half, rounding::rtz>(0.1f));
}
TILE_CONFIGS(downcast, tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(downcast)
tile::grid downcast_grid(const float *, const double *, tile::half *,
                         tile::bfloat16 *, float *, tile::half *) {
  return {1};
}

// CHECK-LABEL: downcast_c0_generic(
// CHECK: rt::convert_toward_zero<rt::f16>(
// CHECK: rt::convert_toward_zero<rt::bf16>(
// CHECK: rt::convert_toward_zero<float>(
// CHECK: rt::convert_toward_zero<rt::f16>(0.100000001f)

// PTX-LABEL: downcast_c0_generic
// PTX-DAG: cvt.rz.f16.f32
// PTX-DAG: cvt.rz.bf16.f32
// PTX-DAG: cvt.rz.f32.f64

// IR: cast {rounding = rtz} %{{[0-9]+}} : tensor<f16, [128]>
// IR: cast {rounding = rtz} %{{[0-9]+}} : f16
