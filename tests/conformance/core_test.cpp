// The conformance suite's cases (docs/conformance.md), each against a
// reference written here in plain C++: in emulation when built alone, on
// the GPU when built with CONFORMANCE_GPU and the kernels' launch wrappers.
#ifdef CONFORMANCE_GPU
#include "core.tile.h"
#else
#include "core.tile.cpp"
#endif
#include "harness.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <random>

using conformance::Buffer;
using conformance::Descriptor;

namespace {

std::mt19937 Rng(48);

/// Case 1: x + y over 98432 elements in blocks of 1024, bit for bit.
void vecAddTail() {
  constexpr int N = 98432;
  std::uniform_real_distribution<float> U(-10, 10);
  std::vector<float> X(N), Y(N), Want(N);
  for (int I = 0; I < N; ++I) {
    X[I] = U(Rng);
    Y[I] = U(Rng);
    Want[I] = X[I] + Y[I];
  }
  Buffer<float> BX(X), BY(Y), Out(N);
  CONFORMANCE_RUN(vec_add, 1024, BX, BY, Out, N);
  conformance::expectExact("vec_add_tail", "float32", Out.values(), Want);
}

/// A value from its bits: the edge values of the 16-bit float types, which
/// std::numeric_limits does not describe.
template <class T> T fromBits(std::uint64_t Bits) {
  T V;
  std::memcpy(&V, &Bits, sizeof(T));
  return V;
}

/// NaN, +-inf, -0, the smallest subnormal and the largest finite value.
template <class T> std::vector<T> floatEdges() {
  if constexpr (std::is_same_v<T, tile::half>)
    return {fromBits<T>(0x7e00), fromBits<T>(0x7c00), fromBits<T>(0xfc00),
            fromBits<T>(0x8000), fromBits<T>(0x0001), fromBits<T>(0x7bff)};
  else if constexpr (std::is_same_v<T, tile::bfloat16>)
    return {fromBits<T>(0x7fc0), fromBits<T>(0x7f80), fromBits<T>(0xff80),
            fromBits<T>(0x8000), fromBits<T>(0x0001), fromBits<T>(0x7f7f)};
  else {
    using L = std::numeric_limits<T>;
    return {L::quiet_NaN(), L::infinity(),   -L::infinity(),
            T(-0.0),        L::denorm_min(), L::max()};
  }
}

/// Case 2's 128 operands of type T: edge values, then random ones. Beside
/// another integer type an integer takes any bits (wrapping is the point);
/// beside a float type it is small, and floats are quarters below 64, exact
/// in every float type. A divisor is never 0, nor -1 (INT_MIN / -1).
template <class T>
std::vector<T> binopOperands(bool BesideFloat, bool Divisor) {
  constexpr std::size_t N = 128;
  std::vector<T> V;
  if constexpr (std::is_integral_v<T>) {
    using L = std::numeric_limits<T>;
    auto Usable = [&](T X) {
      return !Divisor || (X != T(0) && !(std::is_signed_v<T> && X == T(-1)));
    };
    for (T X : {L::min(), L::max(), T(1), T(0), T(-1), T(7)})
      if (!BesideFloat && Usable(X))
        V.push_back(X);
    std::uniform_int_distribution<std::uint64_t> Bits;
    std::uniform_int_distribution<int> Small(std::is_signed_v<T> ? -100 : 0,
                                             std::is_signed_v<T> ? 100 : 200);
    while (V.size() < N) {
      const T X =
          BesideFloat ? static_cast<T>(Small(Rng)) : static_cast<T>(Bits(Rng));
      if (Usable(X))
        V.push_back(X);
    }
  } else {
    V = floatEdges<T>();
    std::uniform_int_distribution<int> Quarters(-255, 255);
    while (V.size() < N)
      if (const int K = Quarters(Rng); K != 0 || !Divisor)
        V.push_back(static_cast<T>(float(K) / 4));
  }
  return V;
}

/// X's value converted to P as Triton converts operands (integers by
/// sign or zero extension and truncation; to floats rounding to nearest).
template <class P, class X> P as(X V) {
  if constexpr (std::is_integral_v<P> && std::is_integral_v<X>)
    return static_cast<P>(V);
  else if constexpr (std::is_arithmetic_v<P>)
    return static_cast<P>(conformance::asDouble(V));
  else
    return P(static_cast<float>(conformance::asDouble(V)));
}

enum class Arith { Add, Sub, Mul };

/// a op b in P: integers wrap at P's width; float and double round once;
/// the 16-bit types are exact in double for these operands, then round
/// (by way of float, exact too) to P.
template <class P> P arith(Arith Op, P A, P B) {
  auto Apply = [Op](auto X, auto Y) {
    return Op == Arith::Add ? X + Y : Op == Arith::Sub ? X - Y : X * Y;
  };
  if constexpr (std::is_integral_v<P>)
    return static_cast<P>(
        Apply(static_cast<std::uint64_t>(A), static_cast<std::uint64_t>(B)));
  else if constexpr (std::is_arithmetic_v<P>)
    return Apply(A, B);
  else
    return P(static_cast<float>(
        Apply(conformance::asDouble(A), conformance::asDouble(B))));
}

/// Case 2: x + y, x - y, x * y, x / y, x % y and floordiv(x, y) of 128
/// pairs, and x plus the scalar y[0], in the types binop_pairs.def gives.
/// Integer results are exact; / divides floats in float (fp32's approximate
/// division on CUDA, within 2 ulp), % is C's fmod or remainder.
template <class X, class Y, class P, class Q, class R, class W, bool Divides,
          class Launch>
void binopPair(const char *Types, Launch Run) {
  constexpr bool Floats = !std::is_integral_v<X> || !std::is_integral_v<Y>;
  const std::vector<X> A = binopOperands<X>(Floats, false);
  const std::vector<Y> B = binopOperands<Y>(Floats, Divides);
  const std::size_t N = A.size();
  std::vector<P> Sum(N), Diff(N), Prod(N), Trunc(N);
  std::vector<Q> Quot(N);
  std::vector<R> Rem(N);
  std::vector<W> Weak(N);
  for (std::size_t I = 0; I < N; ++I) {
    const P PA = as<P>(A[I]), PB = as<P>(B[I]);
    Sum[I] = arith(Arith::Add, PA, PB);
    Diff[I] = arith(Arith::Sub, PA, PB);
    Prod[I] = arith(Arith::Mul, PA, PB);
    Weak[I] = arith(Arith::Add, as<W>(A[I]), as<W>(B[0]));
    if constexpr (Divides) {
      Quot[I] = as<Q>(A[I]) / as<Q>(B[I]);
      if constexpr (std::is_integral_v<R>) {
        Rem[I] = static_cast<R>(PA % PB);
        Trunc[I] = static_cast<P>(PA / PB);
      } else {
        Rem[I] = std::fmod(as<R>(A[I]), as<R>(B[I]));
      }
    }
  }
  Buffer<X> BA(A);
  Buffer<Y> BB(B);
  Buffer<P> GotSum(N), GotDiff(N), GotProd(N), GotTrunc(N);
  Buffer<Q> GotQuot(N);
  Buffer<R> GotRem(N);
  Buffer<W> GotWeak(N);
  Run(BA, BB, GotSum, GotDiff, GotProd, GotQuot, GotRem, GotTrunc, GotWeak);
  conformance::Row Row("binop_promotion_matrix", Types);
  Row.exact(GotSum.values(), Sum, "x+y")
      .exact(GotDiff.values(), Diff, "x-y")
      .exact(GotProd.values(), Prod, "x*y")
      .exact(GotWeak.values(), Weak, "x+scalar");
  if constexpr (Divides) {
    Row.close(GotQuot.values(), Quot, 1e-6, "x/y")
        .exact(GotRem.values(), Rem, "x%y");
    if constexpr (!Floats)
      Row.exact(GotTrunc.values(), Trunc, "floordiv");
  }
  Row.report();
}

void binopPromotionMatrix() {
#define CONFORMANCE_PAIR(S, X, Y, P, Q, R, W, DIVIDES, NAME)                   \
  binopPair<X, Y, P, Q, R, W, DIVIDES>(NAME, [](auto &...Buffers) {            \
    CONFORMANCE_RUN(binops_##S, 128, Buffers...);                              \
  });
#include "binop_pairs.def"
#undef CONFORMANCE_PAIR
}

/// A binary floating-point format below float: its significand's stored
/// bits, its smallest normal exponent, its largest finite value, and
/// whether overflow saturates to that value (the 8-bit floats' casts)
/// rather than going to infinity.
struct Format {
  int MantBits, MinExp;
  long double Max;
  bool Saturates;
};

template <class T> constexpr Format formatOf() {
  if constexpr (std::is_same_v<T, tile::half>)
    return {10, -14, 65504.0L, false};
  else if constexpr (std::is_same_v<T, tile::bfloat16>)
    return {7, -126, 0x1.fep127L, false};
  else if constexpr (std::is_same_v<T, tile::float8_e4m3>)
    return {3, -6, 448.0L, true};
  else
    return {2, -14, 57344.0L, true};
}

/// V rounded once to nearest-even in format F: a multiple of its binade's
/// spacing (subnormals share the smallest normal binade's).
long double roundTo(long double V, Format F) {
  if (std::isnan(V) || V == 0)
    return V;
  if (!std::isinf(V)) {
    const int Lead = std::ilogb(V);
    const int Quantum = std::max(Lead, F.MinExp) - F.MantBits;
    V = std::ldexp(std::nearbyint(std::ldexp(V, -Quantum)), Quantum);
  }
  if (std::fabs(V) > F.Max)
    return std::copysign(F.Saturates ? F.Max : INFINITY, V);
  return V;
}

/// A value of any element type exactly: long double holds every int64,
/// uint64 and double.
template <class T> long double exactly(T V) {
  if constexpr (std::is_arithmetic_v<T>)
    return static_cast<long double>(V);
  else
    return static_cast<long double>(static_cast<float>(V));
}

/// Case 14's reference: Triton's casts, from the exact value. Integers
/// wrap; floats to integers truncate toward zero, saturating out of range
/// (NaN gives 0), as the GPU's cvt.rzi does; anything to bool is != 0;
/// floats round once to nearest even.
template <class To, class From> To castReference(From V) {
  const long double E = exactly(V);
  if constexpr (std::is_same_v<To, From>) {
    return V;
  } else if constexpr (std::is_same_v<To, bool>) {
    return E != 0;
  } else if constexpr (std::is_integral_v<To> && std::is_integral_v<From>) {
    return static_cast<To>(V);
  } else if constexpr (std::is_integral_v<To>) {
    using L = std::numeric_limits<To>;
    if (std::isnan(E))
      return To(0);
    const long double T = std::trunc(E);
    return T <= L::min() ? L::min() : T >= L::max() ? L::max() : To(T);
  } else if constexpr (std::is_arithmetic_v<To>) {
    return static_cast<To>(E);
  } else {
    // The rounded value is a float exactly, which To holds exactly.
    return To(static_cast<float>(roundTo(E, formatOf<To>())));
  }
}

/// Case 14's sources: values that probe each kind of conversion (ties at
/// every narrower format, values that rounding twice would get wrong,
/// the ranges' ends, just past them), then random bits.
template <class T> std::vector<T> castSources() {
  constexpr std::size_t N = 256;
  std::vector<T> V;
  if constexpr (std::is_same_v<T, bool>) {
    for (std::size_t I = 0; I < N; ++I)
      V.push_back(I % 3 == 0);
    return V;
  } else if constexpr (std::is_integral_v<T>) {
    using L = std::numeric_limits<T>;
    const long double Probes[] = {0,
                                  1,
                                  -1,
                                  7,
                                  127,
                                  128,
                                  255,
                                  256,
                                  -129,
                                  448,
                                  464,
                                  57344,
                                  61440,
                                  65504,
                                  65519,
                                  65520,
                                  32767,
                                  -32769,
                                  16777217,
                                  0x40400001,
                                  0x7fffffc0,
                                  0x100000001,
                                  0x10100000001,
                                  0x4000000000400001,
                                  0x7fffffffffffffff};
    for (long double P : Probes)
      if (P >= L::min() && P <= L::max())
        V.push_back(static_cast<T>(P));
    V.push_back(L::min());
    V.push_back(L::max());
  } else {
    if constexpr (std::is_same_v<T, tile::float8_e4m3> ||
                  std::is_same_v<T, tile::float8_e5m2>) {
      // Every encoding.
      for (unsigned B = 0; B < 256; ++B)
        V.push_back(fromBits<T>(B));
      return V;
    } else {
      V = floatEdges<T>();
      const double Probes[] = {0.5,
                               1.5,
                               2.5,
                               -2.75,
                               127.9,
                               128.5,
                               255.5,
                               256.0,
                               -128.9,
                               -129.5,
                               65535.9,
                               65536.0,
                               -32768.5,
                               448.0,
                               464.0,
                               480.0,
                               57344.0,
                               61440.0,
                               65504.0,
                               65520.0,
                               3e9,
                               -3e9,
                               1e19,
                               -1e19,
                               1e30,
                               0x1.002p0,
                               0x1.0021p0,
                               0x1.01p0,
                               0x1.0101p0,
                               0x1.1p0,
                               0x1.18p0,
                               0x1.3p-14,
                               0x1.8p-24,
                               0x1p-25,
                               0x1.8p-133,
                               0x1p-134,
                               0x1.0000001p0,
                               0x1.002000001p0,
                               0x1.0100000001p0,
                               0x1.1000000001p0};
      for (double P : Probes) {
        V.push_back(static_cast<T>(P));
        V.push_back(static_cast<T>(-P));
      }
    }
  }
  std::uniform_int_distribution<std::uint64_t> Bits;
  while (V.size() < N)
    V.push_back(fromBits<T>(Bits(Rng)));
  return V;
}

/// Case 14: one source type to all fifteen, against castReference.
template <class X, class Launch> void castsFrom(const char *Type, Launch Run) {
  const std::vector<X> In = castSources<X>();
  const std::size_t N = In.size();
  Buffer<X> BIn(In);
  conformance::Row Row("cast_exhaustive", std::string("from ") + Type);
  auto Check = [&](auto &Out, const char *To) {
    using D =
        typename std::remove_reference_t<decltype(Out.values())>::value_type;
    std::vector<D> Want(N);
    for (std::size_t I = 0; I < N; ++I)
      Want[I] = castReference<D>(In[I]);
    Row.exact(Out.values(), Want, To);
  };
  Buffer<bool> ToBool(N);
  Buffer<std::int8_t> ToI8(N);
  Buffer<std::int16_t> ToI16(N);
  Buffer<std::int32_t> ToI32(N);
  Buffer<std::int64_t> ToI64(N);
  Buffer<std::uint8_t> ToU8(N);
  Buffer<std::uint16_t> ToU16(N);
  Buffer<std::uint32_t> ToU32(N);
  Buffer<std::uint64_t> ToU64(N);
  Buffer<tile::half> ToF16(N);
  Buffer<tile::bfloat16> ToBF16(N);
  Buffer<float> ToF32(N);
  Buffer<double> ToF64(N);
  Buffer<tile::float8_e4m3> ToE4M3(N);
  Buffer<tile::float8_e5m2> ToE5M2(N);
  Run(BIn, ToBool, ToI8, ToI16, ToI32, ToI64, ToU8, ToU16, ToU32, ToU64, ToF16,
      ToBF16, ToF32, ToF64, ToE4M3, ToE5M2);
  Check(ToBool, "bool");
  Check(ToI8, "int8");
  Check(ToI16, "int16");
  Check(ToI32, "int32");
  Check(ToI64, "int64");
  Check(ToU8, "uint8");
  Check(ToU16, "uint16");
  Check(ToU32, "uint32");
  Check(ToU64, "uint64");
  Check(ToF16, "float16");
  Check(ToBF16, "bfloat16");
  Check(ToF32, "float32");
  Check(ToF64, "float64");
  Check(ToE4M3, "float8_e4m3");
  Check(ToE5M2, "float8_e5m2");
  Row.report();
}

void castExhaustive() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  castsFrom<T>(NAME, [](auto &...Buffers) {                                    \
    CONFORMANCE_RUN(casts_from_##S, 256, Buffers...);                          \
  });
#include "element_types.def"
#include "float8_types.def"
#undef CONFORMANCE_TYPE
}

/// V rounded once toward zero in format F: an overflow gives the largest
/// finite value, not infinity.
long double truncateTo(long double V, Format F) {
  if (std::isnan(V) || std::isinf(V) || V == 0)
    return V;
  const int Quantum = std::max(std::ilogb(V), F.MinExp) - F.MantBits;
  V = std::ldexp(std::trunc(std::ldexp(V, -Quantum)), Quantum);
  return std::fabs(V) > F.Max ? std::copysign(F.Max, V) : V;
}

/// Case 14 also: float and double cast toward zero to half, bfloat16 and
/// (double) float, from case 14's sources, against truncateTo.
template <class X, class Launch>
void castsTowardZero(const char *Type, Launch Run) {
  const std::vector<X> In = castSources<X>();
  const std::size_t N = In.size();
  Buffer<X> BIn(In);
  Buffer<tile::half> ToF16(N);
  Buffer<tile::bfloat16> ToBF16(N);
  Buffer<float> ToF32(N, 0.0f);
  Run(BIn, ToF16, ToBF16, ToF32);
  std::vector<tile::half> WantF16(N);
  std::vector<tile::bfloat16> WantBF16(N);
  std::vector<float> WantF32(N, 0.0f);
  for (std::size_t I = 0; I < N; ++I) {
    const long double E = In[I];
    WantF16[I] = tile::half(float(truncateTo(E, formatOf<tile::half>())));
    WantBF16[I] =
        tile::bfloat16(float(truncateTo(E, formatOf<tile::bfloat16>())));
    if constexpr (sizeof(X) == 8)
      WantF32[I] = float(
          truncateTo(E, {23, -126, std::numeric_limits<float>::max(), false}));
  }
  conformance::Row Row("cast_exhaustive (rtz)", std::string("from ") + Type);
  Row.exact(ToF16.values(), WantF16, "float16");
  Row.exact(ToBF16.values(), WantBF16, "bfloat16");
  Row.exact(ToF32.values(), WantF32, "float32");
  Row.report();
}

void castsTowardZeroAll() {
  castsTowardZero<float>("float32", [](auto &...Buffers) {
    CONFORMANCE_RUN(casts_rtz_from_f32, 256, Buffers...);
  });
  castsTowardZero<double>("float64", [](auto &...Buffers) {
    CONFORMANCE_RUN(casts_rtz_from_f64, 256, Buffers...);
  });
}

/// Case 3: float16 times 2 is exact for these values; int8 plus 5 wraps
/// past 127 as int8 arithmetic does in Triton; int8 plus 2.5 is float32.
void weakScalarTyping() {
  constexpr int N = 128;
  std::vector<tile::half> H(N), WantH(N);
  std::vector<std::int8_t> B(N), WantB(N);
  std::vector<float> WantF(N);
  for (int I = 0; I < N; ++I) {
    H[I] = tile::half(float(I - 64) * 0.25f);
    WantH[I] = tile::half(float(I - 64) * 0.5f);
    B[I] = static_cast<std::int8_t>(I * 2 - 128); // -128 .. 126
    WantB[I] = static_cast<std::int8_t>(
        static_cast<std::uint8_t>(static_cast<std::uint8_t>(B[I]) + 5u));
    WantF[I] = float(B[I]) + 2.5f;
  }
  Buffer<tile::half> BH(H), OutH(N);
  Buffer<std::int8_t> BB(B), OutB(N);
  Buffer<float> OutF(N);
  CONFORMANCE_RUN(weak_scalars, 128, BH, BB, OutH, OutB, OutF);
  conformance::expectExact("weak_scalar_typing", "float16", OutH.values(),
                           WantH);
  conformance::expectExact("weak_scalar_typing", "int8", OutB.values(), WantB);
  conformance::expectExact("weak_scalar_typing", "int8+float", OutF.values(),
                           WantF);
}

/// Case 4: ==, !=, <, <=, >, >= on pairs with NaN on the left, the right
/// or both, infinities, signed zeros and subnormals: IEEE's ordered
/// comparisons (every one false with a NaN but !=).
void compareNan() {
  constexpr int Block = 64;
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  const float Inf = std::numeric_limits<float>::infinity();
  const float Sub = std::numeric_limits<float>::denorm_min();
  const float Values[] = {NaN, -Inf, -1.5f, -0.0f, 0.0f, Sub, 1.5f, Inf};
  std::vector<float> X(Block), Y(Block);
  for (int I = 0; I < Block; ++I) {
    X[I] = Values[I / 8];
    Y[I] = Values[I % 8];
  }
  std::vector<bool> Want(6 * Block);
  for (int I = 0; I < Block; ++I) {
    const float A = X[I], B = Y[I];
    Want[I] = A == B;
    Want[Block + I] = A != B;
    Want[2 * Block + I] = A < B;
    Want[3 * Block + I] = A <= B;
    Want[4 * Block + I] = A > B;
    Want[5 * Block + I] = A >= B;
  }
  Buffer<float> BX(X), BY(Y);
  Buffer<bool> Out(6 * Block);
  CONFORMANCE_RUN(compare_f32, 64, BX, BY, Out);
  conformance::expectExact("compare_nan", "float32", Out.values(), Want);
}

/// Case 5: 128 - d elements read, the other d lanes `other` (0 or 1), for
/// d = 0..4.
template <class T, class Launch>
void maskedLoadOther(const char *Type, Launch Run) {
  constexpr int Block = 128;
  std::vector<T> Got, Want;
  for (int D = 0; D <= 4; ++D)
    for (int Other = 0; Other <= 1; ++Other) {
      const int NIn = Block - D;
      std::vector<T> In(NIn);
      for (int I = 0; I < NIn; ++I)
        In[I] = static_cast<T>(static_cast<float>((I * 7 + D) % 5 + 2));
      Buffer<T> BIn(In), Out(Block);
      Run(BIn, Out, NIn, static_cast<T>(static_cast<float>(Other)));
      for (int I = 0; I < Block; ++I) {
        Got.push_back(Out.values()[I]);
        Want.push_back(I < NIn ? In[I] : static_cast<T>(float(Other)));
      }
    }
  conformance::expectExact("masked_load_other", Type, Got, Want);
}

void maskedLoadOtherAll() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  maskedLoadOther<T>(NAME, [](auto &In, auto &Out, int NIn, T Other) {         \
    CONFORMANCE_RUN(masked_load_##S, 128, In, Out, NIn, Other);                \
  });
#include "element_types.def"
#undef CONFORMANCE_TYPE
}

/// Case 5 also: every cache modifier and eviction policy copies the same
/// values (eight copies of 1000 values, the last block partly masked).
void accessHints() {
  constexpr int N = 1000;
  std::vector<float> X(N), Want(8 * N);
  for (int I = 0; I < N; ++I)
    X[I] = static_cast<float>(I) * 0.5f - 7.0f;
  for (int C = 0; C < 8; ++C)
    std::copy(X.begin(), X.end(), Want.begin() + C * N);
  Buffer<float> BX(X), Out(8 * N, 0.0f);
  Buffer<int> Flag(std::vector<int>{41, 0});
  CONFORMANCE_RUN(access_hints, 256, BX, Out, Flag, N);
  conformance::expectExact("masked_load_other (cache modifiers, eviction "
                           "policies)",
                           "float32", Out.values(), Want);
  conformance::expectExact("masked_load_other (volatile scalar)", "int32",
                           Flag.values(), std::vector<int>{41, 42});
}

/// Case 6: block pointers copy a 37 x 70 matrix in 16 x 32 blocks with
/// both dimensions checked, pad its last column block with NaN and with
/// zeros, and copy a 3-D box overhanging two of its dimensions.
void blockPointers() {
  constexpr int Rows = 37, Cols = 70, BM = 16, BN = 32;
  constexpr int Programs = (Rows + BM - 1) / BM;
  std::vector<float> X(Rows * Cols);
  for (int I = 0; I < Rows * Cols; ++I)
    X[I] = static_cast<float>((I * 13) % 101) - 50.0f;
  std::vector<int> Cube(3 * 5 * 7);
  for (int I = 0; I < 105; ++I)
    Cube[I] = I * 3 + 1;
  Buffer<float> BX(X), Out(Rows * Cols, -1.0f),
      Padded(Programs * BM * 2 * BN, -1.0f);
  Buffer<int> BCube(Cube), CubeOut(105, -1);
  CONFORMANCE_RUN(block_copy, 16, BX, Out, Padded, BCube, CubeOut, Rows, Cols);
  conformance::expectExact("block_ptr_copy_pad (copy)", "float32", Out.values(),
                           X);
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  const int LastColumn = (Cols - 1) / BN * BN;
  std::vector<float> WantPad(Padded.values().size());
  for (int R = 0; R < Programs * BM; ++R)
    for (int C = 0; C < BN; ++C) {
      const bool Inside = R < Rows && LastColumn + C < Cols;
      const float V = Inside ? X[R * Cols + LastColumn + C] : 0.0f;
      WantPad[R * 2 * BN + C] = Inside ? V : NaN;
      WantPad[R * 2 * BN + BN + C] = V;
    }
  conformance::expectExact("block_ptr_copy_pad (nan, zero)", "float32",
                           Padded.values(), WantPad);
  std::vector<int> WantCube(105, -1);
  for (int I = 1; I < 3; ++I)
    for (int J = 2; J < 5; ++J)
      for (int K = 3; K < 7; ++K)
        WantCube[I * 35 + J * 7 + K] = Cube[I * 35 + J * 7 + K];
  conformance::expectExact("block_ptr_copy_pad (3-D)", "int32",
                           CubeOut.values(), WantCube);
}

/// Case 6 also: tensor descriptors' loads, stores and atomics on boxes
/// shifted by (-8, -5), some before the tensor's start, some past its end.
void tensorDescriptors() {
  constexpr int Rows = 37, Cols = 70, Len = 100;
  std::vector<float> X(Rows * Cols);
  for (int I = 0; I < Rows * Cols; ++I)
    X[I] = static_cast<float>((I * 29) % 97) - 40.0f;
  std::vector<int> V(Len);
  for (int I = 0; I < Len; ++I)
    V[I] = I * I - 7;
  Buffer<float> BX(X), Twice(Rows * Cols, -1.0f), Sum(Rows * Cols, 0.5f);
  Buffer<int> Peak(Rows * Cols, -30), BV(V), VOut(Len, 0);
  CONFORMANCE_RUN(descriptor_ops, 16, BX, Twice, Sum, Peak, BV, VOut, Rows,
                  Cols, -8, -5, Len);
  std::vector<float> WantTwice(X), WantSum(X);
  std::vector<int> WantPeak(X.size()), WantV(V);
  for (std::size_t I = 0; I < X.size(); ++I) {
    WantTwice[I] = 2.0f * X[I];
    WantSum[I] = X[I] + 0.5f;
    WantPeak[I] = std::max(-30, static_cast<int>(X[I]));
  }
  for (int &E : WantV)
    E += 1;
  conformance::expectExact("block_ptr_copy_pad (descriptor store)", "float32",
                           Twice.values(), WantTwice);
  conformance::expectExact("block_ptr_copy_pad (descriptor atomic_add)",
                           "float32", Sum.values(), WantSum);
  conformance::expectExact("block_ptr_copy_pad (descriptor atomic_max)",
                           "int32", Peak.values(), WantPeak);
  conformance::expectExact("block_ptr_copy_pad (1-D descriptor)", "int32",
                           VOut.values(), WantV);
}

/// Case 6 also: a block-pointer matmul on 16-aligned ragged sizes (208 x
/// 144 x 112: TMA on sm_90a) and odd ones (75 x 37 x 50: the generic
/// variant), against a double-precision product of the same halves.
void blockMatmul() {
  std::uniform_real_distribution<float> U(-2, 2);
  for (auto [M, N, K] :
       {std::array<int, 3>{208, 144, 112}, std::array<int, 3>{75, 37, 50}}) {
    std::vector<tile::half> A(M * K), B(K * N);
    for (tile::half &E : A)
      E = static_cast<tile::half>(U(Rng));
    for (tile::half &E : B)
      E = static_cast<tile::half>(U(Rng));
    std::vector<float> Want(M * N);
    for (int I = 0; I < M; ++I)
      for (int J = 0; J < N; ++J) {
        double Sum = 0;
        for (int L = 0; L < K; ++L)
          Sum += double(float(A[I * K + L])) * float(B[L * N + J]);
        Want[I * N + J] = static_cast<float>(Sum);
      }
    const std::string Shape = std::to_string(M) + "x" + std::to_string(N) +
                              "x" + std::to_string(K) + ")";
    Buffer<tile::half> BA(A), BB(B);
    Buffer<float> Out(M * N, -1.0f);
    CONFORMANCE_RUN(block_matmul, 64, BA, BB, Out, M, N, K);
    conformance::expectClose("block_ptr_copy_pad (matmul " + Shape, "float16",
                             Out.values(), Want, 1e-3);
    Buffer<float> HostOut(M * N, -1.0f);
    Descriptor<const tile::half, 2> DA{BA, {M, K}, {K, 1}},
        DB{BB, {K, N}, {N, 1}};
    Descriptor<float, 2> DC{HostOut, {M, N}, {N, 1}};
    CONFORMANCE_RUN(host_descriptor_matmul, 64, DA, DB, DC, K);
    conformance::expectClose("block_ptr_copy_pad (host descriptors' matmul " +
                                 Shape,
                             "float16", HostOut.values(), Want, 1e-3);
  }
}

/// Case 7: the reductions of a 2 x 32 tile whose columns 3..9 of row 0
/// hold its maximum and columns 12..20 of row 1 its minimum, so that
/// argmax and argmin must pick the lowest index of a tie. Sums of int32
/// and of small integers in float are exact in any order.
template <class T, class Launch>
void reduceSuite(const char *Type, Launch Run) {
  constexpr int Block = 32;
  std::vector<T> X(2 * Block);
  for (int I = 0; I < 2 * Block; ++I)
    X[I] = static_cast<T>((I * 37) % 23 - 11);
  for (int C = 3; C < 10; ++C)
    X[C] = static_cast<T>(50);
  for (int C = 12; C < 21; ++C)
    X[Block + C] = static_cast<T>(-50);
  auto At = [&](int R, int C) { return X[R * Block + C]; };
  std::vector<T> Want(2 * Block + 5);
  std::vector<int> WantIndex(4 + Block);
  // Sums widen (to 32 bits, 16-bit floats to float) and the store narrows
  // again: integers wrap, floats round once; in the reference, sums are
  // exact (modulo 2^64 for integers) and converted at the end.
  using Acc = std::conditional_t<std::is_integral_v<T>, std::uint64_t, double>;
  auto Add = [](Acc S, T V) {
    if constexpr (std::is_integral_v<T>)
      return S + static_cast<std::uint64_t>(V);
    else
      return S + conformance::asDouble(V);
  };
  auto Narrow = [](Acc S) {
    if constexpr (std::is_integral_v<T> || std::is_arithmetic_v<T>)
      return static_cast<T>(S);
    else
      return T(static_cast<float>(S));
  };
  for (int C = 0; C < Block; ++C) {
    Want[C] = Narrow(Add(Add(0, At(0, C)), At(1, C)));
    Want[Block + 4 + C] = std::min(At(0, C), At(1, C));
    WantIndex[4 + C] = At(1, C) > At(0, C) ? 1 : 0;
  }
  Acc Total = 0;
  for (int R = 0; R < 2; ++R) {
    Acc Sum = 0;
    T Max = At(R, 0), Min = At(R, 0);
    int ArgMax = 0, ArgMin = 0;
    for (int C = 0; C < Block; ++C) {
      Sum = Add(Sum, At(R, C));
      if (At(R, C) > Max)
        Max = At(R, C), ArgMax = C;
      if (At(R, C) < Min)
        Min = At(R, C), ArgMin = C;
    }
    Want[Block + R] = Narrow(Sum);
    Want[Block + 2 + R] = Max;
    WantIndex[R] = ArgMax;
    WantIndex[2 + R] = ArgMin;
    Total += Sum;
  }
  Want[2 * Block + 4] = Narrow(Total);
  Buffer<T> BX(X), Out(Want.size());
  Buffer<int> Index(WantIndex.size());
  Run(BX, Out, Index);
  conformance::expectExact("reduce_suite", Type, Out.values(), Want);
  conformance::expectExact("reduce_suite (index)", Type, Index.values(),
                           WantIndex);
}

/// Case 7 also: sum with a dtype. The int8 sum wraps; the float16 rows
/// hold small integers (exact in float16 at any order of addition).
void sumDtype() {
  constexpr int N = 64;
  std::vector<std::int8_t> B(N);
  std::vector<tile::half> H(4 * N);
  int Wide = 0;
  for (int I = 0; I < N; ++I) {
    B[I] = static_cast<std::int8_t>(I * 3 - 50);
    Wide += B[I];
  }
  std::vector<double> Rows(4, 0);
  std::vector<tile::half> HalfRows(4);
  for (int R = 0; R < 4; ++R) {
    for (int C = 0; C < N; ++C) {
      H[R * N + C] = static_cast<tile::half>(static_cast<float>((C % 7) - R));
      Rows[R] += (C % 7) - R;
    }
    HalfRows[R] = static_cast<tile::half>(static_cast<float>(Rows[R]));
  }
  Buffer<std::int8_t> BB(B), Narrow(1);
  Buffer<tile::half> BH(H), HalfOut(4);
  Buffer<int> WideOut(1);
  Buffer<double> RowsOut(4);
  CONFORMANCE_RUN(sum_dtype, 64, BB, BH, Narrow, WideOut, RowsOut, HalfOut);
  conformance::expectExact(
      "reduce_suite sum dtype int8 (wraps)", "int8", Narrow.values(),
      std::vector<std::int8_t>{static_cast<std::int8_t>(Wide & 0xff)});
  conformance::expectExact("reduce_suite sum (int32 by default)", "int8",
                           WideOut.values(), std::vector<int>{Wide});
  conformance::expectExact("reduce_suite sum dtype float64", "float16",
                           RowsOut.values(), Rows);
  conformance::expectExact("reduce_suite sum dtype float16", "float16",
                           HalfOut.values(), HalfRows);
}

void reduceSuiteAll() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  reduceSuite<T>(NAME, [](auto &X, auto &Out, auto &Index) {                   \
    CONFORMANCE_RUN(reduce_##S, 32, X, Out, Index);                            \
  });
#include "numeric_types.def"
#undef CONFORMANCE_TYPE
}

/// Case 8: the mean and population variance of 512 values, in double
/// here; float rounding in another order of combination stays within
/// 1e-5 relative.
void customTupleReduce() {
  constexpr int N = 512;
  std::normal_distribution<float> Normal(3.0f, 2.0f);
  std::vector<float> X(N);
  double Sum = 0, Squares = 0;
  for (float &V : X)
    Sum += V = Normal(Rng);
  const double Mean = Sum / N;
  for (float V : X)
    Squares += (V - Mean) * (V - Mean);
  Buffer<float> BX(X), Out(2);
  CONFORMANCE_RUN(welford, 512, BX, Out);
  conformance::expectClose("custom_tuple_reduce", "float32", Out.values(),
                           {float(Mean), float(Squares / N)}, 1e-5);
}

/// Case 9: values in {-1, 0.5, 1, 2} (and a in {0.5, 1}) keep every sum
/// and product exact, so any order of combination gives the same bits.
void scanSuite() {
  constexpr int Rows = 4, Cols = 32;
  const float Pick[] = {-1.0f, 0.5f, 1.0f, 2.0f};
  std::uniform_int_distribution<int> U(0, 3);
  std::vector<float> X(Rows * Cols), A(Rows * Cols);
  for (int I = 0; I < Rows * Cols; ++I) {
    X[I] = Pick[U(Rng)];
    A[I] = U(Rng) % 2 ? 0.5f : 1.0f;
  }
  std::vector<float> Want(5 * Rows * Cols);
  auto Plane = [&](int P, int R, int C) -> float & {
    return Want[P * Rows * Cols + R * Cols + C];
  };
  for (int R = 0; R < Rows; ++R) {
    float Sum = 0, Product = 1, Max = X[R * Cols], H = 0;
    for (int C = 0; C < Cols; ++C) {
      const float V = X[R * Cols + C];
      Plane(0, R, C) = Sum += V;
      Plane(2, R, C) = Product *= V;
      Plane(3, R, C) = Max = std::max(Max, V);
      Plane(4, R, C) = H = C == 0 ? V : A[R * Cols + C] * H + V;
    }
  }
  for (int C = 0; C < Cols; ++C) {
    float Sum = 0;
    for (int R = Rows - 1; R >= 0; --R)
      Plane(1, R, C) = Sum += X[R * Cols + C];
  }
  Buffer<float> BX(X), BA(A), Out(Want.size());
  CONFORMANCE_RUN(scans, 32, BX, BA, Out);
  conformance::expectExact("scan_suite", "float32", Out.values(), Want);
}

/// Case 9 for every numeric type: values in {-1, 1, 2, 3} for integers
/// (products wrap, as they do at the widened width) and {-1, 0.5, 1, 2}
/// for floats (every partial result exact in float).
template <class T, class Launch> void scanTyped(const char *Type, Launch Run) {
  constexpr int Rows = 4, Cols = 32;
  const double Pick[] = {-1, std::is_integral_v<T> ? 3 : 0.5, 1, 2};
  std::uniform_int_distribution<int> U(0, 3);
  std::vector<T> X(Rows * Cols);
  std::vector<double> Values(Rows * Cols);
  for (int I = 0; I < Rows * Cols; ++I) {
    Values[I] = Pick[U(Rng)];
    if constexpr (std::is_integral_v<T>)
      X[I] = static_cast<T>(static_cast<long long>(Values[I]));
    else
      X[I] = static_cast<T>(static_cast<float>(Values[I]));
  }
  // Integers accumulate modulo 2^64, floats exactly in double; each result
  // is then narrowed to T as the store narrows it.
  auto Narrow = [](double Exact, std::uint64_t Wrapped) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(Wrapped);
    else if constexpr (std::is_arithmetic_v<T>)
      return static_cast<T>(Exact);
    else
      return T(static_cast<float>(Exact));
  };
  auto Bits = [&](int I) { return static_cast<std::uint64_t>(X[I]); };
  std::vector<T> Want(3 * Rows * Cols);
  for (int R = 0; R < Rows; ++R) {
    double Sum = 0, Product = 1;
    std::uint64_t WSum = 0, WProduct = 1;
    for (int C = 0; C < Cols; ++C) {
      const int I = R * Cols + C;
      Sum += Values[I];
      Product *= Values[I];
      if constexpr (std::is_integral_v<T>) {
        WSum += Bits(I);
        WProduct *= Bits(I);
      }
      Want[I] = Narrow(Sum, WSum);
      Want[2 * Rows * Cols + I] = Narrow(Product, WProduct);
    }
  }
  for (int C = 0; C < Cols; ++C) {
    double Sum = 0;
    std::uint64_t WSum = 0;
    for (int R = Rows - 1; R >= 0; --R) {
      const int I = R * Cols + C;
      Sum += Values[I];
      if constexpr (std::is_integral_v<T>)
        WSum += Bits(I);
      Want[Rows * Cols + I] = Narrow(Sum, WSum);
    }
  }
  Buffer<T> BX(X), Out(Want.size());
  Run(BX, Out);
  conformance::expectExact("scan_suite (cumsum, cumprod)", Type, Out.values(),
                           Want);
}

void scanTypedAll() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  scanTyped<T>(NAME, [](auto &X, auto &Out) {                                  \
    CONFORMANCE_RUN(scans_##S, 32, X, Out);                                    \
  });
#include "numeric_types.def"
#undef CONFORMANCE_TYPE
}

/// The value of a dot's operand or accumulator element, in double.
template <class T> double exactValue(T X) {
  if constexpr (std::is_same_v<T, double>)
    return X;
  else
    return double(float(X));
}

/// Cases 15 and 16: Batch products of M x K by K x N (each row-major, one
/// after another) added to an accumulator (AddAcc: random; otherwise
/// zeros, which the kernel is not given), against a double reference.
/// float16 inputs and float32 inputs already representable in TF32
/// (mantissas masked by 0xffffe000) make every product exact, so only the
/// order of the sums differs: 1e-5 relative to the sum of |a b| along k
/// (1e-12 for float64); 8-bit integers are exact. Hopper's 8-bit float
/// tensor cores keep fewer bits while they accumulate (2e-5 seen at K = 64
/// on an H200): 1e-3 for those. Run(a, b, acc, out) launches the kernel.
template <class T, class R, class Launch>
void checkDot(const std::string &Name, const char *Type, int Batch, int M,
              int K, int N, bool AddAcc, Launch Run) {
  std::uniform_real_distribution<float> U(-2, 2);
  auto Random = [&](auto &V) {
    using E = std::remove_reference_t<decltype(V[0])>;
    for (E &X : V) {
      float F = U(Rng);
      if constexpr (std::is_integral_v<E>) {
        X = static_cast<E>(std::lround(F * 60));
      } else if constexpr (std::is_same_v<E, float>) {
        std::uint32_t Bits;
        std::memcpy(&Bits, &F, 4);
        Bits &= 0xffffe000u;
        std::memcpy(&X, &Bits, 4);
      } else {
        X = static_cast<E>(F);
      }
    }
  };
  std::vector<T> A(Batch * M * K), B(Batch * K * N);
  std::vector<R> C(Batch * M * N, R(0));
  Random(A);
  Random(B);
  if (AddAcc)
    Random(C);
  std::vector<R> Want(C.size());
  std::vector<double> Scale(C.size());
  for (int L = 0; L < Batch; ++L)
    for (int I = 0; I < M; ++I)
      for (int J = 0; J < N; ++J) {
        const int Out = (L * M + I) * N + J;
        double Sum = exactValue(C[Out]), Abs = std::fabs(Sum);
        for (int P = 0; P < K; ++P) {
          const double Product = exactValue(A[(L * M + I) * K + P]) *
                                 exactValue(B[(L * K + P) * N + J]);
          Sum += Product;
          Abs += std::fabs(Product);
        }
        Want[Out] = static_cast<R>(Sum);
        Scale[Out] = Abs;
      }
  Buffer<T> BA(A), BB(B);
  Buffer<R> BC(C), Got(C.size());
  Run(BA, BB, BC, Got);
  if constexpr (std::is_integral_v<R>) {
    conformance::expectExact(Name, Type, Got.values(), Want);
  } else {
    // Relative to the sum of magnitudes: cancellation leaves no headroom
    // relative to the result itself.
    std::vector<R> Values = Got.values(), Scaled(C.size()),
                   Zero(C.size(), R(0));
    for (size_t I = 0; I < C.size(); ++I)
      Scaled[I] = R((Values[I] - Want[I]) / std::max(1.0, Scale[I]));
    const double Tolerance = sizeof(T) == 1   ? 1e-3
                             : sizeof(T) == 8 ? 1e-12
                                              : 1e-5;
    conformance::expectClose(Name, Type, Scaled, Zero, Tolerance);
  }
}

/// Case 15: a M x M product (the kernel takes a, b and c).
template <class T, class R, class Launch>
void squareDot(const char *Case, const char *Type, int M, Launch Run) {
  checkDot<T, R>(std::string(Case) + " " + std::to_string(M), Type, 1, M, M, M,
                 /*AddAcc=*/false,
                 [&](auto &A, auto &B, auto &, auto &Out) { Run(A, B, Out); });
}

/// The products of one size, configuration Config of the float kernels
/// (int8's starts at 32).
template <int M, int Config> void dotBaseOfSize() {
  squareDot<tile::half, float>(
      "dot_base", "float16", M, [](auto &A, auto &B, auto &Out) {
        CONFORMANCE_RUN_CONFIG(dot_f16, M, Config, A, B, Out);
      });
  squareDot<float, float>(
      "dot_base tf32", "float32", M, [](auto &A, auto &B, auto &Out) {
        CONFORMANCE_RUN_CONFIG(dot_tf32, M, Config, A, B, Out);
      });
  squareDot<float, float>(
      "dot_base ieee", "float32", M, [](auto &A, auto &B, auto &Out) {
        CONFORMANCE_RUN_CONFIG(dot_ieee, M, Config, A, B, Out);
      });
  squareDot<tile::bfloat16, float>(
      "dot_base", "bfloat16", M, [](auto &A, auto &B, auto &Out) {
        CONFORMANCE_RUN_CONFIG(dot_bf16, M, Config, A, B, Out);
      });
  if constexpr (M >= 32) {
    squareDot<std::int8_t, std::int32_t>(
        "dot_base", "int8", M, [](auto &A, auto &B, auto &Out) {
          CONFORMANCE_RUN_CONFIG(dot_i8, M, Config - 1, A, B, Out);
        });
    squareDot<std::uint8_t, std::int32_t>(
        "dot_base", "uint8", M, [](auto &A, auto &B, auto &Out) {
          CONFORMANCE_RUN_CONFIG(dot_u8, M, Config - 1, A, B, Out);
        });
    squareDot<tile::float8_e4m3, float>(
        "dot_base", "float8_e4m3", M, [](auto &A, auto &B, auto &Out) {
          CONFORMANCE_RUN_CONFIG(dot_e4m3, M, Config - 1, A, B, Out);
        });
    squareDot<tile::float8_e5m2, float>(
        "dot_base", "float8_e5m2", M, [](auto &A, auto &B, auto &Out) {
          CONFORMANCE_RUN_CONFIG(dot_e5m2, M, Config - 1, A, B, Out);
        });
  }
}

void dotBase() {
  dotBaseOfSize<16, 0>();
  dotBaseOfSize<32, 1>();
  dotBaseOfSize<64, 2>();
}

/// Case 16: batched products of each type at one configuration.
template <int Batch, int M, int K, int N, int Config> void dot3dOfShape() {
  const std::string Name = "dot_3d " + std::to_string(Batch) + "x" +
                           std::to_string(M) + "x" + std::to_string(K) + "x" +
                           std::to_string(N);
// The kernels' meta-parameters, as one macro argument.
#define CONFORMANCE_DOT3D_META Batch, M, K, N
#define CONFORMANCE_CHECK_DOT3D(KERNEL, T, R, TYPE)                            \
  checkDot<T, R>(Name, TYPE, Batch, M, K, N, true, [](auto &...Args) {         \
    CONFORMANCE_RUN_CONFIG(KERNEL, CONFORMANCE_DOT3D_META, Config, Args...);   \
  })
  CONFORMANCE_CHECK_DOT3D(dot3d_f16, tile::half, float, "float16");
  CONFORMANCE_CHECK_DOT3D(dot3d_f32, float, float, "float32");
  CONFORMANCE_CHECK_DOT3D(dot3d_i8, std::int8_t, std::int32_t, "int8");
  CONFORMANCE_CHECK_DOT3D(dot3d_f64, double, double, "float64");
#undef CONFORMANCE_CHECK_DOT3D
#undef CONFORMANCE_DOT3D_META
}

/// Case 16 also: the 2-D float64 dot, and a 16 x 16 product written as a
/// broadcast multiply summed along k.
void dot3dAndMulbroadcast() {
  dot3dOfShape<2, 16, 32, 16, 0>();
  dot3dOfShape<4, 32, 32, 64, 1>();
  squareDot<double, double>("dot_f64", "float64", 16, [](auto &...Args) {
    CONFORMANCE_RUN_CONFIG(dot_f64, 16, 0, Args...);
  });
  squareDot<double, double>("dot_f64", "float64", 32, [](auto &...Args) {
    CONFORMANCE_RUN_CONFIG(dot_f64, 32, 1, Args...);
  });
  squareDot<float, float>("dot_mulbroadcast", "float32", 16, [](auto &...Args) {
    CONFORMANCE_RUN(dot_mulbroadcast, 16, Args...);
  });
}

/// Case 12: where(c, x, y) over 1000 lanes, and a load through
/// where(c, x + i, y + i).
template <class T, class Launch>
void whereBroadcast(const char *Type, Launch Run) {
  constexpr int N = 1000;
  std::bernoulli_distribution Coin(0.5);
  std::vector<bool> C(N);
  std::vector<T> X(N), Y(N), Want(N);
  for (int I = 0; I < N; ++I) {
    C[I] = Coin(Rng);
    X[I] = static_cast<T>(static_cast<float>(I % 100));
    Y[I] = static_cast<T>(static_cast<float>(-(I % 50)));
    Want[I] = C[I] ? X[I] : Y[I];
  }
  Buffer<bool> BC(C);
  Buffer<T> BX(X), BY(Y), Out(N), Picked(N);
  Run(BC, BX, BY, Out, Picked, N);
  conformance::expectExact("where_broadcast_ptr", Type, Out.values(), Want);
  conformance::expectExact("where_broadcast_ptr (pointers)", Type,
                           Picked.values(), Want);
}

void whereBroadcastAll() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  whereBroadcast<T>(                                                           \
      NAME, [](auto &C, auto &X, auto &Y, auto &Out, auto &Picked, int N) {    \
        CONFORMANCE_RUN(where_##S, 1024, C, X, Y, Out, Picked, N);             \
      });
#include "element_types.def"
#undef CONFORMANCE_TYPE
}

/// Case 12 also: four programs read rows 3, 2, 1, 0 of a matrix through
/// pointers made from their int64 addresses, and give the addresses back.
void pointersFromAddresses() {
  constexpr int Rows = 4, Block = 128, N = 100;
  std::vector<float> Matrix(Rows * N);
  for (int I = 0; I < Rows * N; ++I)
    Matrix[I] = static_cast<float>(I) * 0.25f;
  Buffer<float> Src(Matrix);
  Src.upload(); // its device address is what the kernel gets
  std::vector<std::int64_t> Addresses(Rows);
  std::vector<float> Want(Rows * Block, -1.0f);
  for (int G = 0; G < Rows; ++G) {
    const int Row = Rows - 1 - G;
    Addresses[G] = static_cast<std::int64_t>(
        reinterpret_cast<std::uintptr_t>(Src.target() + Row * N));
    for (int I = 0; I < N; ++I)
      Want[G * Block + I] = Matrix[Row * N + I];
  }
  Buffer<std::int64_t> BAddresses(Addresses), Back(Rows, 0);
  Buffer<float> Out(Rows * Block, 7.0f);
  CONFORMANCE_RUN(pointers_from_addresses, 128, BAddresses, Out, Back, N);
  conformance::expectExact("where_broadcast_ptr (int64 to pointer)", "float32",
                           Out.values(), Want);
  conformance::expectExact("where_broadcast_ptr (pointer to int64)", "int64",
                           Back.values(), Addresses);
}

/// Case 26: inline assembly against independent references; ex2.approx
/// is within 2 ulp.
void inlineAsm() {
  constexpr int N = 128;
  std::uniform_real_distribution<float> U(-20, 20);
  std::uniform_int_distribution<std::int64_t> W(-(std::int64_t(1) << 50),
                                                std::int64_t(1) << 50);
  std::vector<float> X(N), WantX(N);
  std::vector<std::int32_t> I(N), WantI(N);
  std::vector<std::int64_t> Wide(N), WantW(N);
  std::vector<tile::half> H(N), WantH(N);
  for (int K = 0; K < N; ++K) {
    X[K] = U(Rng);
    WantX[K] = static_cast<float>(std::exp2(double(X[K])));
    I[K] = static_cast<std::int32_t>(W(Rng));
    WantI[K] = static_cast<std::int32_t>(static_cast<std::uint32_t>(I[K]) * 8u);
    Wide[K] = W(Rng);
    WantW[K] = Wide[K] + (std::int64_t(1) << 40);
    H[K] = tile::half(U(Rng));
    WantH[K] = tile::half(-float(H[K]));
  }
  Buffer<float> BX(X), OutX(N);
  Buffer<std::int32_t> BI(I), OutI(N);
  Buffer<std::int64_t> BW(Wide), OutW(N);
  Buffer<tile::half> BH(H), OutH(N);
  CONFORMANCE_RUN(inline_asm, 128, BX, BI, BW, BH, OutX, OutI, OutW, OutH);
  conformance::expectClose("inline_asm (ex2.approx)", "float32", OutX.values(),
                           WantX, 1e-6);
  conformance::expectExact("inline_asm (shl.b32)", "int32", OutI.values(),
                           WantI);
  conformance::expectExact("inline_asm (add.s64)", "int64", OutW.values(),
                           WantW);
  conformance::expectExact("inline_asm (neg.f16)", "float16", OutH.values(),
                           WantH);
}

/// Case 26, pack > 1: each group of elements against independent
/// references (exact: masking, shifting, negation and one rounding of a
/// half sum), in both configurations (whole groups; padded ones).
void inlineAsmPacked() {
  std::uniform_int_distribution<int> Byte(0, 255);
  std::uniform_real_distribution<float> U(-20, 20);
  auto Check = [&](auto Run, int N, const std::string &Config) {
    std::vector<std::uint8_t> B(N), WantB(N);
    std::vector<tile::half> H(N), G(N), WantH(N);
    std::vector<float> X(N), WantX(N);
    for (int K = 0; K < N; ++K) {
      B[K] = static_cast<std::uint8_t>(Byte(Rng));
      WantB[K] = static_cast<std::uint8_t>((B[K] & 0x1F) << 3);
      H[K] = tile::half(U(Rng));
      G[K] = tile::half(U(Rng));
      WantH[K] = tile::half(float(H[K]) + float(G[K]));
      X[K] = U(Rng);
      WantX[K] = -X[K];
    }
    Buffer<std::uint8_t> BB(B), OutB(N);
    Buffer<tile::half> BH(H), BG(G), OutH(N);
    Buffer<float> BX(X), OutX(N);
    Run(BB, BH, BG, BX, OutB, OutH, OutX);
    conformance::expectExact("inline_asm_packed (uint8 x4) " + Config, "uint8",
                             OutB.values(), WantB);
    conformance::expectExact("inline_asm_packed (add.rn.f16x2) " + Config,
                             "float16", OutH.values(), WantH);
    conformance::expectExact("inline_asm_packed (float x2) " + Config,
                             "float32", OutX.values(), WantX);
  };
  Check(
      [](auto &...A) {
        CONFORMANCE_RUN_CONFIG(inline_asm_packed, 1024, 0, A...);
      },
      1024, "BLOCK=1024");
  Check(
      [](auto &...A) {
        CONFORMANCE_RUN_CONFIG(inline_asm_packed, 128, 1, A...);
      },
      128, "BLOCK=128");
}

/// Case 18: integer values (exact in float too, in any order of
/// addition), signed ones both sides of zero.
template <class T, class Launch> void atomics(const char *Type, Launch Run) {
  constexpr int Programs = 5, Block = 64;
  std::uniform_int_distribution<int> U(std::is_signed_v<T> ? -100 : 0, 100);
  std::vector<T> X(Programs * Block);
  for (T &V : X)
    V = static_cast<T>(U(Rng));
  std::vector<T> Want = {T(0),
                         std::numeric_limits<T>::lowest(),
                         std::numeric_limits<T>::max(),
                         T(0),
                         T(0),
                         T(0),
                         T(0)};
  for (int I = 0; I < Programs * Block; ++I) {
    Want[0] += X[I];
    Want[1] = std::max(Want[1], X[I]);
    Want[2] = std::min(Want[2], X[I]);
    Want[3 + I % 4] += X[I];
  }
  Buffer<T> BX(X), Out(std::vector<T>{T(0), std::numeric_limits<T>::lowest(),
                                      std::numeric_limits<T>::max(), T(0), T(0),
                                      T(0), T(0)});
  Run(BX, Out);
  conformance::expectExact("atomics", Type, Out.values(), Want);
}

void atomicsAll() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  atomics<T>(NAME, [](auto &X, auto &Out) {                                    \
    CONFORMANCE_RUN(atomics_##S, 64, X, Out);                                  \
  });
#include "atomic_types.def"
#undef CONFORMANCE_TYPE
  Buffer<int> Lock(1, 0), Count(1, 0);
  CONFORMANCE_RUN(spin_lock, 1, Lock, Count);
  conformance::expectExact("atomics (spin lock)", "int32", Count.values(),
                           std::vector<int>{2000});
}

/// Case 10 (histogram): values of every size across and beyond both bin
/// ranges, the type's extremes, and for 64-bit types values whose low 32
/// bits are a bin (a count of truncated values would take them).
template <class T, class Launch> void histogram(const char *Type, Launch Run) {
  constexpr int Programs = 4, Block = 512, N = 1500;
  using L = std::numeric_limits<T>;
  std::uniform_int_distribution<long long> U(
      std::max<long long>(L::lowest(), -40),
      std::min<long long>(L::max(), 300));
  std::vector<T> X(Programs * Block);
  for (T &V : X)
    V = static_cast<T>(U(Rng));
  X[3] = L::lowest();
  X[7] = L::max();
  if constexpr (sizeof(T) == 8)
    X[11] = X[1200] = static_cast<T>((1ull << 32) + 5);
  std::vector<int> Want(64 + 256, 0);
  for (int I = 0; I < Programs * Block; ++I) {
    const long double V = X[I];
    if (V >= 0 && V < 64)
      ++Want[static_cast<int>(V)];
    if (I < N && V >= 0 && V < 256)
      ++Want[64 + static_cast<int>(V)];
  }
  Buffer<T> BX(X);
  Buffer<int> Counts(64 + 256, 0);
  Run(BX, Counts, N);
  conformance::expectExact("histogram", Type, Counts.values(), Want);
}

void histogramAll() {
#define CONFORMANCE_TYPE(S, T, NAME)                                           \
  histogram<T>(NAME, [](auto &X, auto &Counts, int N) {                        \
    CONFORMANCE_RUN(histogram_##S, 512, X, Counts, N);                         \
  });
#include "integer_types.def"
#undef CONFORMANCE_TYPE
}

/// Case 19: the values Triton's test computes by running the Python again,
/// written out: sum of i - lo over ten steps from 2^35 (45), 5 x 8 nested
/// iterations (40), the odd numbers up to 11 (36), the step a loop
/// returned at (4); the helpers' values returned from inside loops: the
/// first i with i * i >= 10 (4), the pair 2 x 6 from nested loops (206),
/// the value after a loop that did not return (3), and 0..3 doubled three
/// times plus 3, summed (60).
void controlFlow() {
  Buffer<std::int64_t> Out(8, 0);
  const std::int64_t Lo = std::int64_t(1) << 35;
  CONFORMANCE_RUN(control_flow, 1, Out, Lo, 20);
  conformance::expectExact(
      "control_flow", "int64", Out.values(),
      std::vector<std::int64_t>{45, 40, 36, 4, 4, 206, 3, 60});
}

/// Case 20: the values the helpers compute, written out per lane; the
/// copied capture keeps 3, the referenced one sees 5; the step that takes
/// the largest |x| + 1 past 20.
void tuplesAndCalls() {
  constexpr int Block = 64;
  std::uniform_int_distribution<int> Quarters(-40, 40);
  std::vector<float> X(Block), Y(Block), Want(11 * Block);
  for (int I = 0; I < Block; ++I) {
    X[I] = float(Quarters(Rng)) / 4;
    Y[I] = float(Quarters(Rng)) / 4;
  }
  float Largest = 0;
  for (float A : X)
    Largest = std::max(Largest, std::fabs(A) + 1);
  int Step = 0;
  for (int S = 1; S < 8 && !Step; ++S)
    if (Largest * float(S) > 20)
      Step = S;
  for (int I = 0; I < Block; ++I) {
    const float A = X[I], B = Y[I];
    const float Lo = std::min(A, B), Hi = std::max(A, B);
    Want[I] = Lo;
    Want[Block + I] = Hi;
    Want[2 * Block + I] = A + B;
    Want[3 * Block + I] = Hi;
    Want[4 * Block + I] = A;
    Want[5 * Block + I] = (A * 3 + 1) * 3 + 1;
    Want[6 * Block + I] = B - 5 - 5;
    Want[7 * Block + I] = Lo + Hi;
    Want[8 * Block + I] = 3 * A + 6;
    Want[9 * Block + I] = A + B;
    Want[10 * Block + I] =
        (std::fabs(A) + 1) * float(Step ? Step : 1) + float(Step);
  }
  Buffer<float> BX(X), BY(Y), Out(11 * Block);
  CONFORMANCE_RUN(tuples_and_calls, 64, BX, BY, Out);
  conformance::expectExact("tuples_and_calls", "float32", Out.values(), Want);
}

} // namespace

/// Case 13's reference: Philox 4x32-10 as Salmon et al. define it and
/// Triton keys it (key = the seed's two words, counter = the offset's two
/// words and two zeros), written out without tile.hpp.
std::array<std::uint32_t, 4> philoxReference(std::uint64_t Seed,
                                             std::uint64_t Offset) {
  auto Product = [](std::uint32_t X, std::uint32_t Y) {
    const std::uint64_t P = std::uint64_t(X) * Y;
    return std::pair<std::uint32_t, std::uint32_t>(P >> 32, std::uint32_t(P));
  };
  std::array<std::uint32_t, 4> C = {std::uint32_t(Offset),
                                    std::uint32_t(Offset >> 32), 0, 0};
  std::uint32_t K0 = std::uint32_t(Seed), K1 = std::uint32_t(Seed >> 32);
  for (int Round = 0; Round < 10; ++Round) {
    auto [HiB, LoB] = Product(0xCD9E8D57, C[2]);
    auto [HiA, LoA] = Product(0xD2511F53, C[0]);
    C = {HiB ^ C[1] ^ K0, LoB, HiA ^ C[3] ^ K1, LoA};
    K0 += 0x9E3779B9;
    K1 += 0xBB67AE85;
  }
  return C;
}

/// tl.uint_to_uniform_float of a 32-bit word: read as signed, negative
/// ones folded onto the non-negative, times the largest scale that keeps
/// them below 1.
float uniformReference(std::uint32_t Word) {
  std::int32_t V = std::int32_t(Word);
  if (V < 0)
    V = -(V + 1);
  return float(V) * 4.6566127342e-10f;
}

/// Triton's own words and tl.rand values (scripts/triton_philox_values.py
/// ran it on a GPU), which the reference must reproduce.
struct TritonPhilox {
  std::int64_t Seed, Offset;
  bool Wide;
  std::uint64_t Words[4];
  std::uint32_t RandBits;
};
constexpr TritonPhilox TritonValues[] = {
#include "philox_triton.inc"
};

/// The reference against Triton's values: each row is a pass or a failure.
void philoxMatchesTriton() {
  std::vector<std::uint64_t> Got, Want;
  for (const TritonPhilox &T : TritonValues) {
    const auto Words = philoxReference(T.Seed, T.Offset);
    const float Uniform = uniformReference(Words[0]);
    std::uint32_t Bits;
    std::memcpy(&Bits, &Uniform, sizeof Bits);
    Got.insert(Got.end(), Words.begin(), Words.end());
    Got.push_back(Bits);
    Want.insert(Want.end(), std::begin(T.Words), std::end(T.Words));
    Want.push_back(T.RandBits);
  }
  conformance::expectExact("philox_bitexact reference = Triton",
                           "int32, int64 offsets", Got, Want);
}

/// Case 13: randint4x and rand from int32 offsets 0..n-1 and int64 offsets
/// past 2^32, for Triton's test seeds, bit for bit.
void philoxBitexact() {
  constexpr int N = 400;
  const std::int64_t Base = 0x1'2345'6789LL;
  for (std::int64_t Seed :
       {0LL, 42LL, 124LL, 54LL, 0xffffffffLL, 0x0000000fcafeb0baLL}) {
    Buffer<std::uint32_t> Words(4 * N);
    Buffer<std::uint32_t> Wide(4 * N);
    Buffer<float> Uniform(2 * N);
    CONFORMANCE_RUN(philox_streams, 128, Words, Wide, Uniform, Seed, Base, N);
    std::vector<std::uint32_t> WantWords(4 * N);
    std::vector<std::uint32_t> WantWide(4 * N);
    std::vector<float> WantUniform(2 * N);
    for (int I = 0; I < N; ++I) {
      const auto W = philoxReference(Seed, I);
      const auto V = philoxReference(Seed, Base + I);
      for (int K = 0; K < 4; ++K) {
        WantWords[K * N + I] = W[K];
        WantWide[K * N + I] = V[K];
      }
      WantUniform[I] = uniformReference(W[0]);
      WantUniform[N + I] = uniformReference(V[0]);
    }
    const std::string Row = "seed " + std::to_string(Seed);
    conformance::expectExact("philox_bitexact int32 offsets", Row,
                             Words.values(), WantWords);
    conformance::expectExact("philox_bitexact int64 offsets", Row,
                             Wide.values(), WantWide);
    conformance::expectExact("philox_bitexact rand", Row, Uniform.values(),
                             WantUniform);
  }
}

/// Case 11 (shape_ops): each result against its definition, element by
/// element (test_join, test_split, test_interleave, test_permute over the
/// 24 permutations, test_reshape's shapes, test_flip, test_cat; cat is
/// checked in order, which Triton does not promise but tilecc keeps).
template <class T, class Launch> void joinSplit(const char *Type, Launch Run) {
  constexpr int N = 128;
  std::vector<T> A(N), B(N), Joined(2 * N);
  for (int I = 0; I < N; ++I) {
    A[I] = static_cast<T>(static_cast<float>(I));
    B[I] = static_cast<T>(static_cast<float>(N + I));
    Joined[2 * I] = A[I];
    Joined[2 * I + 1] = B[I];
  }
  Buffer<T> BA(A), BB(B), J(2 * N), Inter(2 * N), P(N), Q(N);
  Run(BA, BB, J, Inter, P, Q);
  conformance::expectExact("shape_ops join", Type, J.values(), Joined);
  conformance::expectExact("shape_ops interleave", Type, Inter.values(),
                           Joined);
  conformance::expectExact("shape_ops split (first)", Type, P.values(), A);
  conformance::expectExact("shape_ops split (second)", Type, Q.values(), B);
}

template <int P> void permuteOne(const std::vector<float> &X) {
  constexpr int Shape[4] = {2, 2, 8, 64};
  std::array<int, 4> D{0, 1, 2, 3}; // the P-th in lexicographic order
  for (int I = 0; I < P; ++I)
    std::next_permutation(D.begin(), D.end());
  std::vector<float> Want(X.size());
  int Out[4];
  for (int I = 0; I < 4; ++I)
    Out[I] = Shape[D[I]];
  for (int K = 0; K < 2048; ++K) {
    int Index[4], Flat = K; // result coordinates
    for (int I = 4; I-- > 0; Flat /= Out[I])
      Index[I] = Flat % Out[I];
    int Src[4];
    for (int I = 0; I < 4; ++I)
      Src[D[I]] = Index[I];
    Want[K] = X[((Src[0] * 2 + Src[1]) * 8 + Src[2]) * 64 + Src[3]];
  }
  Buffer<float> BX(X), Got(2048);
  CONFORMANCE_RUN_CONFIG(permute4, P, P, BX, Got);
  conformance::expectExact("shape_ops permute (2,2,8,64)",
                           "dims " + std::to_string(D[0]) +
                               std::to_string(D[1]) + std::to_string(D[2]) +
                               std::to_string(D[3]),
                           Got.values(), Want);
}

void shapeOps() {
  joinSplit<int>(
      "int32", [](auto &...A) { CONFORMANCE_RUN(join_split_i32, 128, A...); });
  joinSplit<tile::half>("float16", [](auto &...A) {
    CONFORMANCE_RUN(join_split_f16, 128, A...);
  });

  std::uniform_int_distribution<int> Small(-3, 3);
  { // swiglu's halves: columns 2j and 2j + 1 of each row
    constexpr int M = 32, N = 64;
    std::vector<tile::half> X(M * 2 * N);
    for (auto &V : X)
      V = static_cast<tile::half>(static_cast<float>(Small(Rng)));
    std::vector<float> Want(M * N);
    for (int R = 0; R < M; ++R)
      for (int C = 0; C < N; ++C)
        Want[R * N + C] =
            float(X[R * 2 * N + 2 * C]) * float(X[R * 2 * N + 2 * C + 1]);
    Buffer<tile::half> BX(X);
    Buffer<float> Out(M * N);
    CONFORMANCE_RUN(swiglu_halves, 32, BX, Out);
    conformance::expectExact("shape_ops split of (rows, 2 x cols)", "float16",
                             Out.values(), Want);
  }
  { // tutorial 09's epilogue: the product's columns (2j, 2j + 1) go to
    // column j of the left and right halves
    constexpr int BM = 64, BN = 64, K = 32;
    std::vector<tile::half> A(BM * K), B(K * BN);
    for (auto &V : A)
      V = static_cast<tile::half>(static_cast<float>(Small(Rng)));
    for (auto &V : B)
      V = static_cast<tile::half>(static_cast<float>(Small(Rng)));
    std::vector<float> Want(BM * BN);
    for (int R = 0; R < BM; ++R)
      for (int C = 0; C < BN; ++C) {
        float Sum = 0;
        for (int I = 0; I < K; ++I)
          Sum += float(A[R * K + I]) * float(B[I * BN + C]);
        // (BM, 2, BN/2) permuted to (BM, BN/2, 2): element (r, h, j) of
        // the reshape is column h * BN/2 + j; split takes h.
        const int H = C / (BN / 2), J = C % (BN / 2);
        Want[R * BN + H * (BN / 2) + J] = Sum;
      }
    Buffer<tile::half> BA(A), BB(B);
    Buffer<float> Out(BM * BN);
    CONFORMANCE_RUN(epilogue_subtile, 64, BA, BB, Out);
    conformance::expectExact("shape_ops epilogue subtile (dot, reshape, "
                             "permute, split)",
                             "float16", Out.values(), Want);
  }

  std::vector<float> X(2048);
  for (int I = 0; I < 2048; ++I)
    X[I] = static_cast<float>(I);
  [&]<int... P>(std::integer_sequence<int, P...>) { (permuteOne<P>(X), ...); }
  (std::make_integer_sequence<int, 24>{});

  { // reshapes keep the row-major order; the 3-D one is then reduced
    Buffer<float> BX(X), Small8(64), Wide(64), Cube(2048), Sums(16),
        Nested(2048);
    CONFORMANCE_RUN(reshapes, 0, BX, Small8, Wide, Cube, Sums, Nested);
    std::vector<float> Sum(16, 0);
    for (int I = 0; I < 2048; ++I)
      Sum[I / 128] += X[I];
    conformance::expectExact("shape_ops reshape 64 -> 8x8", "float32",
                             Small8.values(),
                             std::vector<float>(X.begin(), X.begin() + 64));
    conformance::expectExact("shape_ops reshape 2x32 -> 16x4", "float32",
                             Wide.values(),
                             std::vector<float>(X.begin(), X.begin() + 64));
    conformance::expectExact("shape_ops reshape 64x32 -> 16x8x16", "float32",
                             Cube.values(), X);
    conformance::expectExact("shape_ops reshape then sum", "float32",
                             Sums.values(), Sum);
    conformance::expectExact("shape_ops 3-D offsets by nested expand_dims",
                             "float32", Nested.values(), X);
  }
  { // flip along each dimension of (8, 64); cat of 1-D and 2-D tiles
    constexpr int M = 8;
    Buffer<float> BX(X), Last(M * 64), First(M * 64), Cat1(256),
        Cat2(2 * M * 64);
    CONFORMANCE_RUN(flip_cat, 8, BX, Last, First, Cat1, Cat2);
    std::vector<float> WantLast(M * 64), WantFirst(M * 64), WantCat1(256),
        WantCat2(2 * M * 64);
    for (int R = 0; R < M; ++R)
      for (int C = 0; C < 64; ++C) {
        WantLast[R * 64 + C] = X[R * 64 + 63 - C];
        WantFirst[R * 64 + C] = X[(M - 1 - R) * 64 + C];
        WantCat2[R * 64 + C] = X[R * 64 + C];
        WantCat2[(M + R) * 64 + C] = 2 * X[R * 64 + C];
      }
    for (int I = 0; I < 128; ++I) {
      WantCat1[I] = X[I];
      WantCat1[128 + I] = X[1000 + I];
    }
    conformance::expectExact("shape_ops flip (last dim)", "float32",
                             Last.values(), WantLast);
    conformance::expectExact("shape_ops flip (dim 0)", "float32",
                             First.values(), WantFirst);
    conformance::expectExact("shape_ops cat 1-D", "float32", Cat1.values(),
                             WantCat1);
    conformance::expectExact("shape_ops cat 2-D", "float32", Cat2.values(),
                             WantCat2);
  }
}

/// Case 10 (sort_flip_topk): against std::sort with NaN after every
/// number; values drawn with repeats, NaN and infinities among the floats
/// (never -0.0, whose order beside 0.0 tile::sort leaves open).
template <class T> bool sortsBefore(T A, T B) {
  const double X = conformance::asDouble(A), Y = conformance::asDouble(B);
  return (!std::isnan(X) && std::isnan(Y)) || X < Y;
}

/// The shapes of the kernels' three configurations.
constexpr int SortShapes[3][2] = {{8, 64}, {512, 8}, {1, 512}};

template <class T, int S, class Launch>
void sortFlipTopk(const char *Type, Launch Run) {
  constexpr int M = SortShapes[S][0], N = SortShapes[S][1];
  std::uniform_int_distribution<int> U(-60, 60), Row(0, M - 1);
  std::vector<T> X(M * N);
  std::vector<int> Rows(M * N);
  for (int I = 0; I < M * N; ++I) {
    const int V = U(Rng);
    X[I] = static_cast<T>(static_cast<float>(V == 0 ? 1 : V));
    Rows[I] = Row(Rng);
  }
  if constexpr (!std::is_integral_v<T>) {
    X[1] = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
    X[M * N - 2] = static_cast<T>(std::numeric_limits<float>::infinity());
    X[M * N / 2] = static_cast<T>(-std::numeric_limits<float>::infinity());
  }
  std::vector<T> Up(X), Down(X), Top(M * 4), Flipped(X), Reversed(X), Picked(X);
  for (int R = 0; R < M; ++R) {
    auto Line = Up.begin() + R * N;
    std::sort(Line, Line + N, sortsBefore<T>);
    std::reverse_copy(Line, Line + N, Down.begin() + R * N);
    std::copy(Down.begin() + R * N, Down.begin() + R * N + 4,
              Top.begin() + R * 4);
    for (int C = 0; C < N; ++C) {
      Flipped[R * N + C] = Reversed[R * N + C] = X[R * N + N - 1 - C];
      Picked[R * N + C] = X[Rows[R * N + C] * N + C];
    }
  }
  Buffer<T> BX(X), BUp(M * N), BDown(M * N), BTop(M * 4), BFlip(M * N),
      BRev(M * N), BPick(M * N);
  Buffer<int> BRows(Rows);
  Run(BX, BRows, BUp, BDown, BTop, BFlip, BRev, BPick);
  const std::string Row2 =
      std::string(Type) + " " + std::to_string(M) + "x" + std::to_string(N);
  // NaN's place is checked, not its payload: Down puts it first.
  conformance::expectExact("sort_flip_topk sort", Row2, BUp.values(), Up);
  conformance::expectExact("sort_flip_topk sort descending", Row2,
                           BDown.values(), Down);
  conformance::expectExact("sort_flip_topk topk 4", Row2, BTop.values(), Top);
  conformance::expectExact("sort_flip_topk flip", Row2, BFlip.values(),
                           Flipped);
  conformance::expectExact("sort_flip_topk gather (reversed lines)", Row2,
                           BRev.values(), Reversed);
  conformance::expectExact("sort_flip_topk gather (rows by index)", Row2,
                           BPick.values(), Picked);
}

template <int S> void sortFlipTopkOfShape() {
  sortFlipTopk<int, S>("int32", [](auto &...A) {
    CONFORMANCE_RUN_CONFIG(sort_i32, S, S, A...);
  });
  sortFlipTopk<tile::half, S>("float16", [](auto &...A) {
    CONFORMANCE_RUN_CONFIG(sort_f16, S, S, A...);
  });
  sortFlipTopk<float, S>("float32", [](auto &...A) {
    CONFORMANCE_RUN_CONFIG(sort_f32, S, S, A...);
  });
  sortFlipTopk<tile::bfloat16, S>("bfloat16", [](auto &...A) {
    CONFORMANCE_RUN_CONFIG(sort_bf16, S, S, A...);
  });
}

void sortFlipTopkAll() {
  sortFlipTopkOfShape<0>();
  sortFlipTopkOfShape<1>();
  sortFlipTopkOfShape<2>();
}

int main() {
#ifdef CONFORMANCE_GPU
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
#endif
  vecAddTail();
  binopPromotionMatrix();
  castExhaustive();
  castsTowardZeroAll();
  weakScalarTyping();
  compareNan();
  maskedLoadOtherAll();
  accessHints();
  blockPointers();
  tensorDescriptors();
  blockMatmul();
  reduceSuiteAll();
  sumDtype();
  customTupleReduce();
  scanSuite();
  scanTypedAll();
  whereBroadcastAll();
  pointersFromAddresses();
  inlineAsm();
  inlineAsmPacked();
  histogramAll();
  sortFlipTopkAll();
  shapeOps();
  philoxMatchesTriton();
  philoxBitexact();
  dotBase();
  dot3dAndMulbroadcast();
  atomicsAll();
  controlFlow();
  tuplesAndCalls();
  return conformance::finish();
}
