// The integrators on expressions: random batteries (fixed seeds, log-uniform
// over decades) against closed forms and against the built-in families the
// same expressions spell, and non-finite integrands giving a status.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "gpu/core/math_constants.hpp"
#include "gpu/expression/expression_integrate.hpp"
#include "gpu/transform/halfspace_load.hpp"
#include "gpu/transform/transform.hpp"

namespace ex = geobem::expression;
namespace tf = geobem::transform;
namespace q = geobem::quadrature;
using geobem::ComputeDevice;
using geobem::IntegrationStatus;

namespace {

double log_uniform(std::mt19937_64& random, double low, double high) {
  std::uniform_real_distribution<double> exponent(std::log10(low), std::log10(high));
  return std::pow(10.0, exponent(random));
}

ex::Expression longman_rest(const std::string& text, const std::vector<std::string>& columns) {
  return ex::parse_expression(text, {"x"}, {columns, "a column"});
}

/// The promise of `converged`: within the tolerance and the error estimate.
void expect_honest(double value, double error, IntegrationStatus status, double exact, double rel_tol,
                   const std::string& what) {
  if (status != IntegrationStatus::Converged) return;
  const double miss = std::fabs(value - exact);
  EXPECT_LE(miss, rel_tol * std::fabs(exact) + 1e-300) << what << " value " << value << " exact " << exact;
  EXPECT_LE(miss, error + 4e-16 * std::fabs(exact)) << what << " error estimate " << error;
}

}  // namespace

TEST(LongmanExpression, ExponentialCosineEqualsTheFamilyToRounding) {
  // exp(-a x) with the factor cos(w x) and the decay rate a: the exp-cos
  // family's panels, cut-off and products, so the same numbers.
  std::mt19937_64 random(180);
  const tf::ParameterRange range = tf::parameter_range(tf::transform_family<tf::ExponentialCosine>);
  const std::size_t count = 400;
  std::vector<double> family_rows, expression_rows;
  for (std::size_t i = 0; i < count; ++i) {
    const double omega = log_uniform(random, range.scale_min, range.scale_max);
    const double lambda = omega * log_uniform(random, range.ratio_min, 1e4);
    family_rows.insert(family_rows.end(), {lambda, omega});
    expression_rows.insert(expression_rows.end(), {omega, lambda, lambda});
  }
  for (const tf::Accelerator accelerator : {tf::Accelerator::Euler, tf::Accelerator::Epsilon}) {
    tf::LongmanOptions options;
    options.accelerator = accelerator;
    options.relative_tolerance = 1e-10;
    const auto family = tf::integrate_family(tf::transform_family<tf::ExponentialCosine>, family_rows, count, options, 16,
                                             ComputeDevice::Cpu);
    const auto mine = ex::integrate_longman_expression(longman_rest("exp(-a*x)", {"a", "w"}), ex::OscillationKind::Cos,
                                                       expression_rows, count, options, 16, ComputeDevice::Cpu);
    for (std::size_t i = 0; i < count; ++i) {
      EXPECT_EQ(mine[i].value, family[i].value) << i;
      EXPECT_EQ(mine[i].status, family[i].status) << i;
      EXPECT_EQ(mine[i].areas, family[i].areas) << i;
      const double lambda = family_rows[2 * i], omega = family_rows[2 * i + 1];
      expect_honest(mine[i].value, mine[i].error, mine[i].status, lambda / (lambda * lambda + omega * omega), 1e-10,
                    "exp-cos row " + std::to_string(i));
    }
  }
}

TEST(LongmanExpression, HankelPairsMatchTheirClosedForms) {
  // int_0^inf e^{-a k} J0(k r) dk = 1/sqrt(a^2 + r^2) and
  // int_0^inf k e^{-a k} J1(k r) dk = r/(a^2 + r^2)^{3/2} (Gradshteyn & Ryzhik 6.611.1 and its a-derivative).
  std::mt19937_64 random(181);
  const std::size_t count = 200;
  std::vector<double> rows, exact0, exact1;
  for (std::size_t i = 0; i < count; ++i) {
    const double r = log_uniform(random, 1e-6, 1e6), a = r * log_uniform(random, 0.05, 1e3);
    rows.insert(rows.end(), {r, a, a});
    exact0.push_back(1.0 / std::hypot(a, r));
    exact1.push_back(r / std::pow(a * a + r * r, 1.5));
  }
  tf::LongmanOptions options;
  options.relative_tolerance = 1e-10;
  options.accelerator = tf::Accelerator::Epsilon;
  const auto zero = ex::integrate_longman_expression(longman_rest("exp(-a*x)", {"a", "r"}), ex::OscillationKind::J0,
                                                     rows, count, options, 16, ComputeDevice::Cpu);
  const auto one = ex::integrate_longman_expression(longman_rest("x*exp(-a*x)", {"a", "r"}), ex::OscillationKind::J1,
                                                    rows, count, options, 16, ComputeDevice::Cpu);
  std::size_t converged = 0;
  for (std::size_t i = 0; i < count; ++i) {
    expect_honest(zero[i].value, zero[i].error, zero[i].status, exact0[i], 1e-10, "J0 row " + std::to_string(i));
    expect_honest(one[i].value, one[i].error, one[i].status, exact1[i], 1e-10, "J1 row " + std::to_string(i));
    converged += (zero[i].status == IntegrationStatus::Converged) + (one[i].status == IntegrationStatus::Converged);
  }
  EXPECT_GE(converged, 2 * count * 95 / 100);
}

