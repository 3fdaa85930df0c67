// Every check tile's headers make on a kernel is reported at the kernel's
// line, the header's detail in notes after it: one bad kernel per check.
// RUN: rm -rf %t
// RUN: %not %tilecc %s -o %t -DCASE=1 2>&1 | %check-errors %s --check-prefix=C1
// RUN: %not %tilecc %s -o %t -DCASE=2 2>&1 | %check-errors %s --check-prefix=C2
// RUN: %not %tilecc %s -o %t -DCASE=3 2>&1 | %check-errors %s --check-prefix=C3
// RUN: %not %tilecc %s -o %t -DCASE=4 2>&1 | %check-errors %s --check-prefix=C4
// RUN: %not %tilecc %s -o %t -DCASE=5 2>&1 | %check-errors %s --check-prefix=C5
// RUN: %not %tilecc %s -o %t -DCASE=6 2>&1 | %check-errors %s --check-prefix=C6
// RUN: %not %tilecc %s -o %t -DCASE=7 2>&1 | %check-errors %s --check-prefix=C7
// RUN: %not %tilecc %s -o %t -DCASE=8 2>&1 | %check-errors %s --check-prefix=C8
// RUN: %not %tilecc %s -o %t -DCASE=9 2>&1 | %check-errors %s --check-prefix=C9
// RUN: %not %tilecc %s -o %t -DCASE=10 2>&1 | %check-errors %s --check-prefix=C10
// RUN: %not %tilecc %s -o %t -DCASE=11 2>&1 | %check-errors %s --check-prefix=C11
// RUN: %not %tilecc %s -o %t -DCASE=12 2>&1 | %check-errors %s --check-prefix=C12
// RUN: %not %tilecc %s -o %t -DCASE=13 2>&1 | %check-errors %s --check-prefix=C13
// RUN: %not %tilecc %s -o %t -DCASE=14 2>&1 | %check-errors %s --check-prefix=C14
// RUN: %not %tilecc %s -o %t -DCASE=15 2>&1 | %check-errors %s --check-prefix=C15
// RUN: %not %tilecc %s -o %t -DCASE=16 2>&1 | %check-errors %s --check-prefix=C16
// RUN: %not %tilecc %s -o %t -DCASE=17 2>&1 | %check-errors %s --check-prefix=C17
// RUN: %not %tilecc %s -o %t -DCASE=18 2>&1 | %check-errors %s --check-prefix=C18
// RUN: %not %tilecc %s -o %t -DCASE=19 2>&1 | %check-errors %s --check-prefix=C19
// RUN: %not %tilecc %s -o %t -DCASE=20 2>&1 | %check-errors %s --check-prefix=C20
// RUN: %not %tilecc %s -o %t -DCASE=21 2>&1 | %check-errors %s --check-prefix=C21
// RUN: %not %tilecc %s -o %t -DCASE=22 2>&1 | %check-errors %s --check-prefix=C22
// RUN: %not %tilecc %s -o %t -DCASE=23 2>&1 | %check-errors %s --check-prefix=C23
// RUN: %not %tilecc %s -o %t -DCASE=24 2>&1 | %check-errors %s --check-prefix=C24
// RUN: %not %tilecc %s -o %t -DCASE=25 2>&1 | %check-errors %s --check-prefix=C25
// RUN: %not %tilecc %s -o %t -DCASE=26 2>&1 | %check-errors %s --check-prefix=C26
// RUN: %not %tilecc %s -o %t -DCASE=27 2>&1 | %check-errors %s --check-prefix=C27
// RUN: %not %tilecc %s -o %t -DCASE=28 2>&1 | %check-errors %s --check-prefix=C28
// RUN: %not %tilecc %s -o %t -DCASE=29 2>&1 | %check-errors %s --check-prefix=C29
// RUN: %not %tilecc %s -o %t -DCASE=30 2>&1 | %check-errors %s --check-prefix=C30
// RUN: %not %tilecc %s -o %t -DCASE=31 2>&1 | %check-errors %s --check-prefix=C31
// RUN: %not %tilecc %s -o %t -DCASE=32 2>&1 | %check-errors %s --check-prefix=C32
// RUN: %not %tilecc %s -o %t -DCASE=33 2>&1 | %check-errors %s --check-prefix=C33
// RUN: %not %tilecc %s -o %t -DCASE=34 2>&1 | %check-errors %s --check-prefix=C34
// RUN: %not %tilecc %s -o %t -DCASE=35 2>&1 | %check-errors %s --check-prefix=C35
// RUN: %not %tilecc %s -o %t -DCASE=36 2>&1 | %check-errors %s --check-prefix=C36
// RUN: %not %tilecc %s -o %t -DCASE=37 2>&1 | %check-errors %s --check-prefix=C37
// RUN: %not %tilecc %s -o %t -DCASE=38 2>&1 | %check-errors %s --check-prefix=C38
// RUN: %not %tilecc %s -o %t -DCASE=39 2>&1 | %check-errors %s --check-prefix=C39
// RUN: %not %tilecc %s -o %t -DCASE=40 2>&1 | %check-errors %s --check-prefix=C40
// RUN: %not %tilecc %s -o %t -DCASE=41 2>&1 | %check-errors %s --check-prefix=C41
// RUN: %not %tilecc %s -o %t -DCASE=42 2>&1 | %check-errors %s --check-prefix=C42
// RUN: %not %tilecc %s -o %t -DCASE=43 2>&1 | %check-errors %s --check-prefix=C43
// RUN: %not %tilecc %s -o %t -DCASE=44 2>&1 | %check-errors %s --check-prefix=C44
// RUN: %not %tilecc %s -o %t -DCASE=45 2>&1 | %check-errors %s --check-prefix=C45
// RUN: %not %tilecc %s -o %t -DCASE=46 2>&1 | %check-errors %s --check-prefix=C46
// RUN: %not %tilecc %s -o %t -DCASE=47 2>&1 | %check-errors %s --check-prefix=C47
// RUN: %not %tilecc %s -o %t -DCASE=48 2>&1 | %check-errors %s --check-prefix=C48
// RUN: %not %tilecc %s -o %t -DCASE=49 2>&1 | %check-errors %s --check-prefix=C49
// RUN: %not %tilecc %s -o %t -DCASE=50 2>&1 | %check-errors %s --check-prefix=C50
// RUN: %not %tilecc %s -o %t -DCASE=51 2>&1 | %check-errors %s --check-prefix=C51
// RUN: %not %tilecc %s -o %t -DCASE=52 2>&1 | %check-errors %s --check-prefix=C52
// RUN: %not %tilecc %s -o %t -DCASE=53 2>&1 | %check-errors %s --check-prefix=C53
// RUN: %not %tilecc %s -o %t -DCASE=54 2>&1 | %check-errors %s --check-prefix=C54
// RUN: %not %tilecc %s -o %t -DCASE=55 2>&1 | %check-errors %s --check-prefix=C55
// RUN: %not %tilecc %s -o %t -DCASE=56 2>&1 | %check-errors %s --check-prefix=C56
// RUN: %not %tilecc %s -o %t -DCASE=57 2>&1 | %check-errors %s --check-prefix=C57
// RUN: %not %tilecc %s -o %t -DCASE=58 2>&1 | %check-errors %s --check-prefix=C58
// RUN: %not %tilecc %s -o %t -DCASE=59 2>&1 | %check-errors %s --check-prefix=C59
// RUN: %not %tilecc %s -o %t -DCASE=60 2>&1 | %check-errors %s --check-prefix=C60
#include <cstdint>
#include <tile/tile.hpp>
#include <tuple>

