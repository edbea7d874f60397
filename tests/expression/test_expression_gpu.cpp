// Expressions on the GPU (label gpu): the NVRTC-compiled kernel against the
// CPU program on the same rows (values to rounding: the device's fused
// multiply-adds and libdevice's exp/cos differ from the host's in the last
// bits; statuses alike), against the closed forms, and against the built-in
// family's CUDA kernel; a second run in the process reuses the kernel.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "gpu/expression/expression_integrate.hpp"
#include "gpu/transform/halfspace_load.hpp"
#include "gpu/transform/transform.hpp"
#include "tests/support/backend_test.hpp"

namespace ex = geobem::expression;
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
      tf::integrate_family(tf::TransformFamily::ExponentialCosine, family_rows, count, options, 16, ComputeDevice::Cuda);
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