TEST(LongmanExpression, HalfspaceLoadKernelGivesTheFamilysNumbersAndTheClosedForm) {
  // The halfspace-load workflow's kernel int_0^inf J1(k a) J0(k r)/k dk
  // (Timoshenko & Goodier) away from the rim, the faster Bessel factor as
  // the oscillation: J0(k r) for r > 2a, J1(k a) for r < a/2.
  std::mt19937_64 random(182);
  std::vector<double> outer, inner;
  std::vector<double> exact_outer, exact_inner;
  for (int i = 0; i < 100; ++i) {
    const double a = log_uniform(random, 1e-3, 1e3);
    const double r_out = a * log_uniform(random, 2.0, 1e3), r_in = a * log_uniform(random, 1e-3, 0.5);
    outer.insert(outer.end(), {r_out, 0.0, a});
    inner.insert(inner.end(), {a, 0.0, r_in});
    exact_outer.push_back(tf::halfspace_disk_closed_form(a, r_out));
    exact_inner.push_back(tf::halfspace_disk_closed_form(a, r_in));
  }
  tf::LongmanOptions options;
  options.relative_tolerance = 1e-8;
  options.accelerator = tf::Accelerator::Epsilon;
  const auto far = ex::integrate_longman_expression(longman_rest("J1(x*a)/x", {"a"}), ex::OscillationKind::J0, outer,
                                                    100, options, 16, ComputeDevice::Cpu);
  const auto near = ex::integrate_longman_expression(longman_rest("J0(x*r)/x", {"r"}), ex::OscillationKind::J1, inner,
                                                     100, options, 16, ComputeDevice::Cpu);
  // The halfspace-disk family on the same rows (a, r), its own integrate_one.
  std::vector<double> family_outer, family_inner;
  for (std::size_t i = 0; i < 100; ++i) {
    family_outer.insert(family_outer.end(), {outer[3 * i + 2], outer[3 * i]});
    family_inner.insert(family_inner.end(), {inner[3 * i], inner[3 * i + 2]});
  }
  const auto family_far =
      tf::integrate_family(tf::transform_family<tf::HalfSpaceDisk>, family_outer, 100, options, 16, ComputeDevice::Cpu);
  const auto family_near =
      tf::integrate_family(tf::transform_family<tf::HalfSpaceDisk>, family_inner, 100, options, 16, ComputeDevice::Cpu);
  for (std::size_t i = 0; i < 100; ++i) {
    EXPECT_NEAR(far[i].value, family_far[i].value, 1e-8 * std::fabs(family_far[i].value)) << i;
    EXPECT_NEAR(near[i].value, family_near[i].value, 1e-8 * std::fabs(family_near[i].value)) << i;
    EXPECT_EQ(far[i].status, IntegrationStatus::Converged) << i;
    EXPECT_EQ(near[i].status, IntegrationStatus::Converged) << i;
    expect_honest(far[i].value, far[i].error, far[i].status, exact_outer[i], 1e-8, "r > 2a row " + std::to_string(i));
    expect_honest(near[i].value, near[i].error, near[i].status, exact_inner[i], 1e-8, "r < a/2 row " + std::to_string(i));
  }
}

