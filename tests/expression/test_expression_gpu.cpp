// Expressions on the GPU (label gpu): the NVRTC-compiled kernels of the
// three integrators against the CPU program on the same rows (values to
// rounding: the device's fused multiply-adds and libdevice's exp/cos differ
// from the host's in the last bits; statuses alike), against the closed forms
// (and mpmath's references for f3, f4), and against the built-in family's
// CUDA kernel; a second run in the process reuses the kernel.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "gpu/core/math_constants.hpp"
#include "gpu/expression/expression_integrate.hpp"
#include "gpu/quadrature/cubature_integrands.hpp"
#include "gpu/transform/halfspace_load.hpp"
#include "gpu/transform/transform.hpp"
#include "tests/expression/arumugam_expression_cases.hpp"
#include "tests/expression/expression_battery.hpp"
#include "tests/support/backend_test.hpp"

namespace ex = geobem::expression;
namespace q = geobem::quadrature;
namespace tf = geobem::transform;
using geobem::ComputeDevice;
using geobem::IntegrationStatus;

class ExpressionCuda : public geobem::test::CudaTest {};

namespace {

double log_uniform(std::mt19937_64& random, double low, double high) {
  std::uniform_real_distribution<double> exponent(std::log10(low), std::log10(high));
  return std::pow(10.0, exponent(random));
}

ex::Expression parse(const std::string& text, const std::vector<std::string>& columns) {
  return ex::parse_expression(text, {"x"}, {columns, "a column"});
}

/// CPU and CUDA on the same rows: values within a few ulps of rounding plus
/// the sum of the error estimates' share that rounding moves, statuses equal
/// in at least 99% of rows (a row at its tolerance's edge may tip).
void expect_cpu_and_cuda_agree(const ex::Expression& rest, ex::OscillationKind kind, const std::vector<double>& rows,
                               std::size_t count, const tf::LongmanOptions& options) {
  const auto cpu = ex::integrate_longman_expression(rest, kind, rows, count, options, 16, ComputeDevice::Cpu);
  ex::KernelCompileReport compile;
  const auto cuda =
      ex::integrate_longman_expression(rest, kind, rows, count, options, 16, ComputeDevice::Cuda, true, nullptr, &compile);
  EXPECT_EQ(compile.architecture.rfind("sm_", 0), 0u) << compile.architecture;
  std::size_t same_status = 0;
  for (std::size_t i = 0; i < count; ++i) {
    same_status += cpu[i].status == cuda[i].status;
    if (cpu[i].status == IntegrationStatus::Converged && cuda[i].status == IntegrationStatus::Converged) {
      EXPECT_NEAR(cuda[i].value, cpu[i].value, cpu[i].error + cuda[i].error + 1e-14 * std::fabs(cpu[i].value)) << i;
    }
  }
  EXPECT_GE(same_status, count * 99 / 100);
}

}  // namespace

TEST_F(ExpressionCuda, ExponentialCosineAgreesWithCpuAndTheFamilyKernel) {
  std::mt19937_64 random(1180);
  const std::size_t count = 20000;
  std::vector<double> rows, family_rows;
  for (std::size_t i = 0; i < count; ++i) {
    const double omega = log_uniform(random, 1e-8, 1e8), lambda = omega * log_uniform(random, 0.02, 1e4);
    rows.insert(rows.end(), {omega, lambda, lambda});
    family_rows.insert(family_rows.end(), {lambda, omega});
  }
  tf::LongmanOptions options;
  options.relative_tolerance = 1e-10;
  const ex::Expression rest = parse("exp(-a*x)", {"a"});
  expect_cpu_and_cuda_agree(rest, ex::OscillationKind::Cos, rows, count, options);
  const auto cuda = ex::integrate_longman_expression(rest, ex::OscillationKind::Cos, rows, count, options, 16,
                                                     ComputeDevice::Cuda);
  const auto family =
      tf::integrate_family(tf::transform_family<tf::ExponentialCosine>, family_rows, count, options, 16, ComputeDevice::Cuda);
  std::size_t converged = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double lambda = family_rows[2 * i], omega = family_rows[2 * i + 1];
    const double exact = lambda / (lambda * lambda + omega * omega);
    EXPECT_NEAR(cuda[i].value, family[i].value, 4e-16 * std::fabs(exact) + cuda[i].error) << i;
    if (cuda[i].status == IntegrationStatus::Converged) {
      ++converged;
      EXPECT_LE(std::fabs(cuda[i].value - exact), 1e-10 * exact) << i;
    }
  }
  EXPECT_GE(converged, count * 99 / 100);
}

