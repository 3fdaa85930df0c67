// Unit tests for the emulation side of tile/tile.hpp: the 16-bit float types,
// Triton's promotion rules and the semantics of each op when run on the CPU.

#include <tile/tile.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

using tile::bfloat16;
using tile::half;
using tile::tensor;

namespace {

std::uint16_t half_bits(double v) { return half(v).bits; }
std::uint16_t bf16_bits(float v) { return bfloat16(v).bits; }

template <class T, int... D> std::vector<T> values(const tensor<T, D...> &t) {
  return std::vector<T>(t.data(), t.data() + t.numel);
}

const float qnan = std::numeric_limits<float>::quiet_NaN();

} // namespace

TEST_CASE("half rounds to nearest even") {
  CHECK(half_bits(1.0) == 0x3c00);
  CHECK(half_bits(-2.0) == 0xc000);
  CHECK(half_bits(-0.0) == 0x8000);
  // Ties between neighbours 2^-10 apart go to the even mantissa.
  CHECK(half_bits(1.0 + std::ldexp(1.0, -11)) == 0x3c00);
  CHECK(half_bits(1.0 + 3 * std::ldexp(1.0, -11)) == 0x3c02);
  CHECK(half_bits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -20)) == 0x3c01);
  // Rounding a double through float first would land on the tie and round
  // down; the direct conversion sees the value is above it.
  CHECK(half_bits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)) == 0x3c01);
  CHECK(half(2049).bits == half_bits(2048.0));
  CHECK(half(2051).bits == half_bits(2052.0));
  CHECK(half(-7).bits == half_bits(-7.0));
}

TEST_CASE("half subnormals, overflow and NaN") {
  CHECK(half_bits(std::ldexp(1.0, -24)) == 0x0001);
  CHECK(half_bits(std::ldexp(1.0, -25)) == 0x0000); // tie with 0
  CHECK(half_bits(3 * std::ldexp(1.0, -25)) == 0x0002);
  CHECK(half_bits(std::ldexp(1.0, -26)) == 0x0000);
  CHECK(half_bits(-std::ldexp(1.0, -30)) == 0x8000);
  // The largest subnormal plus half an ulp carries into the smallest normal.
  CHECK(half_bits(std::ldexp(1.0, -14) - std::ldexp(1.0, -25)) == 0x0400);
  CHECK(float(half::from_bits(0x0001)) == std::ldexp(1.0f, -24));
  CHECK(float(half::from_bits(0x03ff)) == std::ldexp(1023.0f, -24));

  CHECK(half_bits(65504.0) == 0x7bff);
  CHECK(half_bits(65519.0) == 0x7bff);
  CHECK(half_bits(65520.0) == 0x7c00); // tie with 2^16 goes to even: inf
  CHECK(half_bits(1e6) == 0x7c00);
  CHECK(half_bits(-1e6) == 0xfc00);
  CHECK(half(std::int64_t{1} << 40).bits == 0x7c00);
  CHECK(std::isinf(float(half::from_bits(0x7c00))));
  CHECK(float(half::from_bits(0x7bff)) == 65504.0f);

  half n = qnan;
  CHECK((n.bits & 0x7c00) == 0x7c00);
  CHECK((n.bits & 0x03ff) != 0);
  CHECK(std::isnan(float(n)));
}