TEST(LongmanExpression, NonFiniteIntegrandIsAStatus) {
  // log(x - 1) is NaN below x = 1: the first half cycle's Gauss points see it.
  const std::vector<double> rows{1.0, 1.0, 1.0};
  tf::LongmanOptions options;
  const auto results = ex::integrate_longman_expression(longman_rest("exp(-a*x)*log(x - 1)", {"a"}),
                                                        ex::OscillationKind::Sin, rows, 1, options, 16, ComputeDevice::Cpu);
  EXPECT_EQ(results[0].status, IntegrationStatus::NonFinite);
  // NaN only before the first zero of the oscillating factor (log(x - a) with
  // a beyond it): the accelerators then see a NaN partial sum, not a NaN area.
  const std::vector<double> two_rows{1.0, 1.0, 1.0, 2.0, 0.0, 1.0};
  const auto both = ex::integrate_longman_expression(longman_rest("exp(-a*x)*log(x - a)", {"a"}),
                                                     ex::OscillationKind::Sin, two_rows, 2, options, 16, ComputeDevice::Cpu);
  EXPECT_EQ(both[0].status, IntegrationStatus::NonFinite);
  EXPECT_EQ(both[1].status, IntegrationStatus::NonFinite);
  EXPECT_EQ(ex::check_longman_row(longman_rest("exp(-a*x)", {"a"}), std::vector<double>{0.0, 0.0, 1.0}.data()),
            "omega = 0 must be finite and > 0");
  EXPECT_EQ(ex::check_longman_row(longman_rest("exp(-a*x)", {"a"}), std::vector<double>{1.0, 0.0, NAN}.data()),
            "a = nan is not finite");
}

TEST(AdaptiveExpression, KernAlaghbandFamiliesAgreeWithTheBuiltInOnes) {
  // Kern & Alaghband's families spelled as expressions: both converge, and
  // agree within their error estimates.
  struct Case {
    q::Integrand1DFamily family;
    std::string text;
  };
  const Case cases[] = {
      {q::integrand_1d_family<q::ExpSin>, "exp(p0*x)*sin(p1*x)"},
      {q::integrand_1d_family<q::PolyCos>, "p0*x*cos(p1*x) - (x - p2)*(x - p2)"},
      {q::integrand_1d_family<q::ExpCos>, "exp(-p0*x)*cos(p1*pi*x)"},
  };
  std::mt19937_64 random(183);
  q::Adaptive1DOptions options;
  options.rel_tol = 1e-10;
  options.beta = 64;
  for (const auto& c : cases) {
    std::vector<q::Problem1D> problems;
    std::vector<double> rows;
    const q::Integrand1DRanges ranges = q::integrand_1d_ranges(c.family);
    while (problems.size() < 40) {
      q::Problem1D p;
      p.integrand.family = c.family;
      for (int k = 0; k < 3; ++k)
        p.integrand.p[k] = ranges.max[k] == 0.0 ? 0.0 : log_uniform(random, ranges.min_magnitude[k] > 0 ? ranges.min_magnitude[k] : 1e-3, ranges.max[k]);
      const double limit = q::exp_family_limit(p.integrand);
      p.lower = -limit * log_uniform(random, 1e-3, 1.0);
      p.upper = limit * log_uniform(random, 1e-3, 1.0);
      problems.push_back(p);
      rows.insert(rows.end(), {p.lower, p.upper, p.integrand.p[0], p.integrand.p[1], p.integrand.p[2]});
    }
    const auto family = q::integrate_adaptive_1d_batch(problems, options, ComputeDevice::Cpu);
    ex::Expression f = ex::parse_expression(c.text, {"x"}, {{"p0", "p1", "p2"}, "a column"});
    // The rows carry p0, p1, p2 in that order; the expression may use fewer or another order.
    std::vector<double> expression_rows;
    for (std::size_t i = 0; i < problems.size(); ++i) {
      expression_rows.insert(expression_rows.end(), {problems[i].lower, problems[i].upper});
      for (const auto& name : f.parameters) expression_rows.push_back(problems[i].integrand.p[name[1] - '0']);
    }
    const auto mine = ex::integrate_adaptive_expression(f, expression_rows, problems.size(), options, ComputeDevice::Cpu);
    for (std::size_t i = 0; i < problems.size(); ++i) {
      EXPECT_EQ(mine[i].status, IntegrationStatus::Converged) << c.text << " row " << i;
      EXPECT_NEAR(mine[i].estimate, family[i].estimate, mine[i].error + family[i].error) << c.text << " row " << i;
    }
  }
}