inline std::tuple<int, int> add_pairs(int x0, int y0, int x1, int y1) {
  return {x0 + x1, y0 + y1};
}

TILE_KERNEL void k(float *f, int *p, bool *bp) {
  auto a = tile::arange<16>();
  auto o = tile::expand_dims<1>(a) * 16 + tile::expand_dims<0>(a);
  auto h = tile::zeros<tile::half, 16, 16>();
#if CASE == 1
  // C1: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: tiles hold at most 1048576 elements (Triton's limit)
  auto t = tile::zeros<float, 2048, 1024>();
#endif
#if CASE == 2
  // C2: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: compound assignment must keep the tile's element type and shape; use tile::cast or a new variable
  a += 0.5f;
#endif
#if CASE == 3
  // C3: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: bitwise operators need integer tiles
  tile::store(f + a, tile::cast<float>(a) & 1.0f);
#endif
#if CASE == 4
  // C4: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: logical operators need bool tiles
  tile::store(p + a, a && a);
#endif
#if CASE == 5
  // C5: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: floordiv needs integer operands
  tile::store(f + a, tile::floordiv(tile::cast<float>(a), 2.0f));
#endif
#if CASE == 6
  // C6: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: math functions take float or double tiles; cast half/bfloat16 first
  tile::store(p + a, tile::sqrt(a));
#endif
#if CASE == 7
  // C7: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: tile::range iterates over integers
  for (float x : tile::range(0.0f, 4.0f))
    tile::store(f, x);
#endif
#if CASE == 8
  // C8: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: arange needs End > Start
  tile::store(p + a, tile::arange<16, 8>());
#endif
#if CASE == 9
  // C9: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot broadcast tile shapes
  tile::store(f + a, tile::zeros<float, 32>());
#endif
#if CASE == 10
  // C10: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: bitwise operators need integer tiles
  tile::store(f + a, ~tile::cast<float>(a));
#endif
#if CASE == 11
  // C11: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: logical operators need bool tiles
  tile::store(bp + a, !a);
#endif
#if CASE == 12
  // C12: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: where needs a bool condition
  tile::store(p + a, tile::where(a, 1, 2));
#endif
#if CASE == 13
  // C13: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: clamp takes floating-point tiles
  tile::store(p + a, tile::clamp(a, 0, 4));
#endif
#if CASE == 14
  // C14: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: invalid axis
  tile::store(p + a, tile::expand_dims<3>(a));
#endif
#if CASE == 15
  // C15: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: invalid axis
  auto e = tile::expand_dims<2>(1.0f);
#endif
#if CASE == 16
  // C16: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot broadcast tile shapes
  tile::store(p + a, tile::broadcast_to<8>(a));
#endif
#if CASE == 17
  // C17: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: xor_sum needs integer tiles
  tile::store(f, tile::xor_sum<0>(tile::cast<float>(a)));
#endif
#if CASE == 18
  // C18: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: scans need numeric tiles
  auto s = tile::cumsum<0>(f + a);
#endif
#if CASE == 19
  // C19: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the tuple's tiles must have one shape
  auto r = tile::reduce<0>(std::tuple{a, tile::arange<32>()}, add_pairs);
#endif
#if CASE == 20
  // C20: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot: the columns of a (K) must match the rows of b
  tile::store(f + o, tile::dot(h, tile::zeros<tile::half, 32, 16>()));
#endif
#if CASE == 21
  // C21: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot: both operands must have one element type
  tile::store(f + o, tile::dot(h, tile::zeros<float, 16, 16>()));
#endif
#if CASE == 22
  // C22: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot takes int8, uint8, float8_e4m3, float8_e5m2, half, bfloat16, float or double operands
  tile::store(p + o, tile::dot(tile::zeros<int, 16, 16>(), tile::zeros<int, 16, 16>()));
#endif
#if CASE == 23
  // C23: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot: the result must have the accumulator type
  tile::store(p + o, tile::dot<int>(h, h));
#endif
#if CASE == 24
  // C24: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot needs M, N and K of at least 16
  tile::store(f + o, tile::dot(tile::zeros<tile::half, 16, 8>(), tile::zeros<tile::half, 8, 16>()));
#endif
#if CASE == 25
  // C25: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot of 8-bit operands needs K of at least 32
  tile::store(p + o, tile::dot(tile::zeros<std::int8_t, 16, 16>(), tile::zeros<std::int8_t, 16, 16>()));
#endif
#if CASE == 26
  // C26: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot: acc must be M x N
  tile::store(f + o, tile::dot(h, h, tile::zeros<float, 16, 32>()));
#endif
#if CASE == 27
  // C27: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: atomic masks must be bool tiles or bool values
  tile::atomic_add(f + a, 1.0f, a);
#endif
#if CASE == 28
  // C28: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot broadcast tile shapes
  tile::atomic_add(f + a, tile::zeros<float, 32>());
#endif
#if CASE == 29
  // C29: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: atomic_cas does not support this element type
  tile::atomic_cas(bp + a, true, false);
#endif
#if CASE == 30
  // C30: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: pointers convert only to integers and pointers
  tile::store(f + a, tile::cast<float>(f + a));
#endif
#if CASE == 31
  // C31: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: only pointers and integers convert to pointers
  auto q = tile::cast<float *>(tile::cast<float>(a));
#endif
#if CASE == 32
  // C32: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot divide integers of different signedness (/, floordiv and %), as in Triton: cast one to the other's signedness
  tile::store(f + a, a / tile::cast<unsigned>(a));
#endif
#if CASE == 33
  // C33: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot divide integers of different signedness (/, floordiv and %), as in Triton: cast one to the other's signedness
  tile::store(p + a, tile::floordiv(tile::cast<std::uint8_t>(a), a));
#endif
#if CASE == 34
  // A signed literal takes part beside an unsigned tile (its kind is higher).
  // C34: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot divide integers of different signedness (/, floordiv and %), as in Triton: cast one to the other's signedness
  tile::store(p + a, tile::cast<unsigned>(a) % 3);
#endif
#if CASE == 35
  // C35: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: bitcast needs element types of one width (not bool)
  tile::store(p + a, tile::bitcast<std::int64_t>(a));
#endif
#if CASE == 36
  // C36: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the seed of a random number is an integer scalar
  tile::store(f + a, tile::rand(1.5f, a));
#endif
#if CASE == 37
  // C37: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: random numbers take 32- or 64-bit integer offsets
  tile::store(f + a, tile::rand(7, tile::cast<std::int16_t>(a)));
#endif
#if CASE == 38
  // C38: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: umulhi takes integer operands
  tile::store(f + a, tile::umulhi(tile::cast<float>(a), 2.0f));
#endif
#if CASE == 39
  // C39: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: math functions take float or double tiles; cast half/bfloat16 first
  tile::store(p + a, tile::atan2(a, a));
#endif
#if CASE == 40
  // C40: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: histogram counts the values of a 1-D integer tile
  tile::store(p + a, tile::histogram<16>(tile::cast<float>(a)));
#endif
#if CASE == 41
  // C41: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: histogram's mask is a bool tile or bool value
  tile::store(p + a, tile::histogram<16>(a, a));
#endif
#if CASE == 42
  // C42: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: assume takes a bool value
  tile::assume(a > 0);
#endif
#if CASE == 43
  // C43: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: reshape cannot change the number of elements of a tile
  auto r = tile::reshape<8, 16>(o);
#endif
#if CASE == 44
  // C44: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: permute's dimensions must be a permutation of 0, 1, ..., n-1
  tile::store(p + o, tile::permute<1, 1>(o));
#endif
#if CASE == 45
  // C45: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: permute takes one dimension per dimension of the tile
  tile::store(p + o, tile::permute<1, 0, 2>(o));
#endif
#if CASE == 46
  // C46: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: split takes a tile whose last dimension is 2
  auto [lo, hi] = tile::split(o);
#endif
#if CASE == 47
  // C47: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: invalid dimension
  tile::store(p + o, tile::flip<2>(o));
#endif
#if CASE == 48
  // C48: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: topk keeps 1 to n values of a line
  auto t = tile::topk<32>(o);
#endif
#if CASE == 49
  // C49: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: gather's index is an integer tile
  tile::store(p + o, tile::gather<1>(o, tile::cast<float>(o)));
#endif
#if CASE == 50
  // C50: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: gather's index has its source's shape but along the axis
  auto g = tile::gather<0>(o, tile::zeros<int, 4, 8>());
#endif
#if CASE == 51
  // C51: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: a load's cache modifier is ca, cg, cs, lu, cv or volatile_
  tile::store(f + a, tile::load<tile::cache::wb>(f + a));
#endif
#if CASE == 52
  // C52: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: a cache modifier and an eviction policy do not combine
  tile::store(f + a, tile::load<tile::cache::cg, tile::evict::last>(f + a));
#endif
#if CASE == 53
  // C53: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: a store's cache modifier is wb, cg, cs, wt or volatile_
  tile::store<tile::cache::ca>(f + a, 1.0f);
#endif
#if CASE == 54
  auto bp16 = tile::make_block_ptr<16, 16>(f, {16, 16}, {16, 1}, {0, 0});
  // C54: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: boundary_check names a dimension the block pointer lacks
  tile::store(f + o, tile::load(bp16, tile::boundary_check<2>));
#endif
#if CASE == 55
  // C55: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: rounding::rtz applies to floating-point downcasts to float32, float16 or bfloat16
  tile::store(f + o, tile::cast<float, tile::rounding::rtz>(h));
#endif
#if CASE == 56
  // C56: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: only 64-bit integers cast to pointers
  auto *q = tile::cast<float *>(tile::program_id(0));
  tile::store(q + o, 1.0f);
#endif
#if CASE == 57
  // C57: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot: a and b must hold as many matrices
  auto r = tile::dot(tile::zeros<tile::half, 2, 16, 16>(), tile::zeros<tile::half, 4, 16, 16>());
#endif
#if CASE == 58
  // C58: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot: acc must be Batch x M x N
  auto r = tile::dot(tile::zeros<tile::half, 2, 16, 16>(), tile::zeros<tile::half, 2, 16, 32>(), tile::zeros<float, 2, 16, 16>());
#endif
#if CASE == 59
  // C59: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: exp2_cubic<K>: K of every 8 elements, from 0 to 8
  tile::store(f + o, tile::exp2_cubic<9>(tile::cast<float>(h)));
#endif
#if CASE == 60
  // C60: library_checks.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: exp2_cubic takes float tiles and scalars; cast first
  tile::store(f + o, tile::cast<float>(tile::exp2_cubic<2>(tile::cast<double>(h))));
#endif
}
TILE_CONFIGS(k, tile::config{});
TILE_GRID(k) tile::grid k_grid(float *, int *, bool *) { return {1}; }