TEST_CASE("bfloat16 conversions") {
  CHECK(bf16_bits(1.0f) == 0x3f80);
  CHECK(bf16_bits(-0.0f) == 0x8000);
  CHECK(bf16_bits(1.0f + std::ldexp(1.0f, -8)) == 0x3f80); // tie, even
  CHECK(bf16_bits(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);
  CHECK(bf16_bits(std::numeric_limits<float>::max()) == 0x7f80);
  CHECK(bf16_bits(std::ldexp(1.0f, -133)) == 0x0001);
  CHECK(bf16_bits(std::ldexp(1.0f, -134)) == 0x0000);
  CHECK(bf16_bits(qnan) == 0x7fc0);
  CHECK(bfloat16((std::int64_t{1} << 40) + 1).bits == bf16_bits(0x1p40f));
  CHECK(float(bfloat16::from_bits(0x7f7f)) == 0x1.fep127f);
  CHECK(float(bfloat16::from_bits(0x0001)) == std::ldexp(1.0f, -133));
}

TEST_CASE("16-bit host arithmetic goes through float") {
  half a = 1.5f;
  half b = a * 2 + half(0.25f);
  CHECK(float(b) == 3.25f);
  static_assert(std::is_same_v<decltype(a * 2), half>);
  static_assert(std::is_same_v<decltype(a * 2.0f), float>);
  static_assert(std::is_same_v<decltype(a + 1.0), double>);
  static_assert(std::is_same_v<decltype(a + bfloat16(1.0f)), float>);
  CHECK((-a).bits == 0xbe00);
  a += 1;
  CHECK(float(a) == 2.5f);
  CHECK(a > 2.0f);
}

// Inventory section 2.2, steps 1-6.
static_assert(
    std::is_same_v<tile::promote_t<std::int8_t, std::int8_t>, std::int8_t>);
static_assert(
    std::is_same_v<tile::promote_t<std::int8_t, std::uint8_t>, std::uint8_t>);
static_assert(
    std::is_same_v<tile::promote_t<std::int16_t, std::uint8_t>, std::int16_t>);
static_assert(std::is_same_v<tile::promote_t<std::int32_t, std::uint64_t>,
                             std::uint64_t>);
static_assert(
    std::is_same_v<tile::promote_t<std::uint32_t, std::int64_t>, std::int64_t>);
static_assert(std::is_same_v<tile::promote_t<std::int32_t, std::uint32_t>,
                             std::uint32_t>);
static_assert(
    std::is_same_v<tile::promote_t<std::int16_t, std::int64_t>, std::int64_t>);
static_assert(std::is_same_v<tile::promote_t<bool, bool>, bool>);
static_assert(
    std::is_same_v<tile::promote_t<bool, std::int16_t>, std::int16_t>);
static_assert(
    std::is_same_v<tile::promote_t<std::uint8_t, bool>, std::uint8_t>);
static_assert(std::is_same_v<tile::promote_t<half, bfloat16>, half>);
static_assert(std::is_same_v<tile::promote_t<std::int32_t, half>, half>);
static_assert(std::is_same_v<tile::promote_t<half, float>, float>);
static_assert(std::is_same_v<tile::promote_t<bfloat16, bfloat16>, bfloat16>);
static_assert(std::is_same_v<tile::promote_t<bfloat16, std::int8_t>, float>);
static_assert(std::is_same_v<tile::promote_t<bool, bfloat16>, float>);
static_assert(std::is_same_v<tile::promote_t<float, double>, double>);
static_assert(std::is_same_v<tile::promote_t<std::int64_t, float>, float>);
static_assert(std::is_same_v<tile::promote_t<double, bool>, double>);

// Step 0: a C++ scalar only counts when its kind is above the tile's.
static_assert(std::is_same_v<tile::weak_promote_t<half, float>, half>);
static_assert(std::is_same_v<tile::weak_promote_t<bfloat16, double>, bfloat16>);
static_assert(std::is_same_v<tile::weak_promote_t<float, double>, float>);
static_assert(
    std::is_same_v<tile::weak_promote_t<std::int8_t, int>, std::int8_t>);
static_assert(
    std::is_same_v<tile::weak_promote_t<std::int64_t, int>, std::int64_t>);
static_assert(std::is_same_v<tile::weak_promote_t<std::int8_t, double>, float>);
static_assert(std::is_same_v<tile::weak_promote_t<std::int32_t, half>, float>);
static_assert(std::is_same_v<tile::weak_promote_t<std::uint8_t, int>, int>);
static_assert(
    std::is_same_v<tile::weak_promote_t<std::uint32_t, int>, std::uint32_t>);
static_assert(std::is_same_v<tile::weak_promote_t<bool, int>, int>);
static_assert(std::is_same_v<tile::weak_promote_t<bool, unsigned>, unsigned>);
static_assert(
    std::is_same_v<tile::weak_promote_t<std::uint16_t, bool>, std::uint16_t>);

static_assert(std::is_same_v<tile::div_result_t<int, int>, float>);
static_assert(
    std::is_same_v<tile::div_result_t<std::int64_t, std::int8_t>, float>);
static_assert(std::is_same_v<tile::div_result_t<half, half>, float>);
static_assert(std::is_same_v<tile::div_result_t<bfloat16, bfloat16>, float>);
static_assert(std::is_same_v<tile::div_result_t<double, int>, double>);
static_assert(std::is_same_v<tile::div_result_t<float, half>, float>);

TEST_CASE("erfinv inverts erf") {
  // Values from the series of erfinv, to double precision.
  CHECK(tile::erfinv(0.5) ==
        doctest::Approx(0.4769362762044699).epsilon(1e-15));
  CHECK(tile::erfinv(-0.9) ==
        doctest::Approx(-1.1630871536766743).epsilon(1e-15));
  CHECK(tile::erfinv(0.0) == 0.0);
  CHECK(std::isinf(tile::erfinv(1.0)));
  CHECK(tile::erfinv(-1.0f) < 0);
  CHECK(std::isnan(tile::erfinv(1.5f)));
  CHECK(std::isnan(tile::erfinv(std::nan(""))));
  for (double y = -0.999999; y < 1; y += 0.0123457)
    CHECK(std::erf(tile::erfinv(y)) == doctest::Approx(y).epsilon(1e-15));
  for (float y : {1e-30f, 0.3f, 0.99999f})
    CHECK(std::erf(double(tile::erfinv(y))) ==
          doctest::Approx(y).epsilon(1e-7));
}

TEST_CASE("operators use the promotion rules") {
  tensor<std::int8_t, 4> i8{};
  tensor<std::uint8_t, 4> u8{};
  tensor<half, 4> f16{};
  static_assert(std::is_same_v<decltype(i8 + u8), tensor<std::uint8_t, 4>>);
  static_assert(std::is_same_v<decltype(i8 + 5), tensor<std::int8_t, 4>>);
  static_assert(std::is_same_v<decltype(5 + i8), tensor<std::int8_t, 4>>);
  static_assert(std::is_same_v<decltype(i8 + 2.5), tensor<float, 4>>);
  static_assert(std::is_same_v<decltype(f16 * 2.0f), tensor<half, 4>>);
  static_assert(std::is_same_v<decltype(f16 / 2.0f), tensor<float, 4>>);
  static_assert(std::is_same_v<decltype(f16 % f16), tensor<float, 4>>);
  static_assert(std::is_same_v<decltype(i8 / i8), tensor<float, 4>>);
  static_assert(std::is_same_v<decltype(i8 % i8), tensor<std::int8_t, 4>>);
  static_assert(std::is_same_v<decltype(i8 < u8), tensor<bool, 4>>);
  static_assert(std::is_same_v<decltype(i8 << 2), tensor<std::int8_t, 4>>);
  // A 64-bit integer scalar is strong with an integer tile, weak with a
  // float tile.
  tensor<std::int32_t, 4> i32{};
  static_assert(
      std::is_same_v<decltype(i32 + std::int64_t(5)), tensor<std::int64_t, 4>>);
  static_assert(
      std::is_same_v<decltype(std::int64_t(5) * i8), tensor<std::int64_t, 4>>);
  static_assert(
      std::is_same_v<decltype(i32 < std::size_t(5)), tensor<bool, 4>>);
  static_assert(
      std::is_same_v<decltype(i32 + std::size_t(5)), tensor<std::uint64_t, 4>>);
  static_assert(
      std::is_same_v<decltype(f16 * std::int64_t(2)), tensor<half, 4>>);

  auto h = tile::full<4>(half(1.5f)) * 2.0f;
  CHECK(float(h(0)) == 3.0f);
  auto q = tile::full<4>(half(1.0f)) / 3;
  CHECK(q(1) == doctest::Approx(1.0f / 3.0f));
}

TEST_CASE("creation and shapes") {
  auto r = tile::arange<8>();
  static_assert(std::is_same_v<decltype(r), tensor<int, 8>>);
  CHECK(values(r) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  auto s = tile::arange<4, 12>();
  static_assert(decltype(s)::shape == std::array<int, 1>{8});
  CHECK(s(0) == 4);
  CHECK(s(7) == 11);

  auto f = tile::full<2, 4>(1.5f);
  static_assert(decltype(f)::rank == 2 && decltype(f)::numel == 8);
  static_assert(std::is_same_v<decltype(f)::element_type, float>);
  CHECK(f(1, 3) == 1.5f);
  auto z = tile::zeros<half, 2, 2>();
  CHECK(z(1, 1).bits == 0);

  auto row = tile::expand_dims<0>(tile::arange<4>());
  auto col = tile::expand_dims<-1>(tile::arange<2>());
  static_assert(std::is_same_v<decltype(row), tensor<int, 1, 4>>);
  static_assert(std::is_same_v<decltype(col), tensor<int, 2, 1>>);
  static_assert(std::is_same_v<decltype(tile::expand_dims<1>(f)),
                               tensor<float, 2, 1, 4>>);
  static_assert(
      std::is_same_v<decltype(tile::expand_dims<0>(3)), tensor<int, 1>>);

  auto grid = col * 10 + row;
  static_assert(std::is_same_v<decltype(grid), tensor<int, 2, 4>>);
  CHECK(grid(0, 3) == 3);
  CHECK(grid(1, 2) == 12);

  // Rank extension on the left: (4) broadcasts against (2, 4).
  auto sum = grid + tile::arange<4>();
  CHECK(sum(1, 3) == 16);

  auto b = tile::broadcast_to<2, 4>(row);
  CHECK(b(1, 3) == 3);
  auto c = tile::broadcast_to<2, 2>(7);
  CHECK(c(1, 0) == 7);
}

TEST_CASE("split of a tile of 2 gives its scalars, in order") {
  auto [lo, hi] = tile::split(tile::arange<5, 7>());
  static_assert(std::is_same_v<decltype(lo), int>);
  CHECK(lo == 5);
  CHECK(hi == 6);
  auto [a, b] = tile::split(tile::join(2.5f, -1.0f));
  CHECK(a == 2.5f);
  CHECK(b == -1.0f);
}

TEST_CASE("masked load never touches masked-off lanes") {
  constexpr int n = 5;
  auto buffer = std::make_unique<float[]>(n);
  for (int i = 0; i < n; ++i)
    buffer[i] = float(i) + 0.5f;
  const float *base = buffer.get();
  auto offs = tile::arange<8>();
  auto x = tile::load(base + offs, offs < n, -1.0f);
  CHECK(values(x) ==
        std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f, 4.5f, -1, -1, -1});
  auto zero_other = tile::load(base + offs, offs < n);
  CHECK(zero_other(7) == 0.0f);

  // Every lane of this tile points at unmapped memory.
  auto wild =
      tile::full<4>(static_cast<const float *>(nullptr)) + tile::arange<4>();
  auto none = tile::load(wild, false, 7);
  CHECK(values(none) == std::vector<float>{7, 7, 7, 7});

  // A (2, 1) mask broadcasts against (1, 4) pointers to a (2, 4) result.
  auto rows = tile::expand_dims<0>(base + tile::arange<4>());
  auto mask = tile::expand_dims<1>(tile::arange<2>()) == 0;
  auto y = tile::load(rows, mask);
  static_assert(std::is_same_v<decltype(y), tensor<float, 2, 4>>);
  CHECK(y(0, 3) == 3.5f);
  CHECK(y(1, 3) == 0.0f);

  CHECK(tile::load(base + 2) == 2.5f);
  CHECK(tile::load(base + 99, false, 1.0f) == 1.0f);
}

TEST_CASE("store writes only where the mask holds") {
  std::vector<int> out(8, 0);
  auto offs = tile::arange<8>();
  tile::store(out.data() + offs, offs * 10, offs % 2 == 0);
  CHECK(out == std::vector<int>{0, 0, 20, 0, 40, 0, 60, 0});

  tile::store(out.data() + offs, 1, false);
  CHECK(out[0] == 0);

  // The value is cast to the pointee type and broadcast to the pointers.
  std::vector<std::int8_t> small(8, 0);
  tile::store(small.data() + offs, 2.9f);
  CHECK(small[5] == 2);

  int scalar = 0;
  tile::store(&scalar, 3.7);
  CHECK(scalar == 3);
  tile::store(&scalar, 9, false);
  CHECK(scalar == 3);
}

TEST_CASE("pointer arithmetic") {
  float buffer[8] = {};
  auto p = buffer + tile::arange<4>();
  CHECK(p(3) == buffer + 3);
  auto q = p + 2;
  CHECK(q(0) == buffer + 2);
  q -= 1;
  CHECK(q(0) == buffer + 1);
  auto r = tile::arange<4>() + buffer;
  CHECK(r(2) == buffer + 2);
  auto s = (buffer + 7) - tile::arange<4>();
  CHECK(s(3) == buffer + 4);
  // Unsigned offsets zero-extend.
  auto u = buffer + tile::full<2>(std::uint8_t{200});
  CHECK(u(0) == buffer + 200);
  static_assert(std::is_same_v<decltype(p), tensor<float *, 4>>);
}

TEST_CASE("where, maximum and minimum") {
  auto offs = tile::arange<4>();
  auto w = tile::where(offs < 2, offs, 100);
  CHECK(values(w) == std::vector<int>{0, 1, 100, 100});
  auto halves = tile::where(offs < 2, tile::full<4>(half(1.0f)), 0.5);
  static_assert(std::is_same_v<decltype(halves), tensor<half, 4>>);

  auto x = tile::full<2>(qnan);
  x(1) = 3.0f;
  auto one = tile::full<2>(1.0f);
  auto mx = tile::maximum(x, one);
  CHECK(mx(0) == 1.0f); // a NaN operand is ignored
  CHECK(mx(1) == 3.0f);
  CHECK(tile::maximum(one, x)(0) == 1.0f);
  CHECK(tile::minimum(x, one)(0) == 1.0f);
  CHECK(tile::minimum(x, one)(1) == 1.0f);
  CHECK(std::isnan(tile::maximum(x, qnan)(0)));
  CHECK(tile::maximum(tile::full<2>(-3), 2u)(0) == 2); // weak: int
  CHECK(tile::maximum(tile::full<2>(-3), tile::full<2>(2u))(0) == 4294967293u);
  auto c = tile::clamp(x, -1.0f, 2.0f);
  CHECK(c(0) == -1.0f);
  CHECK(c(1) == 2.0f);
}

TEST_CASE("comparisons and logical operators") {
  auto x = tile::full<2>(qnan);
  CHECK((x != x)(0));
  CHECK_FALSE((x == x)(0));
  CHECK_FALSE((x < 1.0f)(0));
  CHECK_FALSE((x >= 1.0f)(0));

  auto offs = tile::arange<4>();
  auto m = (offs > 0 && offs < 3) || offs == 3;
  CHECK(values(m) == std::vector<bool>{false, true, true, true});
  CHECK(values(!m) == std::vector<bool>{true, false, false, false});
}

TEST_CASE("casts") {
  tensor<float, 4> f;
  f(0) = -2.7f;
  f(1) = -0.5f;
  f(2) = 0.5f;
  f(3) = 2.7f;
  CHECK(values(tile::cast<int>(f)) == std::vector<int>{-2, 0, 0, 2});

  tensor<float, 4> g;
  g(0) = 0.0f;
  g(1) = 0.1f;
  g(2) = -0.0f;
  g(3) = qnan;
  CHECK(values(tile::cast<bool>(g)) ==
        std::vector<bool>{false, true, false, true});

  CHECK(tile::cast<std::int8_t>(300) == 44);
  CHECK(tile::cast<std::uint8_t>(-1) == 255);
  CHECK(tile::cast<int>(1e10f) == std::numeric_limits<int>::max());
  CHECK(tile::cast<int>(qnan) == 0);
  CHECK(tile::cast<half>(1.0f + std::ldexp(1.0f, -11)).bits == 0x3c00);
  CHECK(tile::cast<bfloat16>(half(1.5f)).bits == 0x3fc0);
  CHECK(tile::cast<int>(half(-3.75f)) == -3);
  CHECK(tile::cast<float>(tile::arange<4>())(3) == 3.0f);
}

TEST_CASE("integer arithmetic wraps in the element type") {
  auto a = tile::full<2>(std::int8_t{100});
  auto sum = a + a;
  static_assert(std::is_same_v<decltype(sum), tensor<std::int8_t, 2>>);
  CHECK(sum(0) == -56);
  CHECK((a * a)(0) == 16);
  CHECK((a + 100)(0) == -56);
  CHECK((-tile::full<1>(std::int8_t{-128}))(0) == -128);
  CHECK((tile::full<1>(std::uint8_t{0}) - std::uint8_t{1})(0) == 255);
  // A signed scalar is of a higher kind than an unsigned tile, so it widens.
  CHECK((tile::full<1>(std::uint8_t{0}) - 1)(0) == -1);
  CHECK((tile::full<1>(std::numeric_limits<int>::max()) + 1)(0) ==
        std::numeric_limits<int>::min());

  // Shifts: arithmetic for signed, logical for unsigned.
  CHECK((tile::full<1>(std::int8_t{-16}) >> 2)(0) == -4);
  CHECK((tile::full<1>(std::uint8_t{240}) >> 2)(0) == 60);
  CHECK((tile::full<1>(std::uint8_t{240}) << std::uint8_t{1})(0) == 224);
  CHECK((tile::full<1>(1) << 40)(0) == 0);

  CHECK((~tile::full<1>(std::uint8_t{0x0f}))(0) == 0xf0);
  CHECK((tile::full<1>(0x0c) & 0x0a)(0) == 0x08);
  CHECK((tile::full<1>(0x0c) | 0x0a)(0) == 0x0e);
  CHECK((tile::full<1>(0x0c) ^ 0x0a)(0) == 0x06);
}

TEST_CASE("division and remainder") {
  auto seven = tile::full<1>(7);
  CHECK((seven / 2)(0) == 3.5f);
  CHECK((seven % -2)(0) == 1);
  CHECK((-seven % 2)(0) == -1);
  CHECK((tile::full<1>(-7.5f) % 2.0f)(0) == -1.5f);
  CHECK((tile::full<1>(std::numeric_limits<int>::min()) % -1)(0) == 0);
}

TEST_CASE("math functions") {
  auto x = tile::full<2>(1.0f);
  CHECK(tile::exp(x)(0) == doctest::Approx(std::exp(1.0f)));
  CHECK(tile::sigmoid(0.0f) == 0.5f);
  CHECK(tile::rsqrt(4.0) == 0.5);
  CHECK(tile::erf(x)(1) == doctest::Approx(std::erf(1.0f)));
  CHECK(tile::floor(-1.5f) == -2.0f);
  CHECK(tile::fma(x, 2.0f, 3.0f)(0) == 5.0f);
  CHECK(tile::abs(tile::full<1>(std::numeric_limits<int>::min()))(0) ==
        std::numeric_limits<int>::min());
  CHECK(tile::abs(half(-2.0f)).bits == 0x4000);
  CHECK(tile::abs(-3) == 3);
}

TEST_CASE("compound assignment keeps the tile") {
  auto acc = tile::zeros<float, 2, 4>();
  acc += tile::expand_dims<0>(tile::cast<float>(tile::arange<4>()));
  acc *= 2;
  CHECK(acc(1, 3) == 6.0f);
  auto bits = tile::arange<4>();
  bits <<= 1;
  bits |= 1;
  CHECK(bits(3) == 7);
}

namespace {

template <int BLOCK>
TILE_KERNEL void vector_add(const float *x, const float *y, float *out, int n) {
  int pid = tile::program_id(0);
  auto offs = pid * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto a = tile::load(x + offs, mask);
  auto b = tile::load(y + offs, mask);
  tile::store(out + offs, a + b, mask);
}

template <int BLOCK>
TILE_GRID(vector_add)
tile::grid vector_add_grid(const float *, const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

void record_ids(int *out) {
  int x = tile::program_id(0), y = tile::program_id(1), z = tile::program_id(2);
  int slot = (z * tile::num_programs(1) + y) * tile::num_programs(0) + x;
  out[slot] = x + 10 * y + 100 * z;
}

} // namespace

TILE_CONFIGS(vector_add, tile::config{.meta = {128}, .num_warps = 4},
             tile::config{.meta = {1024}, .num_warps = 8});

TEST_CASE("emulated vector add over a ragged size") {
  static_assert(vector_add_tile_configs[1].meta[0] == 1024);
  static_assert(vector_add_tile_configs[0].num_stages == 1);
  const int n = 1000; // not a multiple of the block
  std::vector<float> x(n), y(n), out(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 2.0f * float(i);
  }
  tile::grid g = vector_add_grid<128>(x.data(), y.data(), out.data(), n);
  CHECK(g.x == 8);
  tile::emulate::launch(g, vector_add<128>, x.data(), y.data(), out.data(), n);
  for (int i = 0; i < n; ++i)
    REQUIRE(out[i] == 3.0f * float(i));
}

namespace {
template <int BLOCK>
TILE_KERNEL void add_one_at(const std::int8_t *x, std::int8_t *y,
                            std::int64_t base, std::int64_t n) {
  std::int64_t start = base + std::int64_t(tile::program_id(0)) * BLOCK;
  auto i = start + tile::arange<BLOCK>();
  auto mask = i < n;
  tile::store(y + i, tile::load(x + i, mask) + 1, mask);
}
} // namespace

TEST_CASE("64-bit offsets past 2^31 reach their elements") {
  // Three gigabytes of address space; only the pages around the window are
  // touched.
  constexpr std::int64_t Size = std::int64_t(3) << 30;
  const std::int64_t Base = (std::int64_t(1) << 31) + 12345, N = Base + 3000;
  std::unique_ptr<std::int8_t[]> X(new std::int8_t[Size]);
  std::unique_ptr<std::int8_t[]> Y(new std::int8_t[Size]);
  for (std::int64_t I = Base - 64; I < N + 64; ++I) {
    X[I] = std::int8_t(I * 7);
    Y[I] = -1;
  }
  tile::emulate::launch(tile::grid{3}, add_one_at<1024>, X.get(), Y.get(), Base,
                        N);
  for (std::int64_t I = Base - 64; I < N + 64; ++I)
    CHECK(Y[I] == (I >= Base && I < N ? std::int8_t(I * 7 + 1) : -1));
}

TEST_CASE("launch walks the whole grid, x fastest") {
  std::vector<int> ids(3 * 2 * 2, -1);
  tile::emulate::launch(tile::grid{3, 2, 2}, record_ids, ids.data());
  CHECK(ids[0] == 0);
  CHECK(ids[2] == 2);
  CHECK(ids[3] == 10);
  CHECK(ids[11] == 112);
  CHECK(tile::num_programs(0) == 1); // restored after the launch
  CHECK(tile::cdiv(10, 4) == 3);
}

TEST_CASE("swizzle2d orders programs in groups of rows, column by column") {
  // 5 x 3 programs in groups of 2 rows: the last group has one row.
  const int rows = 5, cols = 3, group = 2;
  std::vector<int> seen(rows * cols, 0);
  int pid = 0;
  // The order the grouping asks for: group by group, then column by column,
  // then row by row within the group.
  for (int first = 0; first < rows; first += group)
    for (int c = 0; c < cols; ++c)
      for (int r = first; r < std::min(first + group, rows); ++r, ++pid) {
        auto [i, j] =
            tile::swizzle2d(pid / cols, pid % cols, rows, cols, group);
        CHECK(i == r);
        CHECK(j == c);
        ++seen[i * cols + j];
      }
  for (int n : seen)
    CHECK(n == 1);
}
