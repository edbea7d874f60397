// Two-phase Genz–Malik cubature on the CPU: rule exactness, Genz families vs
// closed forms, the prism g_z of docs/references.md#prism-gravity, error-estimate reliability on
// a random battery, OpenMP really parallel, bad input.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <atomic>
#include <random>
#include <stdexcept>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/quadrature/cubature.hpp"
#include "gpu/quadrature/cubature_cpu.hpp"
#include "gpu/quadrature/genz_malik_degree9_rule.hpp"
#include "tests/quadrature/battery.hpp"
#include "tests/quadrature/capped_cases.hpp"

using namespace geobem::quadrature;
using geobem::ComputeDevice;

namespace {

CubatureOptions options_for(int n, double rel_tol, double abs_tol = 0.0) {
  CubatureOptions o;
  o.dim = n;
  o.rel_tol = rel_tol;
  o.abs_tol = abs_tol;
  o.min_regions = 64;
  return o;
}

// Π x_i^{e_i} with Σ e_i ≤ 7: the degree-7 rule integrates it exactly.
struct Monomial {
  int exponent[kMaxCubatureDim];
  double operator()(const double* x, int n) const {
    double p = 1.0;
    for (int i = 0; i < n; ++i) p *= std::pow(x[i], exponent[i]);
    return p;
  }
};

}  // namespace

TEST(GenzMalikRule, PointCountMatchesFormula) {
  EXPECT_EQ(genz_malik_point_count(2), 4 + 8 + 4 + 1);
  EXPECT_EQ(genz_malik_point_count(7), 128 + 98 + 14 + 1);
  EXPECT_EQ(genz_malik_point_count(10), 1024 + 200 + 20 + 1);
}

TEST(GenzMalikRule, ExactForDegreeSevenMonomials) {
  // On [0,1]×[−1,2]×[0.5,1.5]: ∫ x^3 y^2 z^2 = (1/4)(3)(∫z^2) and friends.
  for (int n : {3, 5, 10}) {
    Monomial f{};
    f.exponent[0] = 3;
    f.exponent[1] = 2;
    f.exponent[n - 1] += 2;
    CubatureRegion region{};
    const double lower[3] = {0.0, -1.0, 0.5}, upper[3] = {1.0, 2.0, 1.5};
    double exact = 1.0;
    for (int i = 0; i < n; ++i) {
      const double a = i < 3 ? lower[i] : 0.0, b = i < 3 ? upper[i] : 1.0;
      region.center[i] = 0.5 * (a + b);
      region.halfwidth[i] = 0.5 * (b - a);
      const int e = f.exponent[i];
      exact *= (std::pow(b, e + 1) - std::pow(a, e + 1)) / (e + 1);
    }
    apply_genz_malik(f, n, region);
    EXPECT_NEAR(region.estimate, exact, 1e-13 * std::fabs(exact)) << "n = " << n;
  }
}

