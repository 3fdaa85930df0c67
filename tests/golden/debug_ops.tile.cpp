// RUN: rm -rf %t && %tilecc %s -o %t -DTILE_DEBUG && %FileCheck %s < %t/checked.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/checked.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/checked.cu -o %t/sm80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a -DTILE_DEBUG
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/checked.hip -o %t.hip/k.o %}
// RUN: %tilecc %s -o %t.off && %FileCheck --check-prefix=OFF %s < %t.off/checked.cu
// RUN: %tilecc %s --emit=ir -DTILE_DEBUG | %FileCheck --check-prefix=IR %s
//
// device_print is a printf per element a thread owns, in Triton's format
// (device_print<tile::hex>: the bits, 0x and two digits per byte);
// device_assert, only with TILE_DEBUG, is rt::assert_fail where an owned
// element's condition (with its mask) is false, at the user's line.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void checked(const float *x, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto v = tile::load(x + offs, mask);
  tile::device_assert(v >= 0.0f, "x must not be \"negative\"", mask);
  tile::device_print("v at 100%", v);
  tile::device_print("n: ", n);
  tile::device_print("done");
  tile::device_print<tile::hex>("bits", v, n);
}
TILE_CONFIGS(checked, tile::config{.meta = {128}, .num_warps = 1});
template <int BLOCK>
TILE_GRID(checked)
tile::grid checked_grid(const float *, int n) { return {tile::cdiv(n, BLOCK)}; }

// IR: device_assert {message = "x must not be \"negative\""}
// IR: device_print {message = "v at 100%"}
// IR: device_print {message = "bits", hex}
// CHECK: #line 19
// CHECK: if (L0::owns(e) && !((v[e] >= 0.0f) || (!mask[e])))
// CHECK-NEXT: rt::assert_fail("x must not be \"negative\"", __FILE__, __LINE__,
// CHECK: if (L0::owns(e))
// CHECK-NEXT: printf("pid (%d, %d, %d) idx (%3d) v at 100%%: %f\n", int(blockIdx.x),
// CHECK: L0::coord(e, 0), double(v[e]));
// CHECK: if (threadIdx.x == 0)
// CHECK-NEXT: printf("pid (%d, %d, %d) idx () n: %d\n", int(blockIdx.x),
// CHECK: printf("pid (%d, %d, %d) done\n", int(blockIdx.x), int(blockIdx.y),
// CHECK: printf("pid (%d, %d, %d) idx (%3d) bits (operand 0): 0x%08x\n",
// CHECK: unsigned(rt::bitcast<unsigned>(v[e])));
// CHECK: printf("pid (%d, %d, %d) idx () bits (operand 1): 0x%08x\n",
// OFF-NOT: assert_fail
// OFF: printf("pid (%d, %d, %d) idx (%3d) v at 100%%: %f\n"
