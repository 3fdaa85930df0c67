//===- divisor_test.cpp - Division by a run-time invariant divisor --------===//
//
// tile/detail/divisor.hpp's multiply-and-shift quotients and remainders
// against C's `/` and `%`, on the host (the device runs the same code with
// the hardware's multiply-high).
//
//===----------------------------------------------------------------------===//

#include "tile/detail/divisor.hpp"

#include <doctest/doctest.h>

#include <climits>
#include <random>
#include <vector>

namespace {

using tile::detail::divisor;

template <class T> std::vector<T> interesting() {
  std::vector<T> V = {0, 1, 2, 3, 5, 7, 255, 256, 257, 1000, 4095, 4096, 65535};
  for (int Shift = 8; Shift < 32; ++Shift) {
    const T P = T(std::uint32_t(1) << Shift);
    V.insert(V.end(), {T(P - 1), P, T(P + 1)});
  }
  if constexpr (std::is_signed_v<T>) {
    const std::size_t N = V.size();
    for (std::size_t I = 0; I < N; ++I)
      V.push_back(T(-V[I]));
    V.insert(V.end(), {INT_MAX, INT_MIN, INT_MIN + 1});
  } else {
    V.insert(V.end(), {UINT_MAX, UINT_MAX - 1, 0x80000001u});
  }
  return V;
}

template <class T> void checkAgainstC(std::uint64_t Seed) {
  std::mt19937_64 Rng(Seed);
  std::vector<T> Divisors = interesting<T>(), Dividends = interesting<T>();
  for (int I = 0; I < 200; ++I) {
    Divisors.push_back(T(Rng()));
    Divisors.push_back(T(Rng() % 5000 + 1));
    Dividends.push_back(T(Rng()));
  }
  for (const T D : Divisors) {
    if (D == 0)
      continue;
    const divisor<T> By(D);
    for (const T N : Dividends) {
      // INT_MIN / -1 overflows in C; the divisor wraps to INT_MIN, remainder 0.
      if (std::is_signed_v<T> && D == T(-1) && N == T(INT_MIN)) {
        CHECK(By.quotient(N) == T(INT_MIN));
        CHECK(By.remainder(N) == 0);
        continue;
      }
      const T Q = T(N / D), R = T(N % D);
      if (By.quotient(N) != Q || By.remainder(N) != R) {
        FAIL_CHECK(N << " / " << D << ": " << By.quotient(N) << " rem "
                     << By.remainder(N) << ", C says " << Q << " rem " << R);
        return;
      }
    }
  }
}

} // namespace

TEST_CASE("divisor: int quotients and remainders as C computes them") {
  checkAgainstC<int>(1);
}

TEST_CASE("divisor: unsigned quotients and remainders as C computes them") {
  checkAgainstC<unsigned>(2);
}

TEST_CASE("divisor: every dividend below 2^20 by divisors of every size") {
  for (const unsigned D :
       {1u, 3u, 7u, 256u, 1000u, 12345u, 1u << 19, 1u << 31, 0xFFFFFFFFu}) {
    const divisor<unsigned> By(D);
    for (unsigned N = 0; N < (1u << 20); ++N)
      if (By.quotient(N) != N / D) {
        FAIL_CHECK(N << " / " << D);
        break;
      }
  }
}

TEST_CASE("divisor: a zero divisor is made without dividing by zero") {
  const divisor<int> By(0);
  CHECK(By.remainder(17) == 17); // unspecified, but defined
}
