// Unit tests for the emulation of reductions, scans, atomics and floordiv in
// tile/tile.hpp.

#include <tile/tile.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <vector>

using tile::bfloat16;
using tile::half;
using tile::reduce_op;
using tile::tensor;

namespace {

template <class T, int... D> std::vector<T> values(const tensor<T, D...> &t) {
  return std::vector<T>(t.data(), t.data() + t.numel);
}

/// A 2x4 tile holding 0..7 row-major.
tensor<int, 2, 4> iota_2x4() {
  tensor<int, 2, 4> t;
  for (int k = 0; k < t.numel; ++k)
    t.data()[k] = k;
  return t;
}

template <class T, int N> tensor<T, N> tile_of(const T (&v)[N]) {
  tensor<T, N> t;
  for (int i = 0; i < N; ++i)
    t.data()[i] = v[i];
  return t;
}

} // namespace

TEST_CASE("reduction shapes, keep_dims and negative axes") {
  auto x = iota_2x4();
  auto rows = tile::sum<1>(x);
  static_assert(std::is_same_v<decltype(rows), tensor<int, 2>>);
  CHECK(values(rows) == std::vector<int>{6, 22});

  auto cols = tile::sum<0>(x);
  static_assert(std::is_same_v<decltype(cols), tensor<int, 4>>);
  CHECK(values(cols) == std::vector<int>{4, 6, 8, 10});

  auto kept = tile::sum<-1, true>(x);
  static_assert(std::is_same_v<decltype(kept), tensor<int, 2, 1>>);
  CHECK(values(kept) == std::vector<int>{6, 22});
  static_assert(
      std::is_same_v<decltype(tile::sum<-2, true>(x)), tensor<int, 1, 4>>);

  // A 1-D tile reduced along its axis is a plain value, as is a whole tile.
  static_assert(std::is_same_v<decltype(tile::sum<0>(rows)), int>);
  static_assert(
      std::is_same_v<decltype(tile::sum<0, true>(rows)), tensor<int, 1>>);
  CHECK(tile::sum<0>(rows) == 28);
  CHECK(tile::sum(x) == 28);
  CHECK(tile::max(x) == 7);
  CHECK(tile::min(x) == 0);

  tensor<int, 2, 2, 4> cube;
  for (int k = 0; k < cube.numel; ++k)
    cube.data()[k] = k;
  auto middle = tile::max<1>(cube);
  static_assert(std::is_same_v<decltype(middle), tensor<int, 2, 4>>);
  CHECK(values(middle) == std::vector<int>{4, 5, 6, 7, 12, 13, 14, 15});
  CHECK(values(tile::min<-3>(cube)) ==
        std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("reduction result types widen narrow inputs") {
  static_assert(std::is_same_v<tile::reduce_result_t<reduce_op::sum, bool>,
                               std::int32_t>);
  static_assert(std::is_same_v<tile::reduce_result_t<reduce_op::sum, int8_t>,
                               std::int32_t>);
  static_assert(std::is_same_v<tile::reduce_result_t<reduce_op::sum, uint16_t>,
                               std::uint32_t>);
  static_assert(std::is_same_v<tile::reduce_result_t<reduce_op::sum, int64_t>,
                               std::int64_t>);
  static_assert(
      std::is_same_v<tile::reduce_result_t<reduce_op::sum, half>, float>);
  static_assert(
      std::is_same_v<tile::reduce_result_t<reduce_op::max, bfloat16>, float>);
  static_assert(std::is_same_v<tile::reduce_result_t<reduce_op::min, uint8_t>,
                               std::uint32_t>);
  static_assert(
      std::is_same_v<tile::reduce_result_t<reduce_op::max, double>, double>);
  static_assert(
      std::is_same_v<tile::reduce_result_t<reduce_op::xor_sum, int8_t>,
                     int8_t>);
  static_assert(std::is_same_v<tile::reduce_result_t<reduce_op::argmax, half>,
                               std::int32_t>);
  static_assert(
      std::is_same_v<tile::reduce_result_t<reduce_op::cumprod, int16_t>,
                     std::int32_t>);

  // int8 values whose sum overflows int8 add up exactly in int32.
  auto bytes = tile::full<64>(int8_t{100});
  auto total = tile::sum<0>(bytes);
  static_assert(std::is_same_v<decltype(total), std::int32_t>);
  CHECK(total == 6400);
  CHECK(tile::sum(tile::full<4, 8>(true)) == 32);

  // 2048 does not change by adding 1 in half; the float accumulator does.
  tensor<half, 4> h = tile::full<4>(half(2048.0f));
  h(1) = half(1.0f);
  h(2) = half(1.0f);
  auto hsum = tile::sum<0>(h);
  static_assert(std::is_same_v<decltype(hsum), float>);
  CHECK(hsum == 4098.0f);
  static_assert(std::is_same_v<decltype(tile::max<0>(h)), float>);
  CHECK(tile::max<0>(h) == 2048.0f);

  auto u = tile::full<8>(uint8_t{200});
  static_assert(std::is_same_v<decltype(tile::max<0>(u)), std::uint32_t>);
  CHECK(tile::sum<0>(u) == 1600u);

  // xor_sum keeps the type; signed integer sums wrap at 32 bits.
  tensor<int8_t, 4> xb = tile_of<int8_t, 4>({1, 2, 4, -128});
  static_assert(std::is_same_v<decltype(tile::xor_sum<0>(xb)), int8_t>);
  CHECK(tile::xor_sum<0>(xb) == int8_t(-121));
  CHECK(tile::sum(tile::full<2>(std::numeric_limits<int>::max())) == -2);
  static_assert(
      std::is_same_v<decltype(tile::xor_sum(tile::full<4>(true))), bool>);
  CHECK(tile::xor_sum(tile::full<2, 2>(true)) == false);
  CHECK(tile::xor_sum<1>(tile::full<2, 1>(true))(1) == true);
}

TEST_CASE("max and min ignore NaN") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto x = tile_of<float, 4>({1.0f, nan, 3.0f, -2.0f});
  CHECK(tile::max<0>(x) == 3.0f);
  CHECK(tile::min<0>(x) == -2.0f);
  CHECK(tile::argmax<0>(x) == 2);
  CHECK(tile::argmin<0>(x) == 3);
  CHECK(std::isnan(tile::max(tile::full<4>(nan))));
  CHECK(tile::argmax(tile::full<4>(nan)) == 0);
}

TEST_CASE("argmax and argmin pick the lowest index on ties") {
  auto x = tile_of<int, 8>({3, 9, 1, 9, 1, 9, 0, 0});
  auto am = tile::argmax<0>(x);
  static_assert(std::is_same_v<decltype(am), std::int32_t>);
  CHECK(am == 1);
  CHECK(tile::argmin<0>(x) == 6);

  tensor<float, 2, 4> m;
  float rows[8] = {5, 7, 7, 1, 2, 2, 0, 2};
  for (int k = 0; k < 8; ++k)
    m.data()[k] = rows[k];
  auto per_row = tile::argmax<1>(m);
  static_assert(std::is_same_v<decltype(per_row), tensor<std::int32_t, 2>>);
  CHECK(values(per_row) == std::vector<std::int32_t>{1, 0});
  CHECK(values(tile::argmin<0, true>(m)) ==
        std::vector<std::int32_t>{1, 1, 1, 0});
  // Without an axis the index is into the row-major flattening.
  CHECK(tile::argmax(m) == 1);
  CHECK(tile::argmin(m) == 6);
}

TEST_CASE("generic reduce with a lambda") {
  auto x = iota_2x4();
  auto product = tile::reduce<1>(x + 1, [](int a, int b) { return a * b; });
  CHECK(values(product) == std::vector<int>{24, 1680});

  // The result keeps the element type; the lambda's int converts back.
  auto bytes = tile::full<4>(int8_t{100});
  auto wrapped =
      tile::reduce<0>(bytes, [](int8_t a, int8_t b) { return a + b; });
  static_assert(std::is_same_v<decltype(wrapped), int8_t>);
  CHECK(wrapped == int8_t(400 - 512));

  // The fold runs in index order, so a non-commutative combine sees it.
  auto last = tile::reduce<0>(tile::arange<8>(), [](int, int b) { return b; });
  CHECK(last == 7);
  auto generic_max = tile::reduce<0, true>(
      x, [](auto a, auto b) { return tile::maximum(a, b); });
  static_assert(std::is_same_v<decltype(generic_max), tensor<int, 1, 4>>);
  CHECK(values(generic_max) == std::vector<int>{4, 5, 6, 7});
}

TEST_CASE("generic reduce over (value, index) pairs") {
  auto x = tile_of<float, 8>({2, 8, 1, 8, 3, -1, 5, 0});
  auto combine = [](float v1, int i1, float v2, int i2) {
    bool take_second = v2 > v1 || (v2 == v1 && i2 < i1);
    return std::tuple{take_second ? v2 : v1, take_second ? i2 : i1};
  };
  auto [v, i] = tile::reduce<0>(std::tuple{x, tile::arange<8>()}, combine);
  static_assert(std::is_same_v<decltype(v), float>);
  CHECK(v == 8.0f);
  CHECK(i == 1);

  tensor<float, 2, 4> m;
  for (int k = 0; k < 8; ++k)
    m.data()[k] = x.data()[k];
  auto index = tile::broadcast_to<2, 4>(tile::arange<4>());
  auto [mv, mi] = tile::reduce<1>(std::tuple{m, index}, combine);
  static_assert(std::is_same_v<decltype(mi), tensor<int, 2>>);
  CHECK(values(mv) == std::vector<float>{8, 5});
  CHECK(values(mi) == std::vector<int>{1, 2});
}

TEST_CASE("generic reduce of Welford triples") {
  // Chan et al.'s merge of (mean, m2, count); var = m2 / count.
  auto welford = [](float mean1, float m2_1, float n1, float mean2, float m2_2,
                    float n2) {
    float n = n1 + n2;
    float delta = mean2 - mean1;
    float w = n == 0 ? 0.0f : n2 / n;
    return std::tuple{mean1 + delta * w, m2_1 + m2_2 + delta * delta * n1 * w,
                      n};
  };
  float data[8] = {2, 4, 4, 4, 5, 5, 7, 9};
  tensor<float, 2, 8> x;
  for (int k = 0; k < 16; ++k)
    x.data()[k] = data[k % 8] + (k / 8) * 10.0f;
  auto [mean, m2, count] = tile::reduce<1>(
      std::tuple{x, tile::zeros<float, 2, 8>(), tile::full<2, 8>(1.0f)},
      welford);
  CHECK(values(mean) == std::vector<float>{5.0f, 15.0f});
  CHECK(m2(0) == doctest::Approx(32.0));
  CHECK(m2(1) == doctest::Approx(32.0));
  CHECK(values(count) == std::vector<float>{8.0f, 8.0f});
}

TEST_CASE("cumsum and cumprod along both axes, forward and reverse") {
  auto x = iota_2x4();
  CHECK(values(tile::cumsum<1>(x)) ==
        std::vector<int>{0, 1, 3, 6, 4, 9, 15, 22});
  CHECK(values(tile::cumsum<1, true>(x)) ==
        std::vector<int>{6, 6, 5, 3, 22, 18, 13, 7});
  CHECK(values(tile::cumsum<0>(x)) ==
        std::vector<int>{0, 1, 2, 3, 4, 6, 8, 10});
  CHECK(values(tile::cumsum<-2, true>(x)) ==
        std::vector<int>{4, 6, 8, 10, 4, 5, 6, 7});

  auto y = x + 1;
  CHECK(values(tile::cumprod<1>(y)) ==
        std::vector<int>{1, 2, 6, 24, 5, 30, 210, 1680});
  CHECK(values(tile::cumprod<-1, true>(y)) ==
        std::vector<int>{24, 24, 12, 4, 1680, 336, 56, 8});
  CHECK(values(tile::cumprod<0>(y)) ==
        std::vector<int>{1, 2, 3, 4, 5, 12, 21, 32});
  CHECK(values(tile::cumprod<0, true>(y)) ==
        std::vector<int>{5, 12, 21, 32, 5, 6, 7, 8});

  // Narrow types scan in the type of sum.
  auto ones = tile::cumsum<0>(tile::full<4>(true));
  static_assert(std::is_same_v<decltype(ones), tensor<std::int32_t, 4>>);
  CHECK(values(ones) == std::vector<std::int32_t>{1, 2, 3, 4});
  static_assert(
      std::is_same_v<decltype(tile::cumprod<0>(tile::full<4>(bfloat16(1.0f)))),
                     tensor<float, 4>>);
}

TEST_CASE("associative_scan") {
  auto x = tile_of<int, 8>({3, 1, 4, 1, 5, 9, 2, 6});
  auto running_max =
      tile::associative_scan<0>(x, [](int a, int b) { return a > b ? a : b; });
  CHECK(values(running_max) == std::vector<int>{3, 3, 4, 4, 5, 9, 9, 9});
  auto from_right = tile::associative_scan<0, true>(
      x, [](int a, int b) { return a > b ? a : b; });
  CHECK(values(from_right) == std::vector<int>{9, 9, 9, 9, 9, 9, 6, 6});

  // The first argument is the result so far, so "keep the first" broadcasts
  // the first element in scan order.
  auto first = [](int a, int) { return a; };
  CHECK(values(tile::associative_scan<0>(x, first)) == std::vector<int>(8, 3));
  CHECK(values(tile::associative_scan<0, true>(x, first)) ==
        std::vector<int>(8, 6));

  // Tuple form: x_i = a_i * x_{i-1} + b_i as a scan over (a, b) pairs.
  auto a = tile::full<4>(2.0f);
  auto b = tile::full<4>(1.0f);
  auto [ra, rb] = tile::associative_scan<0>(
      std::tuple{a, b}, [](float a1, float b1, float a2, float b2) {
        return std::tuple{a1 * a2, b1 * a2 + b2};
      });
  CHECK(values(rb) == std::vector<float>{1, 3, 7, 15});
  CHECK(values(ra) == std::vector<float>{2, 4, 8, 16});
}

TEST_CASE("atomics return old values and honour the mask") {
  std::vector<int> memory = {10, 20, 30, 40};
  auto ptrs = memory.data() + tile::arange<4>();
  auto mask = tile::arange<4>() != 2;
  auto old = tile::atomic_add(ptrs, 5, mask);
  static_assert(std::is_same_v<decltype(old), tensor<int, 4>>);
  CHECK(values(old) == std::vector<int>{10, 20, 0, 40});
  CHECK(memory == std::vector<int>{15, 25, 30, 45});

  // Duplicate addresses all take effect, in lane order.
  auto same = memory.data() + tile::zeros<int, 4>();
  CHECK(values(tile::atomic_add(same, tile::arange<4>())) ==
        std::vector<int>{15, 15, 16, 18});
  CHECK(memory[0] == 21);

  CHECK(values(tile::atomic_max(ptrs, 26)) == std::vector<int>{21, 25, 30, 45});
  CHECK(memory == std::vector<int>{26, 26, 30, 45});
  tile::atomic_min(ptrs, 27, true, tile::mem_order::relaxed,
                   tile::mem_scope::cta);
  CHECK(memory == std::vector<int>{26, 26, 27, 27});
  tile::atomic_and(ptrs, 0b11);
  tile::atomic_or(ptrs, 0b100);
  tile::atomic_xor(ptrs, 0b1);
  CHECK(memory == std::vector<int>{7, 7, 6, 6});
  CHECK(values(tile::atomic_xchg(ptrs, tile::arange<4>())) ==
        std::vector<int>{7, 7, 6, 6});
  CHECK(memory == std::vector<int>{0, 1, 2, 3});

  // Scalar pointers, and values converted to the pointee type.
  float f = 1.5f;
  auto f_old = tile::atomic_add(&f, 2);
  static_assert(std::is_same_v<decltype(f_old), float>);
  CHECK(f_old == 1.5f);
  CHECK(f == 3.5f);
  CHECK(tile::atomic_add(&f, 1.0f, false) == 0.0f);
  CHECK(f == 3.5f);

  half h = half(1.0f);
  tile::atomic_add(&h, 0.5f);
  CHECK(float(h) == 1.5f);
}

TEST_CASE("atomic_cas") {
  std::vector<int> memory = {0, 1, 0, 1};
  auto ptrs = memory.data() + tile::arange<4>();
  auto old = tile::atomic_cas(ptrs, 0, tile::full<4>(7));
  CHECK(values(old) == std::vector<int>{0, 1, 0, 1});
  CHECK(memory == std::vector<int>{7, 1, 7, 1});

  int lock = 0;
  CHECK(tile::atomic_cas(&lock, 0, 1) == 0);
  CHECK(tile::atomic_cas(&lock, 0, 1, tile::mem_order::acquire) == 1);
  CHECK(lock == 1);
  tile::debug_barrier();
  CHECK(tile::atomic_xchg(&lock, 0) == 1);
  CHECK(lock == 0);

  // Floats compare bit for bit.
  float z = -0.0f;
  tile::atomic_cas(&z, 0.0f, 1.0f);
  CHECK(std::signbit(z));
  tile::atomic_cas(&z, -0.0f, 1.0f);
  CHECK(z == 1.0f);
}

TEST_CASE("floordiv truncates toward zero") {
  auto a = tile_of<int, 4>({7, -7, 7, -7});
  auto b = tile_of<int, 4>({2, 2, -2, -2});
  auto q = tile::floordiv(a, b);
  static_assert(std::is_same_v<decltype(q), tensor<int, 4>>);
  CHECK(values(q) == std::vector<int>{3, -3, -3, 3});
  CHECK(values(tile::floordiv(a, 2)) == std::vector<int>{3, -3, 3, -3});
  CHECK(tile::floordiv(-7, 2) == -3);
  CHECK(tile::floordiv(std::numeric_limits<int>::min(), -1) ==
        std::numeric_limits<int>::min());
  static_assert(std::is_same_v<decltype(tile::floordiv(
                                   tile::full<2>(int8_t{-9}), int8_t{4})),
                               tensor<int8_t, 2>>);
  CHECK(tile::floordiv(tile::full<2>(uint32_t{9}), 4u)(0) == 2u);
}
