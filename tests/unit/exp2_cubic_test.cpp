//===- exp2_cubic_test.cpp - 2^x from a cubic on the FMA units ------------===//
//
// tile/detail/exp2_cubic.hpp against exp2 in double precision, on the host
// (the device runs the same arithmetic: fused multiply-adds, the same
// rounding of the biased sum, max.NaN and min.NaN for the clamps).
//
//===----------------------------------------------------------------------===//

#include "tile/detail/exp2_cubic.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

using tile::detail::exp2_cubic;

TEST_CASE("exp2_cubic is within 7.5e-5 of 2^x over the normal range") {
  double Worst = 0;
  // Every fraction at a step of 2^-10 across each exponent, and the
  // neighbours of the polynomial's seams at half-integers.
  for (int I = -126 * 1024; I < 127 * 1024 + 512; ++I) {
    const float X = float(I) / 1024.0f;
    for (float Y : {X, std::nextafter(X, -200.0f), std::nextafter(X, 200.0f)}) {
      if (Y < -126.0f || Y >= 127.5f)
        continue;
      const double Want = std::exp2(double(Y));
      Worst = std::max(Worst, std::fabs(exp2_cubic(Y) - Want) / Want);
    }
  }
  CHECK(Worst < 7.5e-5);
  CHECK(Worst > 7.0e-5); // the minimax error, reached: the sweep is dense
}

TEST_CASE("exp2_cubic's ends: zero below 2^-126.5, infinity above 2^127.5") {
  const float Inf = std::numeric_limits<float>::infinity();
  CHECK(exp2_cubic(-Inf) == 0.0f);
  CHECK(exp2_cubic(-1000.0f) == 0.0f);
  CHECK(exp2_cubic(-127.0f) == 0.0f);
  CHECK(exp2_cubic(-126.6f) == 0.0f);
  CHECK(exp2_cubic(-126.4f) > 0.0f);
  CHECK(std::isfinite(exp2_cubic(127.5f)));
  CHECK(exp2_cubic(127.6f) == Inf);
  CHECK(exp2_cubic(128.0f) == Inf);
  CHECK(exp2_cubic(1.0e30f) == Inf);
  CHECK(exp2_cubic(Inf) == Inf);
  CHECK(std::isnan(exp2_cubic(std::numeric_limits<float>::quiet_NaN())));
}
