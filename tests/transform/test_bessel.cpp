// J0, J1 and their zeros (gpu/transform/bessel.hpp) against independent values:
// std::cyl_bessel_j (libstdc++), 30-digit mpmath values, and A&S Table 9.5.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu/transform/bessel.hpp"

using geobem::transform::bessel_j01;
using geobem::transform::bessel_zero;

TEST(Bessel, MatchesStdCylBesselJ) {
  // libstdc++'s own error grows with x (about 1e-14 at x = 200), so the
  // comparison tolerance does too; the tight check is the mpmath test below.
  double worst0 = 0.0, worst1 = 0.0;
  for (double x = 0.0; x < 200.0; x += 0.0137) {
    double j0, j1;
    bessel_j01(x, j0, j1);
    const double allowed = 3e-15 + 2e-16 * x;
    worst0 = std::fmax(worst0, std::fabs(j0 - std::cyl_bessel_j(0.0, x)) / allowed);
    worst1 = std::fmax(worst1, std::fabs(j1 - std::cyl_bessel_j(1.0, x)) / allowed);
  }
  EXPECT_LT(worst0, 1.0);
  EXPECT_LT(worst1, 1.0);
}

TEST(Bessel, MatchesThirtyDigitValues) {
  // mpmath.besselj(nu, x) with mp.dps = 30, rounded to 20 digits.
  const struct { double x, j0, j1; } values[] = {
      {0.5, 0.93846980724081290423, 0.24226845767487388638},
      {3.7, -0.39923020337119111533, 0.053833987745461790513},
      {12.3, 0.11079795030758543979, -0.1942588480405913927},
      {19.9, 0.17287775639261846235, 0.050117424807379740922},
      {20.1, 0.15953606793729709074, 0.082801005760209763489},
      {35.0, -0.12684568275631256981, 0.04399094217962563997},
      {197.173, -0.0021261782156599976258, 0.056776883588719113274},
      {1000.3, 0.022282634083430912748, 0.011839621285186727878},
  };
  for (const auto& v : values) {
    double j0, j1;
    bessel_j01(v.x, j0, j1);
    EXPECT_NEAR(j0, v.j0, 1e-15) << "x = " << v.x;
    EXPECT_NEAR(j1, v.j1, 1e-15) << "x = " << v.x;
  }
  double j0, j1;
  bessel_j01(-3.7, j0, j1);  // J0 even, J1 odd
  EXPECT_NEAR(j0, -0.39923020337119111533, 1e-15);
  EXPECT_NEAR(j1, -0.053833987745461790513, 1e-15);
}

TEST(Bessel, ZerosMatchTablesAndVanish) {
  // Abramowitz & Stegun Table 9.5.
  EXPECT_NEAR(bessel_zero(0, 1), 2.404825557695773, 1e-14);
  EXPECT_NEAR(bessel_zero(0, 2), 5.520078110286311, 1e-14);
  EXPECT_NEAR(bessel_zero(1, 1), 3.831705970207512, 1e-14);
  EXPECT_NEAR(bessel_zero(1, 2), 7.015586669815619, 1e-14);
  for (int nu = 0; nu < 2; ++nu) {
    double previous = 0.0;
    for (int s = 1; s <= 60; ++s) {  // up to x ~ 190, where std::cyl_bessel_j is still good to ~2e-14
      const double zero = bessel_zero(nu, s);
      if (s > 1) {
        EXPECT_GT(zero, previous + 3.0) << "nu " << nu << " s " << s;  // increasing, spacing ~ pi
      }
      EXPECT_LT(std::fabs(std::cyl_bessel_j(static_cast<double>(nu), zero)), 5e-15 + 2e-16 * zero)
          << "nu " << nu << " s " << s;
      previous = zero;
    }
  }
}
