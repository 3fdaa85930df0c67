// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/hinted.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/hinted.cu -o %t/sm90a.o %}
// RUN: %tilecc %s -o %t.debug -DTILE_DEBUG && %FileCheck --check-prefix=DEBUG %s < %t.debug/hinted.cu
// RUN: %if nvcc %{ %nvcc-sm80 %t.debug/hinted.cu -o %t.debug/sm80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/hinted.hip -o %t.hip/hinted.o %}
// RUN: %tilecc %s --emit=ir | %FileCheck --check-prefix=IR %s
// RUN: %not %tilecc %s -o %t.bad -DBAD 2>&1 | %check-errors %s --check-prefix=BAD
//
// multiple_of and max_contiguous tell the axis analysis what the caller
// vouches for: the generic variant's accesses vectorize like the aligned
// one's (the two are then one kernel). With TILE_DEBUG an integer
// multiple_of is checked where the program runs. tile::assume hands its
// condition to nvcc (checked instead with TILE_DEBUG).
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void hinted(const float *x, float *out, int n) {
  const float *xa = tile::multiple_of<16>(x);
  float *oa = tile::multiple_of<16>(out);
  auto offs = tile::max_contiguous<BLOCK>(tile::multiple_of<BLOCK>(
      tile::program_id(0) * BLOCK + tile::arange<BLOCK>()));
  auto mask = offs < tile::multiple_of<16>(n);
  tile::assume(n > 0);
#ifdef BAD
  // BAD: hints.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: multiple_of takes powers of two, not 12
  auto twelve = tile::multiple_of<12>(offs);
#endif
  tile::store(oa + offs, tile::load(xa + offs, mask) * 2.0f, mask);
}
TILE_CONFIGS(hinted, tile::config{.meta = {256}, .num_warps = 2});
template <int BLOCK>
TILE_GRID(hinted)
tile::grid hinted_grid(const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// IR: multiple_of {values = [16]} %0.x : ptr<const f32>
// IR: max_contiguous {values = [256]}
// IR: [[POS:%[0-9]+]] = gt %2.n, %{{[0-9]+}} : i1
// IR-NEXT: assume [[POS]]
// CHECK: hinted_c0_generic: {{.*}} also the kernel of aligned16 launches
// CHECK: const bool [[POS:t[0-9]+]] = (n > 0);
// CHECK-NEXT: rt::assume([[POS]]);
// CHECK: rt::ld_global_v4(
// CHECK: rt::st_global_v4(
// DEBUG: if (L0::owns(e) && !(rt::rem({{.*}}, 256) == 0))
// DEBUG-NEXT: rt::assert_fail("multiple_of: a value is not a multiple of 256",
// DEBUG: = rt::rem(n, 16);
// DEBUG: rt::assert_fail("multiple_of: a value is not a multiple of 16",
// DEBUG: rt::assert_fail("assume: the condition is false",
// DEBUG: rt::assume({{t[0-9]+}});