TEST(GenzMalikDegree9Rule, ExactForEveryMonomialUpToDegreeNineAndNotEleven) {
  // Every monomial Π x_i^{e_i} of degree ≤ 9 on the first four axes of an
  // off-centre box (so odd powers are not zero by symmetry), in 2–10
  // dimensions, against its closed form; x_0^11 (and x_0^10) must miss.
  for (int n = 2; n <= kMaxCubatureDim; ++n) {
    const Degree9Rule rule = degree9_rule(n);
    CubatureRegion region{};
    for (int i = 0; i < n; ++i) {
      region.center[i] = 0.3 + 0.1 * i;
      region.halfwidth[i] = 0.5 + 0.05 * i;
    }
    const auto exact_for = [&](const Monomial& f) {
      double exact = 1.0;
      for (int i = 0; i < n; ++i) {
        const double a = region.center[i] - region.halfwidth[i], b = region.center[i] + region.halfwidth[i];
        const int e = f.exponent[i];
        exact *= (std::pow(b, e + 1) - std::pow(a, e + 1)) / (e + 1);
      }
      return exact;
    };
    const int axes = std::min(n, 4);
    int tested = 0;
    for (int code = 0; code < 10000; ++code) {
      Monomial f{};
      int degree = 0;
      for (int i = 0, c = code; i < 4; ++i, c /= 10) {
        if (i >= axes && c % 10 != 0) degree = 100;
        if (i < axes) f.exponent[i] = c % 10;
        degree += c % 10;
      }
      if (degree > 9) continue;
      double abs_sum = 0.0;
      const double estimate = apply_degree9(f, n, rule, region, &abs_sum);
      const double exact = exact_for(f);
      ASSERT_NEAR(estimate, exact, 1e-13 * abs_sum) << "n = " << n << ", exponents " << code;
      ++tested;
    }
    EXPECT_GE(tested, 55);  // the 55 monomials of degree ≤ 9 in two variables, more above
    for (int e : {10, 11}) {
      Monomial f{};
      f.exponent[0] = e;
      double abs_sum = 0.0;
      const double exact = exact_for(f);
      EXPECT_GT(std::fabs(apply_degree9(f, n, rule, region, &abs_sum) - exact), 1e-6 * std::fabs(exact))
          << "n = " << n << ": degree " << e << " integrated exactly";
    }
    EXPECT_EQ(degree9_point_count(n), 1 + 6 * n + 6 * n * (n - 1) + 4 * n * (n - 1) * (n - 2) / 3 + (1 << n));
  }
  EXPECT_EQ(degree9_point_count(8), 1089);
}

TEST(GenzMalikRule, SplitsAlongTheAxisWhereFVaries) {
  struct Quartic {
    double operator()(const double* x, int) const { return std::pow(x[2], 6); }
  };
  CubatureRegion region{};
  for (int i = 0; i < 4; ++i) region.center[i] = region.halfwidth[i] = 0.5;
  apply_genz_malik(Quartic{}, 4, region);
  EXPECT_EQ(region.split_axis, 2);
}

// Weight of the rule (basic = −1, else null rule k) at point p of the n-D rule.
double weight_at_point(const GenzMalikWeights& w, int rule, int p, int n) {
  int slot = 0;
  const int orbit = static_cast<int>(genz_malik_class(p, n, &slot));
  return rule < 0 ? w.basic[orbit] : w.null[rule][orbit];
}

TEST(GenzMalikRule, NullRulesHaveTheirDegreeAreOrthogonalAndShareTheBasicNorm) {
  // Null rule k integrates every monomial of degree ≤ its degree to zero and
  // misses some monomial of degree + 1 (Berntsen, Espelid & Genz 1991, section 4).
  const int degree[4] = {5, 3, 3, 1};
  for (int n : {2, 3, 5, 7, 10}) {
    const GenzMalikWeights w = genz_malik_weights(n);
    const int points = genz_malik_point_count(n);
    CubatureRegion unit{};
    for (int i = 0; i < n; ++i) unit.halfwidth[i] = 1.0;
    std::vector<std::vector<double>> x(points, std::vector<double>(n));
    for (int p = 0; p < points; ++p) genz_malik_point(p, n, unit, x[p].data());
    const auto apply = [&](int rule, int e0, int e1, int e2) {
      double sum = 0.0;
      for (int p = 0; p < points; ++p)
        sum += weight_at_point(w, rule, p, n) * std::pow(x[p][0], e0) * std::pow(x[p][1], e1) *
               (n > 2 ? std::pow(x[p][2], e2) : (e2 == 0 ? 1.0 : 0.0));
      return sum;
    };
    double basic_norm = 0.0;
    for (int p = 0; p < points; ++p) basic_norm += std::pow(weight_at_point(w, -1, p, n), 2);
    for (int k = 0; k < 4; ++k) {
      double largest_miss = 0.0;
      for (int e0 = 0; e0 <= 6; ++e0)
        for (int e1 = 0; e0 + e1 <= 6; ++e1)
          for (int e2 = 0; e0 + e1 + e2 <= 6; ++e2) {
            const int d = e0 + e1 + e2;
            if (n == 2 && e2 > 0) continue;
            const double value = apply(k, e0, e1, e2);
            if (d <= degree[k])
              EXPECT_NEAR(value, 0.0, 1e-12) << "null rule " << k << " n=" << n << " x^" << e0 << " y^" << e1 << " z^" << e2;
            else if (d == degree[k] + 1)
              largest_miss = std::max(largest_miss, std::fabs(value));
          }
      EXPECT_GT(largest_miss, 1e-3) << "null rule " << k << " n=" << n << " is of higher degree than " << degree[k];
      double norm = 0.0;
      for (int p = 0; p < points; ++p) norm += std::pow(weight_at_point(w, k, p, n), 2);
      EXPECT_NEAR(norm, basic_norm, 1e-12 * basic_norm) << "null rule " << k << " n=" << n;
      for (int j = 0; j < k; ++j) {
        double dot = 0.0;
        for (int p = 0; p < points; ++p) dot += weight_at_point(w, k, p, n) * weight_at_point(w, j, p, n);
        EXPECT_NEAR(dot, 0.0, 1e-12 * basic_norm) << "null rules " << j << ", " << k << " n=" << n;
      }
    }
  }
}

