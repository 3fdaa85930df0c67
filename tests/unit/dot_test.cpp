// Unit tests for the emulation of tile::dot and tile::trans in
// tile/tile.hpp, against plain loops.

#include <tile/tile.hpp>

#include <doctest/doctest.h>

#include <cmath>
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

TEST_CASE("dot of 8-bit float operands accumulates in float") {
  using tile::float8_e4m3;
  using tile::float8_e5m2;
  auto a =
      filled<float8_e4m3, 16, 32>([](int k) { return (k % 9) * 0.375 - 1.5; });
  auto b =
      filled<float8_e4m3, 32, 16>([](int k) { return (k % 5) * 24.0 - 48.0; });
  auto c = tile::dot(a, b);
  static_assert(std::is_same_v<decltype(c), tensor<float, 16, 16>>);
  for (int i = 0; i < 16; ++i)
    CHECK(c.data()[i * 16 + i] == product(a, b, i, i));
  // Selected and cast like other tiles; products of e5m2 are exact too.
  auto e5 = tile::cast<float8_e5m2>(
      tile::where(a.data()[0] < 0.0f ? c > 0.0f : c < 0.0f, c, -c));
  CHECK(float(e5.data()[0]) == float(float8_e5m2(std::fabs(c.data()[0]))));
}

TEST_CASE("8-bit floats round to nearest even and saturate") {
  using tile::float8_e4m3;
  using tile::float8_e5m2;
  // 1.0625 lies half way between 1 and 1.125 (e4m3): the even one wins.
  CHECK(float(float8_e4m3(1.0625)) == 1.0f);
  CHECK(float(float8_e4m3(1.1875)) == 1.25f);
  // Past the largest finite value, infinities included, saturates.
  CHECK(float(float8_e4m3(1e9)) == 448.0f);
  CHECK(float(float8_e4m3(-INFINITY)) == -448.0f);
  CHECK(float(float8_e5m2(INFINITY)) == 57344.0f);
  CHECK(std::isnan(float(float8_e4m3(NAN))));
  // Subnormals: 2^-9 is e4m3's smallest; half of it ties to zero.
  CHECK(float(float8_e4m3(0x1p-9)) == 0x1p-9f);
  CHECK(float(float8_e4m3(0x1p-10)) == 0.0f);
  CHECK(float(float8_e5m2(0x1p-16)) == 0x1p-16f);
  // Every finite encoding converts back to itself.
  for (int b = 0; b < 256; ++b) {
    float e4 = float8_e4m3::from_bits(std::uint8_t(b));
    float e5 = float8_e5m2::from_bits(std::uint8_t(b));
    if (!std::isnan(e4))
      CHECK(float8_e4m3(double(e4)).bits == b);
    if (std::isfinite(e5))
      CHECK(float8_e5m2(double(e5)).bits == b);
  }
  CHECK(std::isinf(float(float8_e5m2::from_bits(0x7c))));
}

TEST_CASE("float operands lose their low mantissa bits unless asked for ieee") {
  // 1 + 2^-12 needs 12 mantissa bits: TF32 (10 bits) keeps 1.
  auto a =
      filled<float, 16, 16>([](int k) { return k == 0 ? 1 + 0x1p-12f : 0; });
  auto b = filled<float, 16, 16>([](int k) { return k == 0 ? 1.0f : 0; });
  CHECK(tile::dot(a, b).data()[0] == 1.0f);
  CHECK(tile::dot(a, b, tile::input_precision::ieee).data()[0] == 1 + 0x1p-12f);
  CHECK(tile::dot(a, b, tile::input_precision::tf32x3).data()[0] ==
        1 + 0x1p-12f);
  // Truncated toward zero, as the tensor cores read TF32: even the value
  // just below 1 + 2^-10 drops to 1.
  const float below = std::nextafter(1 + 0x1p-10f, 0.0f);
  CHECK(tile::detail::truncate_to_tf32(below) == 1.0f);
  CHECK(tile::detail::truncate_to_tf32(-below) == -1.0f);
  CHECK(std::isnan(tile::detail::truncate_to_tf32(NAN)));
}

TEST_CASE("trans swaps the axes") {
  auto x = filled<int, 2, 4>([](int k) { return k; });
  auto t = tile::trans(x);
  static_assert(std::is_same_v<decltype(t), tensor<int, 4, 2>>);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      CHECK(t.data()[j * 2 + i] == x.data()[i * 4 + j]);
}