TEST_F(ExpressionCuda, HankelAndHalfspaceKernelsAgreeWithCpu) {
  std::mt19937_64 random(1181);
  const std::size_t count = 2000;
  std::vector<double> hankel, disk;
  for (std::size_t i = 0; i < count; ++i) {
    const double r = log_uniform(random, 1e-6, 1e6), a = r * log_uniform(random, 0.05, 1e3);
    hankel.insert(hankel.end(), {r, a, a});
    const double disk_a = log_uniform(random, 1e-3, 1e3);
    disk.insert(disk.end(), {disk_a * log_uniform(random, 2.0, 1e3), 0.0, disk_a});
  }
  tf::LongmanOptions options;
  options.relative_tolerance = 1e-10;
  options.accelerator = tf::Accelerator::Epsilon;
  expect_cpu_and_cuda_agree(parse("x*exp(-a*x)", {"a"}), ex::OscillationKind::J1, hankel, count, options);
  expect_cpu_and_cuda_agree(parse("exp(-a*x)", {"a"}), ex::OscillationKind::J0, hankel, count, options);
  options.relative_tolerance = 1e-8;
  expect_cpu_and_cuda_agree(parse("J1(x*a)/x", {"a"}), ex::OscillationKind::J0, disk, count, options);
  const auto cuda = ex::integrate_longman_expression(parse("J1(x*a)/x", {"a"}), ex::OscillationKind::J0, disk, count,
                                                     options, 16, ComputeDevice::Cuda);
  for (std::size_t i = 0; i < count; ++i)
    if (cuda[i].status == IntegrationStatus::Converged) {
      EXPECT_NEAR(cuda[i].value, tf::halfspace_disk_closed_form(disk[3 * i + 2], disk[3 * i]),
                  1e-8 * std::fabs(cuda[i].value)) << i;
    }
}

TEST_F(ExpressionCuda, NonFiniteIsAStatusAndTheKernelIsReused) {
  const std::vector<double> rows{1.0, 1.0, 1.0, 2.0, 0.0, 1.0};
  tf::LongmanOptions options;
  const ex::Expression rest = parse("exp(-a*x)*log(x - a)", {"a"});
  ex::KernelCompileReport first, second;
  const auto results = ex::integrate_longman_expression(rest, ex::OscillationKind::Sin, rows, 2, options, 16,
                                                        ComputeDevice::Cuda, true, nullptr, &first);
  EXPECT_EQ(results[0].status, IntegrationStatus::NonFinite);
  EXPECT_EQ(results[1].status, IntegrationStatus::NonFinite);
  ex::integrate_longman_expression(rest, ex::OscillationKind::Sin, rows, 2, options, 16, ComputeDevice::Cuda, true,
                                   nullptr, &second);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.seconds, 0.0);
}

namespace {

/// An estimate against an independent value whose own rounding is at most
/// `exact_rounding`: converged, within the tolerance and within its error estimate.
void expect_honest(double value, double error, IntegrationStatus status, double exact, double rel_tol,
                   const std::string& what, double exact_rounding = 0.0) {
  EXPECT_EQ(status, IntegrationStatus::Converged) << what;
  const double miss = std::fabs(value - exact);
  EXPECT_LE(miss, rel_tol * std::fabs(exact)) << what << " value " << value << " exact " << exact;
  EXPECT_LE(miss, error + 4e-16 * std::fabs(exact) + exact_rounding) << what << " error estimate " << error;
}

}  // namespace