TEST(GenzMalikRule, ErrorEstimateBoundsTheDegreeSevenErrorWithinTheDegreeFiveOrder) {
  // exp(Σ c_i x_i) on cubes of side h: the degree-7 rule errs by O(h^{n+8});
  // the estimate (DCUHRE's E1, the degree-5 null rule, where the null rules
  // decay) is O(h^{n+6}): it must bound the error and overstate it by no more
  // than the h² between the two orders allows.
  struct Exponential {
    double operator()(const double* x, int n) const {
      double s = 0.0;
      for (int i = 0; i < n; ++i) s += (1.0 + 0.5 * i) * x[i];
      return std::exp(s);
    }
  };
  for (int n : {4, 7}) {
    for (double h : {0.4, 0.2, 0.1}) {
      CubatureRegion region{};
      double exact = 1.0;
      for (int i = 0; i < n; ++i) {
        region.center[i] = 0.3 + 0.5 * h;
        region.halfwidth[i] = 0.5 * h;
        const double c = 1.0 + 0.5 * i;
        exact *= (std::exp(c * (0.3 + h)) - std::exp(c * 0.3)) / c;
      }
      apply_genz_malik(Exponential{}, n, region);
      const double true_error = std::fabs(region.estimate - exact);
      EXPECT_LE(true_error, region.error) << "n=" << n << " h=" << h;
      EXPECT_LE(region.error, 200.0 * (0.4 / h) * (0.4 / h) * true_error) << "n=" << n << " h=" << h;
    }
  }
}

struct GenzCase {
  CubatureFamily family;
  int dim;
  double a, u;
};

class GenzFamilies : public ::testing::TestWithParam<GenzCase> {};

TEST_P(GenzFamilies, MatchesClosedFormWithinTolerance) {
  const GenzCase c = GetParam();
  const CubatureIntegrand f = make_cubature_integrand(c.family, c.dim, c.a, c.u);
  const double exact = genz_exact_integral(f, c.dim);
  const double rel_tol = 1e-6;
  const CubatureResult result = integrate_cubature(f, options_for(c.dim, rel_tol), ComputeDevice::Cpu);
  ASSERT_EQ(result.status, IntegrationStatus::Converged) << to_string(c.family) << " n=" << c.dim;
  const double true_error = std::fabs(result.estimate - exact);
  EXPECT_LE(true_error, rel_tol * std::fabs(exact)) << to_string(c.family) << " n=" << c.dim;
  EXPECT_LE(true_error, result.error) << to_string(c.family) << " n=" << c.dim;
  EXPECT_LE(result.error, rel_tol * std::fabs(result.estimate));
}

