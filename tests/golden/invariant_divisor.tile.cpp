// clang-format off
// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/divide.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/divide.cu -o %t/divide90.o %}
// RUN: %tilecc %s -o %t.80 --target sm_80
// RUN: %if nvcc %{ %nvcc-sm80 %t.80/divide.cu -o %t.80/divide80.o %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %FileCheck %s --check-prefix=HIP < %t.hip/divide.hip
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/divide.hip -o %t.hip/divide.o %}
// clang-format on
//
// A 32-bit integer tile divided, in a loop, by a kernel argument: the
// argument's divisor is made once at the kernel's start (rt::divisor,
// multiply and shift) and each division in the loop uses it. Divisions
// outside loops, by other scalars or of 64-bit tiles keep `/` and `%`.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void divide(const int *x, const unsigned *u, int *out,
                        unsigned *uout, int64_t *wide, int n, int d,
                        unsigned m, int64_t f) {
  auto cols = tile::arange<BLOCK>();
  auto once = cols % d;
  auto acc = tile::zeros<int, BLOCK>();
  auto uacc = tile::zeros<unsigned, BLOCK>();
  auto wacc = tile::zeros<int64_t, BLOCK>();
  for (int i = 0; i < n; i += BLOCK) {
    auto v = tile::load(x + i + cols, i + cols < n, 0);
    acc += v % d + tile::floordiv(v, d) + v % (d + 1);
    uacc += tile::floordiv(tile::load(u + i + cols, i + cols < n, 0u), m);
    wacc += tile::cast<int64_t>(v) % f;
  }
  tile::store(out + cols, acc + once);
  tile::store(uout + cols, uacc);
  tile::store(wide + cols, wacc);
}
TILE_CONFIGS(divide, tile::config{.meta = {256}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(divide)
tile::grid divide_grid(const int *, const unsigned *, int *, unsigned *,
                       int64_t *, int, int, unsigned, int64_t) {
  return {1};
}

// clang-format off
// CHECK-LABEL: divide_c0_aligned16(
// CHECK: unsigned m, int64_t f) {
// CHECK-NEXT: const rt::divisor<int> d_divisor(d);
// CHECK-NEXT: const rt::divisor<unsigned> m_divisor(m);
// CHECK-NOT: f_divisor
// CHECK: once[e] = rt::rem(cols[e], d);
// CHECK: for (int i = 0; i < n; i += 256) {
// CHECK-DAG: d_divisor.remainder(v[e])
// CHECK-DAG: d_divisor.quotient(v[e])
// CHECK-DAG: rt::rem(v[e], t{{[0-9]+}})
// CHECK-DAG: m_divisor.quotient(
// CHECK-DAG: rt::rem(rt::convert<int64_t>(v[e]), f)
// HIP-LABEL: divide_c0_generic(
// HIP: unsigned m, int64_t f) {
// HIP-NEXT: const rt::divisor<int> d_divisor(d);
// HIP: d_divisor.remainder(
