// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/fast_exp2.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/fast_exp2.cu -o %t/sm90a.o %}
// RUN: %tilecc %s --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %not %tilecc %s -o %t.hip --target gfx90a 2>&1 | %FileCheck %s --check-prefix=HIP
// RUN: %not %tilecc %s -o %t.1 -DCASE=1 2>&1 | %FileCheck %s --check-prefix=C1
// RUN: %not %tilecc %s -o %t.2 -DCASE=2 2>&1 | %FileCheck %s --check-prefix=C2
// RUN: %not %tilecc %s -o %t.3 -DCASE=3 2>&1 | %FileCheck %s --check-prefix=C3
//
// tl.inline_asm_elementwise: the text runs on each element, $N written %N
// for nvcc (a literal % doubled), inside a lambda called in place; each
// value moves through a register of its constraint's type, its bits
// unchanged (a float in "r" is its bits as unsigned). The emulation runs
// the lambda given instead. AMD GPUs do not run PTX: an error at the call.
#include <cmath>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void fast_exp2(const float *x, float *y, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto v = tile::load(x + offs, offs < n);
#if CASE == 1
  // C1: inline_asm.tile.cpp:[[@LINE+2]]:{{[0-9]+}}: error: register 'l' holds 8 bytes, not a f32
  auto e = tile::inline_asm_elementwise<float>(
      "ex2.approx.f32 $0, $1;", "=r,l", [](float a) { return std::exp2(a); }, v);
#elif CASE == 2
  // C2: inline_asm.tile.cpp:[[@LINE+2]]:{{[0-9]+}}: error: $2 names no register: $0 the result, $1 the arguments
  auto e = tile::inline_asm_elementwise<float>(
      "add.f32 $0, $1, $2;", "=f,f", [](float a) { return a; }, v);
#elif CASE == 3
  // C3: inline_asm.tile.cpp:[[@LINE+2]]:{{[0-9]+}}: error: constraints name 3 registers; a result and 1 arguments take 2
  auto e = tile::inline_asm_elementwise<float>(
      "mov.b32 $0, $1;", "=r,r,r", [](float a) { return a; }, v);
#else
  auto e = tile::inline_asm_elementwise<float>(
      "ex2.approx.f32 $0, $1; // 100%", "=r,r",
      [](float a) { return std::exp2(a); }, v);
#endif
  tile::store(y + offs, e, offs < n);
}
TILE_CONFIGS(fast_exp2, tile::config{.meta = {512}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(fast_exp2)
tile::grid fast_exp2_grid(const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// CHECK-LABEL: fast_exp2_c0_aligned16(
// CHECK: [[E:[a-z_0-9]+]][e] = [&] {
// CHECK-NEXT: unsigned r;
// CHECK-NEXT: asm("ex2.approx.f32 %0, %1; // 100%%"
// CHECK-NEXT: : "=r"(r)
// CHECK-NEXT: : "r"(rt::bitcast<unsigned>(v[e])));
// CHECK-NEXT: return rt::bitcast<float>(r);
// CHECK-NEXT: }();

// IR: inline_asm_elementwise {message = "ex2.approx.f32 %0, %1; // 100%%", registers = [r, r]} %{{[0-9]+}}.v : tensor<f32, [512]>

// HIP: inline_asm.tile.cpp:34:12: error: inline_asm_elementwise's text is PTX, which gfx90a does not run