INSTANTIATE_TEST_SUITE_P(
    SeveralDimensions, GenzFamilies,
    ::testing::Values(GenzCase{cubature_family<GenzOscillatory>, 2, 4.0, 0.3}, GenzCase{cubature_family<GenzOscillatory>, 5, 1.5, 0.3},
                      GenzCase{cubature_family<GenzProductPeak>, 2, 5.0, 0.4}, GenzCase{cubature_family<GenzProductPeak>, 4, 3.0, 0.6},
                      GenzCase{cubature_family<GenzCornerPeak>, 3, 1.0, 0.0}, GenzCase{cubature_family<GenzCornerPeak>, 5, 0.5, 0.0},
                      GenzCase{cubature_family<GenzGaussian>, 3, 3.0, 0.45}, GenzCase{cubature_family<GenzGaussian>, 6, 1.5, 0.5},
                      GenzCase{cubature_family<GenzContinuous>, 2, 2.0, 0.5}, GenzCase{cubature_family<GenzContinuous>, 3, 1.0, 0.5},
                      GenzCase{cubature_family<GenzDiscontinuous>, 2, 1.0, 0.5},
                      GenzCase{cubature_family<GenzDiscontinuous>, 3, 0.5, 0.7}));

TEST(Cubature, PrismVerticalGravityMatchesClosedForm) {
  // g_z (positive down) = G ρ ∫ (z_s − z') / r³ dV over the first prism of
  // docs/references.md#prism-gravity, station (0, 0, 30); 1e5 converts m/s² to mGal.
  struct PrismGz {
    double operator()(const double* x, int) const {
      const double dx = x[0], dy = x[1], dz = x[2] - 30.0;
      const double r2 = dx * dx + dy * dy + dz * dz;
      return 6.67430e-11 * 2670.0 * 1e5 * (-dz) / (r2 * std::sqrt(r2));
    }
  };
  CubatureOptions o = options_for(3, 1e-9);
  o.lower = {-34.0, -18.0, -345.0};
  o.upper = {5.0, 14.0, -146.0};
  const CubatureResult result = cpu_integrate_cubature(PrismGz{}, o);
  ASSERT_EQ(result.status, IntegrationStatus::Converged);
  EXPECT_NEAR(result.estimate, 0.06629132, 5e-9);  // reference given to 7 significant digits
}

TEST(Cubature, ErrorEstimateBoundsTrueErrorOnRandomBattery) {
  // The honest-status rule (tests/quadrature/battery.hpp) at 1e-3 and 1e-4,
  // the tolerances cubature is mostly used at (test_cubature_battery.cpp
  // takes 1e-6, 1e-10, 1e-12): all six Genz families in 2–8 dimensions, a
  // log-uniform over the documented range and u uniform over [0, 1] (edges
  // 5% each), against Genz's closed forms in long double, at a cap of 2e7
  // evaluations. (Equal a_i: with distinct ones the corner peak's closed form
  // is an alternating sum that cancels to 1e-3 in 8D at a = 0.01.)
  namespace b = geobem::battery;
  std::mt19937_64 random(20261122);
  for (CubatureFamily family : b::kGenzFamilies)
    for (double rel_tol : {1e-3, 1e-4}) {
      b::Tally tally;
      for (int row = 0; row < 8; ++row) {
        const b::CubatureDraw d = b::draw_cubature(random, family, 8);
        const CubatureResult r =
            integrate_cubature(b::cubature_integrand(d), b::cubature_options(d, rel_tol, 2e7), ComputeDevice::Cpu);
        tally.add(b::cubature_row(d, rel_tol, r));
        b::print_if_noteworthy(d, rel_tol, r);
      }
      EXPECT_TRUE(tally.rule()) << tally.line(to_string(family), rel_tol);
    }
}