TEST(AdaptiveExpression, ClosedFormsAndNonFinite) {
  // int_0^b x^2 e^{-x} dx = 2 - e^{-b}(b^2 + 2b + 2), which rounds to ~4 eps absolute itself.
  std::mt19937_64 random(184);
  std::vector<double> rows, exact;
  for (int i = 0; i < 50; ++i) {
    const double b = log_uniform(random, 0.5, 50.0);
    rows.insert(rows.end(), {0.0, b});
    exact.push_back(2.0 - std::exp(-b) * (b * b + 2 * b + 2));
  }
  q::Adaptive1DOptions options;
  options.rel_tol = 1e-10;
  options.beta = 64;
  options.alpha = 8;
  const ex::Expression f = ex::parse_expression("x^2*exp(-x)", {"x"}, {});
  const auto results = ex::integrate_adaptive_expression(f, rows, 50, options, ComputeDevice::Cpu);
  for (std::size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(results[i].status, IntegrationStatus::Converged);
    EXPECT_NEAR(results[i].estimate, exact[i], 1e-10 * exact[i]);
    EXPECT_NEAR(results[i].estimate, exact[i], results[i].error + 1e-15);
  }
  const auto single = ex::integrate_adaptive_expression(ex::parse_expression("exp(-x^2)", {"x"}, {}),
                                                        {-3.0, 3.0}, 1, options, ComputeDevice::Cpu, nullptr,
                                                        ex::AdaptiveSweep::Spread);
  expect_honest(single[0].estimate, single[0].error, single[0].status, std::sqrt(geobem::kPi) * std::erf(3.0), 1e-10,
                "gaussian");
  EXPECT_EQ(single[0].status, IntegrationStatus::Converged);
  const auto nan = ex::integrate_adaptive_expression(ex::parse_expression("sqrt(x)", {"x"}, {}), {-1.0, 1.0}, 1,
                                                     options, ComputeDevice::Cpu);
  EXPECT_EQ(nan[0].status, IntegrationStatus::NonFinite);
  EXPECT_THROW(ex::integrate_adaptive_expression(ex::parse_expression("x", {"x"}, {}), {1.0, 1.0}, 1, options,
                                                 ComputeDevice::Cpu),
               geobem::InputError);
}

TEST(CubatureExpression, GenzAndArumugamFamiliesAsExpressions) {
  q::CubatureOptions options;
  options.dim = 3;
  options.rel_tol = 1e-7;
  options.min_regions = 1 << 12;
  // f4 = sin(prod asin(x_i)) in the family's order of operations: the same numbers.
  const auto f4 = ex::integrate_cubature_expression(
      ex::parse_expression("sin(asin(x1)*asin(x2)*asin(x3))", ex::numbered_variables(3), {}), {}, 1, options,
      ComputeDevice::Cpu);
  const auto f4_family = q::integrate_cubature(q::make_cubature_integrand(q::cubature_family<q::ArumugamF4>, 3), options,
                                               ComputeDevice::Cpu);
  EXPECT_EQ(f4[0].estimate, f4_family.estimate);
  EXPECT_EQ(f4[0].status, f4_family.status);
  // Genz's Gaussian with a and u per row, against its closed form and the family.
  std::mt19937_64 random(185);
  const ex::Expression gaussian = ex::parse_expression(
      "exp(-(a^2*(x1 - u)^2 + a^2*(x2 - u)^2 + a^2*(x3 - u)^2))", ex::numbered_variables(3), {{"a", "u"}, "a column"});
  std::vector<double> rows;
  std::vector<double> exact;
  for (int i = 0; i < 6; ++i) {
    const double a = log_uniform(random, 0.1, 10.0), u = std::uniform_real_distribution<double>(0.0, 1.0)(random);
    const bool a_first = gaussian.parameters[0] == "a";
    rows.insert(rows.end(), {a_first ? a : u, a_first ? u : a});
    const auto family = q::make_cubature_integrand(q::cubature_family<q::GenzGaussian>, 3, a, u);
    exact.push_back(q::genz_exact_integral(family, 3));
  }
  const auto mine = ex::integrate_cubature_expression(gaussian, rows, 6, options, ComputeDevice::Cpu);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(mine[i].status, IntegrationStatus::Converged) << i;
    expect_honest(mine[i].estimate, mine[i].error, mine[i].status, exact[i], 1e-7, "gaussian row " + std::to_string(i));
  }
  const auto nan = ex::integrate_cubature_expression(ex::parse_expression("log(x1 - x2)", ex::numbered_variables(2), {}),
                                                     {}, 1, [] {
                                                       q::CubatureOptions o;
                                                       o.dim = 2;
                                                       o.min_regions = 64;
                                                       return o;
                                                     }(), ComputeDevice::Cpu);
  EXPECT_EQ(nan[0].status, IntegrationStatus::NonFinite);
}