TEST_F(ExpressionCuda, AdaptiveMatchesCpuTheFamilyAndClosedForms) {
  q::Adaptive1DOptions options;
  options.rel_tol = 1e-10;
  options.beta = 64;
  // Batched: int_0^b x^2 e^{-x} dx = 2 - e^{-b}(b^2 + 2b + 2), one thread block per row.
  std::mt19937_64 random(1182);
  const std::size_t count = 400;
  std::vector<double> rows;
  for (std::size_t i = 0; i < count; ++i) rows.insert(rows.end(), {0.0, log_uniform(random, 0.5, 50.0)});
  const ex::Expression moment = ex::parse_expression("x^2*exp(-x)", {"x"}, {});
  const auto cpu = ex::integrate_adaptive_expression(moment, rows, count, options, ComputeDevice::Cpu);
  ex::KernelCompileReport first, second;
  const auto cuda = ex::integrate_adaptive_expression(moment, rows, count, options, ComputeDevice::Cuda, &first);
  for (std::size_t i = 0; i < count; ++i) {
    // The closed form is 2 less a number near 2 at small b: a few ulps of 2 absolute.
    const double b = rows[2 * i + 1], exact = 2.0 - std::exp(-b) * (b * b + 2 * b + 2);
    expect_honest(cuda[i].estimate, cuda[i].error, cuda[i].status, exact, 1e-10, "moment row " + std::to_string(i),
                  1e-15);
    EXPECT_EQ(cuda[i].status, cpu[i].status) << i;
    EXPECT_NEAR(cuda[i].estimate, cpu[i].estimate, cpu[i].error + cuda[i].error) << i;
  }
  ex::integrate_adaptive_expression(moment, rows, 2, options, ComputeDevice::Cuda, &second);
  EXPECT_TRUE(second.from_cache);
  // Single mode (one row: alpha thread blocks per step), against erf.
  options.alpha = 16;
  const ex::Expression gaussian = ex::parse_expression("exp(-x^2)", {"x"}, {});
  const auto single_cpu = ex::integrate_adaptive_expression(gaussian, {-3.0, 3.0}, 1, options, ComputeDevice::Cpu,
                                                           nullptr, ex::AdaptiveSweep::Spread);
  const auto single = ex::integrate_adaptive_expression(gaussian, {-3.0, 3.0}, 1, options, ComputeDevice::Cuda, nullptr,
                                                       ex::AdaptiveSweep::Spread);
  expect_honest(single[0].estimate, single[0].error, single[0].status, std::sqrt(geobem::kPi) * std::erf(3.0), 1e-10,
                "single gaussian");
  EXPECT_NEAR(single[0].estimate, single_cpu[0].estimate, single[0].error + single_cpu[0].error);
  // Kern & Alaghband's exp_sin as an expression against the family's CUDA
  // kernel (which takes the node in two doubles) and the CPU program on the
  // same rows. The expression sees its argument rounded: where the phase
  // p1 x is large, that bound alone can exceed 1e-10 (rounding_limited).
  std::vector<q::Problem1D> problems;
  std::vector<double> family_rows;
  const q::Integrand1DRanges ranges = q::integrand_1d_ranges(q::integrand_1d_family<q::ExpSin>);
  const ex::Expression exp_sin = ex::parse_expression("exp(p0*x)*sin(p1*x)", {"x"}, {{"p0", "p1"}, "a column"});
  while (problems.size() < 200) {
    q::Problem1D p;
    p.integrand.family = q::integrand_1d_family<q::ExpSin>;
    for (int k = 0; k < 2; ++k) p.integrand.p[k] = log_uniform(random, ranges.min_magnitude[k], ranges.max[k]);
    p.integrand.p[2] = 0.0;
    const double limit = q::exp_family_limit(p.integrand);
    p.lower = -limit * log_uniform(random, 1e-3, 1.0);
    p.upper = limit * log_uniform(random, 1e-3, 1.0);
    problems.push_back(p);
    family_rows.insert(family_rows.end(), {p.lower, p.upper, p.integrand.p[0], p.integrand.p[1]});
  }
  const auto family = q::integrate_adaptive_1d_batch(problems, options, ComputeDevice::Cuda);
  const auto mine = ex::integrate_adaptive_expression(exp_sin, family_rows, problems.size(), options, ComputeDevice::Cuda);
  const auto mine_cpu =
      ex::integrate_adaptive_expression(exp_sin, family_rows, problems.size(), options, ComputeDevice::Cpu);
  std::size_t converged = 0, same_status = 0;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    converged += mine[i].status == IntegrationStatus::Converged;
    same_status += mine[i].status == mine_cpu[i].status;
    EXPECT_NEAR(mine[i].estimate, family[i].estimate, mine[i].error + family[i].error) << i;
    EXPECT_NEAR(mine[i].estimate, mine_cpu[i].estimate, mine[i].error + mine_cpu[i].error) << i;
  }
  EXPECT_GE(converged, problems.size() * 9 / 10);
  EXPECT_GE(same_status, problems.size() * 99 / 100);
  // NaN on part of the domain: a status.
  const auto nan = ex::integrate_adaptive_expression(ex::parse_expression("sqrt(x)", {"x"}, {}), {-1.0, 1.0, -1.0, 1.0},
                                                     2, options, ComputeDevice::Cuda);
  EXPECT_EQ(nan[0].status, IntegrationStatus::NonFinite);
  EXPECT_EQ(nan[1].status, IntegrationStatus::NonFinite);
}