TEST(Cubature, PhaseOneRetiresRegionsWithinTheirShare) {
  // A peak: most of the box is smooth and retires early; what retired keeps
  // below 0.9 of the tolerance, and the whole bounds the true error.
  const CubatureIntegrand f = make_cubature_integrand(cubature_family<GenzProductPeak>, 4, 10.0, 0.3);
  CubatureOptions o = options_for(4, 1e-6);
  o.min_regions = 1 << 16;
  const CubaturePhaseOne one = cubature_phase_one(f, o, ComputeDevice::Cpu);
  const double exact = genz_exact_integral(f, 4);
  ASSERT_TRUE(one.converged);
  EXPECT_GT(one.retired_regions, 0u);
  EXPECT_LE(one.retired_error, 0.9 * 1e-6 * std::fabs(one.estimate));
  EXPECT_LE(one.error, 1e-6 * std::fabs(one.estimate));
  EXPECT_LE(std::fabs(one.estimate - exact), one.error);
  const CubatureResult result = integrate_cubature(f, o, ComputeDevice::Cpu);
  EXPECT_EQ(result.estimate, one.estimate);
  EXPECT_EQ(result.regions, one.retired_regions + one.live_regions);
}

TEST(Cubature, PhaseTwoCapsShareTheRemainderAndBoundEachRegion) {
  CubaturePhaseOne one;
  const double errors[4] = {1.0, 0.0, 3.0, 4.0};
  one.live_regions = 4;
  one.live_error = 8.0;
  one.estimate = 100.0;
  one.retired_error = 0.01;
  // 2D: P7 = 17 and P9 = 29 points. Of 12,716 evaluations the degree-9
  // check takes P9 per final region: 29·(4 live regions + 6,800 / (2·17)
  // splits) = 5,916, leaving 6,800 for refining.
  const PhaseTwoShares shares = phase_two_shares(one, options_for(2, 1e-3), 12716);
  EXPECT_TRUE(shares.check);
  EXPECT_EQ(shares.remaining, 6800.0);
  // Half of 6800 evenly (850 each), half by error share (425, 0, 1275, 1700).
  const std::uint64_t caps[4] = {1275, 850, 2125, 2550};
  // 0.9·(1e-3·100) − 0.01 = 0.08, shared in proportion to the errors 1 : 0 : 3 : 4.
  const double budgets[4] = {0.01, 0.0, 0.03, 0.04};
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(shares.region_cap(errors[r]), caps[r]) << r;
    EXPECT_NEAR(shares.region_budget(errors[r]), budgets[r], 1e-15) << r;
  }
  // Too little for a check of every live region: all of it goes to refining.
  const PhaseTwoShares scarce = phase_two_shares(one, options_for(2, 1e-3), 4 * 29);
  EXPECT_FALSE(scarce.check);
  EXPECT_EQ(scarce.remaining, 116.0);
}

TEST(Cubature, PhaseOneReportsTheLiveRegionsAndTheirError) {
  CubatureOptions o = options_for(3, 1e-12);
  o.min_regions = 64;
  const CubaturePhaseOne one = cubature_phase_one(make_cubature_integrand(cubature_family<GenzGaussian>, 3, 2.0, 0.4), o,
                                                  ComputeDevice::Cpu);
  ASSERT_FALSE(one.converged);
  ASSERT_EQ(one.regions.size(), one.live_regions);
  double live_error = 0.0;
  for (const CubatureRegion& region : one.regions) live_error += region.error;
  EXPECT_EQ(one.live_error, live_error);
  EXPECT_NEAR(one.error, one.retired_error + live_error, 1e-12 * one.error);
}

TEST(Cubature, TwoLevelChangeGoesToTheChildrenByTheirErrors) {
  CubatureRegion lower{}, upper{};
  lower.estimate = 0.30;
  upper.estimate = 0.50;
  lower.error = 1e-3;
  upper.error = 3e-3;
  apply_two_level_error(0.84, lower, upper);  // |0.84 − 0.30 − 0.50| = 0.04
  EXPECT_NEAR(lower.change, 0.01, 1e-15);
  EXPECT_NEAR(upper.change, 0.03, 1e-15);
  EXPECT_TRUE(std::isnan(initial_region(options_for(3, 1e-6)).change));  // the box has no parent
}

