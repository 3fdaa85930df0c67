// Unit tests for the emulation of tile::dot and tile::trans in
// tile/tile.hpp, against plain loops.

#include <tile/tile.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>

using tile::bfloat16;
using tile::half;
using tile::tensor;

namespace {

/// A tile whose element k is f(k).
template <class T, int R, int C, class F> tensor<T, R, C> filled(F f) {
  tensor<T, R, C> t;
  for (int k = 0; k < t.numel; ++k)
    t.data()[k] = T(f(k));
  return t;
}

/// The product of a and b in double, element (i, j).
template <class TA, int M, int K, int N>
double product(const tensor<TA, M, K> &a, const tensor<TA, K, N> &b, int i,
               int j) {
  double s = 0;
  for (int k = 0; k < K; ++k)
    s += double(a.data()[i * K + k]) * double(b.data()[k * N + j]);
  return s;
}

} // namespace

TEST_CASE("dot of half operands accumulates in float") {
  auto a = filled<half, 16, 32>([](int k) { return (k % 7) * 0.25f - 0.5f; });
  auto b = filled<half, 32, 16>([](int k) { return (k % 5) * 0.5f - 1.0f; });
  auto c = tile::dot(a, b);
  static_assert(std::is_same_v<decltype(c), tensor<float, 16, 16>>);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      CHECK(c.data()[i * 16 + j] == doctest::Approx(product(a, b, i, j)));
  // Into half, and added to an accumulator.
  auto h = tile::dot<half>(a, b);
  static_assert(std::is_same_v<decltype(h), tensor<half, 16, 16>>);
  CHECK(float(h.data()[3]) == doctest::Approx(product(a, b, 0, 3)));
  auto acc = filled<float, 16, 16>([](int k) { return k; });
  auto d = tile::dot(a, b, acc);
  CHECK(d.data()[17] == doctest::Approx(17 + product(a, b, 1, 1)));
}

TEST_CASE("dot of bfloat16 operands") {
  auto a = filled<bfloat16, 16, 16>([](int k) { return k % 3; });
  auto b = filled<bfloat16, 16, 16>([](int k) { return 1 - k % 2; });
  auto c = tile::dot(a, b);
  CHECK(c.data()[0] == product(a, b, 0, 0));
  CHECK(c.data()[255] == product(a, b, 15, 15));
}

TEST_CASE("dot of int8 operands accumulates in int32") {
  auto a = filled<std::int8_t, 16, 32>([](int k) { return k % 255 - 127; });
  auto b = filled<std::int8_t, 32, 16>([](int k) { return 127 - k % 200; });
  auto c = tile::dot(a, b);
  static_assert(std::is_same_v<decltype(c), tensor<std::int32_t, 16, 16>>);
  for (int i = 0; i < 16; ++i)
    CHECK(c.data()[i * 16 + i] == product(a, b, i, i));
}

TEST_CASE("float operands round to tf32 unless asked for ieee") {
  // 1 + 2^-12 needs 12 mantissa bits: TF32 (10 bits) rounds it to 1.
  auto a =
      filled<float, 16, 16>([](int k) { return k == 0 ? 1 + 0x1p-12f : 0; });
  auto b = filled<float, 16, 16>([](int k) { return k == 0 ? 1.0f : 0; });
  CHECK(tile::dot(a, b).data()[0] == 1.0f);
  CHECK(tile::dot(a, b, tile::input_precision::ieee).data()[0] == 1 + 0x1p-12f);
  CHECK(tile::dot(a, b, tile::input_precision::tf32x3).data()[0] ==
        1 + 0x1p-12f);
  // Ties round away from zero, as cvt.rna does: 1 + 2^-11 is half way
  // between the TF32 values 1 and 1 + 2^-10.
  CHECK(tile::detail::round_to_tf32(1 + 0x1p-11f) == 1 + 0x1p-10f);
  CHECK(tile::detail::round_to_tf32(-(1 + 0x1p-11f)) == -(1 + 0x1p-10f));
}

TEST_CASE("trans swaps the axes") {
  auto x = filled<int, 2, 4>([](int k) { return k; });
  auto t = tile::trans(x);
  static_assert(std::is_same_v<decltype(t), tensor<int, 4, 2>>);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      CHECK(t.data()[j * 2 + i] == x.data()[i * 4 + j]);
}
