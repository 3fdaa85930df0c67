// RUN: rm -rf %t && %tilecc %s -o %t
// RUN: %FileCheck %s < %t/shift_bytes.cu
// RUN: %FileCheck %s --check-prefix=PAIRS < %t/add_and_negate.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/shift_bytes.cu -o %t/bytes90.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/add_and_negate.cu -o %t/pairs80.o %}
// RUN: %tilecc %s --emit=ir | %FileCheck %s --check-prefix=IR
// RUN: %not %tilecc %s -o %t.1 -DCASE=1 2>&1 | %FileCheck %s --check-prefix=C1
// RUN: %not %tilecc %s -o %t.2 -DCASE=2 2>&1 | %FileCheck %s --check-prefix=C2
// RUN: %not %tilecc %s -o %t.3 -DCASE=3 2>&1 | %FileCheck %s --check-prefix=C3
// RUN: %not %tilecc %s -o %t.4 -DCASE=4 2>&1 | %FileCheck %s --check-prefix=C4
// RUN: %not %tilecc %s -o %t.5 -DCASE=5 2>&1 | %FileCheck %s --check-prefix=C5
// RUN: %not %tilecc %s -o %t.6 -DCASE=6 2>&1 | %FileCheck %s --check-prefix=C6
//
// tl.inline_asm_elementwise with pack > 1: one run of the text takes
// `pack` consecutive elements of the thread, so the result is a register
// array filled by a loop that steps by the pack. Elements narrower than 32
// bits share a register (rt::pack_bits, the first in the low bits; the
// results come back through rt::unpack_bits); 32-bit ones take a register
// each, the result's first. Where a thread holds fewer elements than the
// pack (128 elements over 128 threads), the one group is padded: its
// inputs repeat the last element and the padding's results are dropped.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void shift_bytes(const std::uint8_t *x, std::uint8_t *y, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto v = tile::load(x + offs, offs < n);
  auto r = tile::inline_asm_elementwise<std::uint8_t, 4>(
      "and.b32 $0, $1, 0x1F1F1F1F; shl.b32 $0, $0, 3;", "=r,r",
      [](std::uint8_t a) { return std::uint8_t((a & 0x1F) << 3); }, v);
  tile::store(y + offs, r, offs < n);
}
TILE_CONFIGS(shift_bytes, tile::config{.meta = {1024}, .num_warps = 4},
             tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(shift_bytes)
tile::grid shift_bytes_grid(const std::uint8_t *, std::uint8_t *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

template <int BLOCK>
TILE_KERNEL void add_and_negate(const tile::half *a, const tile::half *b,
                                const float *x, tile::half *sum, float *neg,
                                int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto in = offs < n;
#if CASE == 1
  // C1: inline_asm_packed.tile.cpp:[[@LINE+2]]:{{[0-9]+}}: error: the registers of one value take one letter, not 'r' and 'h'
  auto s = tile::inline_asm_elementwise<tile::half, 4>(
      "add.rn.f16x2 $0, $2, $4;", "=r,=h,r,r,r,r",
      [](tile::half p, tile::half q) { return p + q; },
      tile::load(a + offs, in), tile::load(b + offs, in));
#elif CASE == 2
  // C2: inline_asm_packed.tile.cpp:[[@LINE+2]]:{{[0-9]+}}: error: constraints name 3 registers; a result and 2 arguments take 6 with pack 4
  auto s = tile::inline_asm_elementwise<tile::half, 4>(
      "add.rn.f16x2 $0, $1, $2;", "=r,r,r",
      [](tile::half p, tile::half q) { return p + q; },
      tile::load(a + offs, in), tile::load(b + offs, in));
#elif CASE == 3
  // C3: inline_asm_packed.tile.cpp:[[@LINE+4]]:{{[0-9]+}}: error: register 'h' holds 2 bytes, not 2 f16s (4 bytes)
  auto s = tile::inline_asm_elementwise<tile::half, 2>(
      "add.rn.f16x2 $0, $1, $2;", "=r,h,r",
      [](tile::half p, tile::half q) { return p + q; },
      tile::load(a + offs, in), tile::load(b + offs, in));
#elif CASE == 4
  // C4: inline_asm_packed.tile.cpp:[[@LINE+2]]:{{[0-9]+}}: error: $3 names no register: $0 the result, $1 to $2 the arguments
  auto s = tile::inline_asm_elementwise<tile::half, 2>(
      "add.rn.f16x2 $0, $1, $3;", "=r,r,r",
      [](tile::half p, tile::half q) { return p + q; },
      tile::load(a + offs, in), tile::load(b + offs, in));
#elif CASE == 5
  // C5: inline_asm_packed.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: pack 2 groups a tile's elements; these arguments are scalars
  auto s = tile::inline_asm_elementwise<tile::half, 2>(
      "add.rn.f16x2 $0, $1, $2;", "=r,r,r",
      [](tile::half p, tile::half q) { return p + q; }, tile::load(a),
      tile::load(b));
#elif CASE == 6
  // C6: inline_asm_packed.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: pack is a power of two from 1 to 16
  auto s = tile::inline_asm_elementwise<tile::half, 3>(
      "add.rn.f16x2 $0, $1, $2;", "=r,r,r",
      [](tile::half p, tile::half q) { return p + q; },
      tile::load(a + offs, in), tile::load(b + offs, in));
#else
  auto s = tile::inline_asm_elementwise<tile::half, 2>(
      "add.rn.f16x2 $0, $1, $2;", "=r,r,r",
      [](tile::half p, tile::half q) { return p + q; },
      tile::load(a + offs, in), tile::load(b + offs, in));
#endif
  tile::store(sum + offs, s, in);
  auto m = tile::inline_asm_elementwise<float, 2>(
      "neg.f32 $0, $2; neg.f32 $1, $3;", "=f,=f,f,f",
      [](float v) { return -v; }, tile::load(x + offs, in));
  tile::store(neg + offs, m, in);
}
TILE_CONFIGS(add_and_negate, tile::config{.meta = {512}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(add_and_negate)
tile::grid add_and_negate_grid(const tile::half *, const tile::half *,
                               const float *, tile::half *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// Four bytes a register; the user's `r` keeps its name, the register is r_1.
// CHECK-LABEL: shift_bytes_c0_aligned16(
// CHECK: uint8_t r[8];
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int e = 0; e < 8; e += 4) {
// CHECK-NEXT: unsigned r_1;
// CHECK-NEXT: asm("and.b32 %0, %1, 0x1F1F1F1F; shl.b32 %0, %0, 3;"
// CHECK-NEXT: : "=r"(r_1)
// CHECK-NEXT: : "r"(rt::pack_bits<unsigned, uint8_t>(v[e], v[e + 1], v[e + 2],
// CHECK-NEXT: v[e + 3])));
// CHECK-NEXT: rt::unpack_bits(r_1, r[e], r[e + 1], r[e + 2], r[e + 3]);
// CHECK-NEXT: }
// One element a thread: a padded group.
// CHECK-LABEL: shift_bytes_c1_generic(
// CHECK: uint8_t r[1];
// CHECK-NEXT: {
// CHECK-NEXT: uint8_t spare;
// CHECK-NEXT: unsigned r_1;
// CHECK: "r"(rt::pack_bits<unsigned, uint8_t>(v[0], v[0], v[0], v[0])));
// CHECK-NEXT: rt::unpack_bits(r_1, r[0], spare, spare, spare);
// CHECK-NEXT: }

// Two halves a register; two floats a register each, the result's first.
// PAIRS-LABEL: add_and_negate_c0_aligned16(
// PAIRS: for (int e = 0; e < {{[0-9]+}}; e += 2) {
// PAIRS-NEXT: unsigned r;
// PAIRS-NEXT: asm("add.rn.f16x2 %0, %1, %2;"
// PAIRS-NEXT: : "=r"(r)
// PAIRS-NEXT: : "r"(rt::pack_bits<unsigned, rt::f16>(t{{[0-9]+}}[e], t{{[0-9]+}}[e + 1])),
// PAIRS-NEXT: "r"(rt::pack_bits<unsigned, rt::f16>(t{{[0-9]+}}[e], t{{[0-9]+}}[e + 1])));
// PAIRS-NEXT: rt::unpack_bits(r, s[e], s[e + 1]);
// PAIRS: for (int e = 0; e < {{[0-9]+}}; e += 2) {
// PAIRS-NEXT: float r_1, r_2;
// PAIRS-NEXT: asm("neg.f32 %0, %2; neg.f32 %1, %3;"
// PAIRS-NEXT: : "=f"(r_1), "=f"(r_2)
// PAIRS-NEXT: : "f"(rt::pack_bits<float, float>({{.*}}[e])),
// PAIRS-NEXT: "f"(rt::pack_bits<float, float>({{.*}}[e + 1])));
// PAIRS-NEXT: rt::unpack_bits(r_1, m[e]);
// PAIRS-NEXT: rt::unpack_bits(r_2, m[e + 1]);

// IR: inline_asm_elementwise {message = "and.b32 %0, %1, 0x1F1F1F1F; shl.b32 %0, %0, 3;", registers = [r, r], pack = 4}
// IR: inline_asm_elementwise {message = "add.rn.f16x2 %0, %1, %2;", registers = [r, r, r], pack = 2}
// IR: inline_asm_elementwise {message = "neg.f32 %0, %2; neg.f32 %1, %3;", registers = [f, f], pack = 2}