TEST(Cubature, CappedRunConvergesOnTheTwoLevelEstimateWithinItsTolerance) {
  // The summed CUHRE errors (each the degree-5 rule's difference) stay 35×
  // above the target, the two-level changes (the degree-7 rule's own error)
  // meet it; the closed form says the value is within both.
  const test_cases::CappedCase& c = test_cases::kConvergesOnTwoLevel;
  const CubatureIntegrand f = c.integrand();
  CubatureOptions o = c.options();
  const double exact = c.exact();
  const CubaturePhaseOne one = cubature_phase_one(f, o, ComputeDevice::Cpu);
  ASSERT_FALSE(one.converged);
  EXPECT_GT(one.error, 10.0 * cubature_target(o, one.estimate));
  const CubatureResult result = integrate_cubature(f, o, ComputeDevice::Cpu);
  EXPECT_EQ(result.status, IntegrationStatus::Converged);
  EXPECT_LE(result.error, cubature_target(o, result.estimate));
  EXPECT_LE(std::fabs(result.estimate - exact), result.error);
  EXPECT_LE(result.evaluations, o.max_evaluations);
  // Before the minimum grid the second estimate is not consulted.
  o.max_evaluations = 20'000;
  EXPECT_EQ(integrate_cubature(f, o, ComputeDevice::Cpu).status, IntegrationStatus::EvaluationCapReached);
}

TEST(Cubature, CappedRunConvergesOnTheDegreeNineCheckWithinItsTolerance) {
  // The summed CUHRE errors and the two-level estimate miss the target; the
  // degree-9 check of the regions stopped by their caps meets it, and the
  // closed form says the value is within it. The check's evaluations come
  // out of the cap.
  const test_cases::CappedCase& c = test_cases::kConvergesOnDegreeNine;
  const CubatureOptions o = c.options();
  const double exact = c.exact();
  const CubatureResult result = integrate_cubature(c.integrand(), o, ComputeDevice::Cpu);
  EXPECT_EQ(result.status, IntegrationStatus::Converged);
  ASSERT_GT(result.checked_regions, 0u);
  EXPECT_EQ(result.error, degree9_error(result.unchecked_error, result.check_change, result.check_abs_change,
                                       result.check_credit, result.check_rounding));
  EXPECT_LE(result.error, cubature_target(o, result.estimate));
  EXPECT_LE(std::fabs(result.estimate - exact), result.error);
  EXPECT_LE(result.evaluations, o.max_evaluations);
  EXPECT_GE(result.evaluations, result.checked_regions * static_cast<std::uint64_t>(degree9_point_count(c.dim)));
}

TEST(Cubature, DegreeNineCheckCreditsLimitedCancellation) {
  // Regions too large for the degree-9 rule, whose differences from Q7
  // cancel where the errors do not. Credited in full, the cancellation made
  // the run converge 36× off its tolerance; the run must end flagged, its
  // error column above its error.
  const test_cases::CappedCase& c = test_cases::kDegreeNineCancels;
  const double exact = c.exact();
  const CubatureResult result = integrate_cubature(c.integrand(), c.options(), ComputeDevice::Cpu);
  EXPECT_EQ(result.status, IntegrationStatus::EvaluationCapReached);
  EXPECT_GT(result.checked_regions, 0u);
  EXPECT_GT(result.check_abs_change, 10.0 * std::fabs(result.check_change));
  EXPECT_EQ(result.check_credit, kDegree9Cancellation);  // a positive integrand: C_f <= 1
  EXPECT_LE(std::fabs(result.estimate - exact), result.error);
}

TEST(Cubature, DegreeNineCheckCreditsTheCancellationOfAnOscillatingIntegrand) {
  // Q9 − Q7 cancels 10³-fold over the final regions and the integrand about
  // as much: the credit follows it, the run converges, and the closed form
  // says the value is within the estimate. Credited tenfold it would not.
  const test_cases::CappedCase& c = test_cases::kConvergesOnCreditedCancellation;
  const CubatureOptions o = c.options();
  const double exact = c.exact();
  const CubatureResult result = integrate_cubature(c.integrand(), o, ComputeDevice::Cpu);
  const double target = cubature_target(o, result.estimate);
  EXPECT_EQ(result.status, IntegrationStatus::Converged);
  ASSERT_GT(result.checked_regions, 0u);
  EXPECT_GT(result.check_credit, 100.0);
  EXPECT_GT(kDegree9Margin * result.check_abs_change / kDegree9Cancellation, target);
  EXPECT_EQ(result.error, degree9_error(result.unchecked_error, result.check_change, result.check_abs_change,
                                       result.check_credit, result.check_rounding));
  EXPECT_LE(result.error, target);
  EXPECT_LE(std::fabs(result.estimate - exact), result.error);
  EXPECT_LE(result.evaluations, o.max_evaluations);
}