TEST_F(ExpressionCuda, CubatureMatchesCpuTheFamiliesAndReferences) {
  // Genz's Gaussian with a, u per row: closed form, the CPU program and the family's CUDA kernel.
  q::CubatureOptions options;
  options.dim = 3;
  options.rel_tol = 1e-7;
  options.min_regions = 1 << 12;
  const ex::Expression gaussian = ex::parse_expression("exp(-(a^2*(x1 - u)^2 + a^2*(x2 - u)^2 + a^2*(x3 - u)^2))",
                                                       ex::numbered_variables(3), {{"a", "u"}, "a column"});
  ASSERT_EQ(gaussian.parameters, (std::vector<std::string>{"a", "u"}));
  std::mt19937_64 random(1183);
  std::vector<double> rows;
  const int count = 6;
  for (int i = 0; i < count; ++i)
    rows.insert(rows.end(), {log_uniform(random, 0.1, 10.0), std::uniform_real_distribution<double>(0.0, 1.0)(random)});
  const auto cpu = ex::integrate_cubature_expression(gaussian, rows, count, options, ComputeDevice::Cpu);
  const auto cuda = ex::integrate_cubature_expression(gaussian, rows, count, options, ComputeDevice::Cuda);
  for (int i = 0; i < count; ++i) {
    const auto family = q::make_cubature_integrand(q::cubature_family<q::GenzGaussian>, 3, rows[2 * i], rows[2 * i + 1]);
    const double exact = q::genz_exact_integral(family, 3);
    expect_honest(cuda[i].estimate, cuda[i].error, cuda[i].status, exact, 1e-7, "gaussian row " + std::to_string(i));
    EXPECT_NEAR(cuda[i].estimate, cpu[i].estimate, cuda[i].error + cpu[i].error) << i;
    const auto built_in = q::integrate_cubature(family, options, ComputeDevice::Cuda);
    EXPECT_NEAR(cuda[i].estimate, built_in.estimate, cuda[i].error + built_in.error) << i;
  }
  // Arumugam et al.'s f3 (4D, 1e-5) and f4 (7D, 1e-4) as expressions, at the
  // stage's defaults, against mpmath's references and the built-in family's
  // CUDA kernel.
  for (const auto& c : geobem::test::kArumugamExpressionCases) {
    q::CubatureOptions stage;
    stage.dim = c.dim;
    stage.rel_tol = c.rel_tol;
    const auto mine = ex::integrate_cubature_expression(
        ex::parse_expression(c.expression, ex::numbered_variables(c.dim), {}), {}, 1, stage, ComputeDevice::Cuda);
    expect_honest(mine[0].estimate, mine[0].error, mine[0].status, c.reference, c.rel_tol, c.expression);
    const auto built_in = q::integrate_cubature(q::make_cubature_integrand(c.family, c.dim), stage, ComputeDevice::Cuda);
    EXPECT_NEAR(mine[0].estimate, built_in.estimate, mine[0].error + built_in.error) << c.expression;
  }
  // NaN on part of the domain: a status.
  q::CubatureOptions plane;
  plane.dim = 2;
  plane.min_regions = 64;
  const auto nan = ex::integrate_cubature_expression(ex::parse_expression("log(x1 - x2)", ex::numbered_variables(2), {}),
                                                     {}, 1, plane, ComputeDevice::Cuda);
  EXPECT_EQ(nan[0].status, IntegrationStatus::NonFinite);
}

TEST_F(ExpressionCuda, BatteryOfPolesKinksSingularitiesAndBesselProductsMatchesTheCpu) {
  // The CPU battery (test_expression_battery) on the GPU: the same honest
  // rows against mpmath, and each row as the CPU has it (the same status on
  // >= 99% of rows; the values within their two error estimates).
  const auto forms = geobem::test::battery_forms(geobem::test::load_expression_battery(4));
  std::size_t converged = 0, honest = 0, rows = 0, same_status = 0;
  for (const double tolerance : {1e-6, 1e-10, 1e-12}) {
    for (const auto& form : forms) {
      const auto cpu = geobem::test::run_battery_form(form, tolerance, ComputeDevice::Cpu);
      const auto cuda = geobem::test::run_battery_form(form, tolerance, ComputeDevice::Cuda);
      for (std::size_t i = 0; i < form.size(); ++i) {
        ++rows;
        same_status += cuda[i].status == cpu[i].status;
        if (cuda[i].status == IntegrationStatus::Converged && cpu[i].status == IntegrationStatus::Converged)
          EXPECT_NEAR(cuda[i].value, cpu[i].value, cuda[i].error + cpu[i].error) << form[i].expression << " " << i;
        if (cuda[i].status != IntegrationStatus::Converged) continue;
        ++converged;
        const double miss = std::fabs(cuda[i].value - form[i].reference);
        const double allowed = tolerance * std::fabs(form[i].reference);
        honest += miss <= allowed + 1e-16 * std::fabs(form[i].reference) &&
                  miss <= cuda[i].error + 1e-16 * std::fabs(form[i].reference);
        EXPECT_LE(miss, 10.0 * allowed) << form[i].method << " '" << form[i].expression << "' row " << i << " at "
                                        << tolerance;
      }
    }
  }
  EXPECT_GE(static_cast<double>(honest), 0.995 * static_cast<double>(converged));
  EXPECT_GE(same_status, rows * 99 / 100);
}