TEST(Cubature, RunWhoseRoundingAloneMissesTheToleranceIsRoundingLimited) {
  // No refinement lowers ε·∫|f|: the status says so rather than asking for
  // evaluations, the error column still bounds the true error, and at a
  // tolerance the rounding allows the same run is only capped.
  const test_cases::CappedCase& c = test_cases::kRoundingLimited;
  CubatureOptions o = c.options();
  const double exact = c.exact();
  const CubatureResult limited = integrate_cubature(c.integrand(), o, ComputeDevice::Cpu);
  EXPECT_EQ(limited.status, IntegrationStatus::RoundingLimited);
  EXPECT_GT(limited.check_rounding, cubature_target(o, limited.estimate));
  EXPECT_LE(std::fabs(limited.estimate - exact), limited.error);
  o.rel_tol = 1e-10;
  const CubatureResult capped = integrate_cubature(c.integrand(), o, ComputeDevice::Cpu);
  EXPECT_EQ(capped.status, IntegrationStatus::EvaluationCapReached);
  EXPECT_LT(capped.check_rounding, cubature_target(o, capped.estimate));
}

TEST(Cubature, DegreeNineCancellationCreditIsTheSmallerCancellationOverThree) {
  // (Σ N1, Σ |N1|, Σ a7, estimate): both measures cancel 10⁴- and 10⁵-fold;
  // a positive integrand (Σ a7 = |I|); f plus a constant (its integral
  // cancels, its null rule values do not); nothing to measure.
  EXPECT_DOUBLE_EQ(degree9_cancellation_credit(1e-8, 1e-4, 1.0, 1e-5), 1e4 / kDegree9CreditShare);
  EXPECT_DOUBLE_EQ(degree9_cancellation_credit(-1e-8, 1e-3, 1.0, -1e-4), 1e4 / kDegree9CreditShare);
  EXPECT_EQ(degree9_cancellation_credit(1e-12, 1e-6, 2.0, 2.0), kDegree9Cancellation);
  EXPECT_EQ(degree9_cancellation_credit(1e-6, 1e-6, 1.0, 1e-9), kDegree9Cancellation);
  EXPECT_EQ(degree9_cancellation_credit(0.0, 0.0, 0.0, 0.0), kDegree9Cancellation);
}

TEST(Cubature, ArumugamF4LowDimensionMatchesNestedQuadrature) {
  // 2D f4 = sin(asin(x) asin(y)); substituting x = sin θ, y = sin φ gives
  // ∫∫ sin(θφ) cos θ cos φ over [0, π/2]², a smooth integrand: tensor Gauss–Legendre check.
  const CubatureIntegrand f = make_cubature_integrand(cubature_family<ArumugamF4>, 2);
  const CubatureResult result = integrate_cubature(f, options_for(2, 1e-7), ComputeDevice::Cpu);
  struct Smooth {
    double operator()(const double* t, int) const { return std::sin(t[0] * t[1]) * std::cos(t[0]) * std::cos(t[1]); }
  };
  CubatureOptions o = options_for(2, 1e-12);
  o.lower = {0.0, 0.0};
  o.upper = {geobem::kPi / 2, geobem::kPi / 2};
  const CubatureResult reference = cpu_integrate_cubature(Smooth{}, o);
  ASSERT_EQ(result.status, IntegrationStatus::Converged);
  EXPECT_NEAR(result.estimate, reference.estimate, 1e-7 * reference.estimate);
}

TEST(Cubature, CpuDriverUsesSeveralThreads) {
  if (geobem::cpu_thread_count() < 2) GTEST_SKIP() << "one OpenMP thread available";
  // The team size seen by the integrand, not which threads happened to run:
  // on a loaded machine one thread may take every chunk of a short loop.
  static std::atomic<int> largest_team{0};
  struct Recorder {
    double operator()(const double* x, int) const {
      int team = omp_get_num_threads(), seen = largest_team.load();
      while (team > seen && !largest_team.compare_exchange_weak(seen, team)) {
      }
      return std::exp(std::sin(10.0 * x[0] * x[1] + x[2]));
    }
  };
  CubatureOptions o = options_for(3, 1e-12);
  o.min_regions = 256;
  o.max_evaluations = 200'000;
  cpu_integrate_cubature(Recorder{}, o);
  EXPECT_GT(largest_team.load(), 1);
}

TEST(Cubature, EvaluationCapGivesStatusNotSilentNumber) {
  const CubatureIntegrand f = make_cubature_integrand(cubature_family<ArumugamF1>, 5);
  CubatureOptions o = options_for(5, 1e-10);
  o.max_evaluations = 100'000;
  const CubatureResult result = integrate_cubature(f, o, ComputeDevice::Cpu);
  EXPECT_EQ(result.status, IntegrationStatus::EvaluationCapReached);
  EXPECT_LE(result.evaluations, o.max_evaluations);
  EXPECT_GT(result.error, 1e-10 * std::fabs(result.estimate));
}

TEST(Cubature, RejectsBadOptions) {
  const CubatureIntegrand f = make_cubature_integrand(cubature_family<ArumugamF1>, 3);
  EXPECT_THROW(integrate_cubature(f, options_for(1, 1e-3), ComputeDevice::Cpu), std::invalid_argument);
  EXPECT_THROW(integrate_cubature(f, options_for(11, 1e-3), ComputeDevice::Cpu), std::invalid_argument);
  EXPECT_THROW(integrate_cubature(f, options_for(3, -1e-3), ComputeDevice::Cpu), std::invalid_argument);
  EXPECT_THROW(integrate_cubature(f, options_for(3, 0.0, 0.0), ComputeDevice::Cpu), std::invalid_argument);
  CubatureOptions box = options_for(2, 1e-3);
  box.lower = {0.0, 1.0};
  box.upper = {1.0, 1.0};
  EXPECT_THROW(integrate_cubature(f, box, ComputeDevice::Cpu), std::invalid_argument);
  EXPECT_THROW(parse_cubature_family("f9"), std::invalid_argument);
  EXPECT_THROW(make_cubature_integrand(cubature_family<ArumugamF2>, 10), std::invalid_argument);  // 2^(2^10) overflows
  EXPECT_NO_THROW(make_cubature_integrand(cubature_family<ArumugamF2>, kMaxF2Dim));
  EXPECT_THROW(genz_exact_integral(f, 3), std::invalid_argument);
}

TEST(Cubature, GenzDifficultyOutsideTheDocumentedRangeIsRefusedWithTheLimitNamed) {
  // The discontinuous family's e^{a Σ x_i} must stay below e^700 (8D: a ≤ 87.5);
  // the Gaussian stops at half the other peaks' range (4D: a ≤ 28.125).
  const auto message = [](CubatureFamily family, int n, double a) {
    try {
      make_cubature_integrand(family, n, a, 0.5);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(cubature_family<GenzDiscontinuous>, 8, 90.0).find("[0.01, 87.5]"), std::string::npos)
      << message(cubature_family<GenzDiscontinuous>, 8, 90.0);
  EXPECT_EQ(message(cubature_family<GenzDiscontinuous>, 7, 100.0), "accepted");
  EXPECT_NE(message(cubature_family<GenzGaussian>, 4, 35.0).find("--genz-a 35 "), std::string::npos)
      << message(cubature_family<GenzGaussian>, 4, 35.0);
  EXPECT_NE(message(cubature_family<GenzGaussian>, 4, 35.0).find("28.125"), std::string::npos);
  EXPECT_EQ(message(cubature_family<GenzGaussian>, 3, 50.0), "accepted");
}
