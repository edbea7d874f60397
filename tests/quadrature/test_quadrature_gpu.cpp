// CUDA paths against the CPU paths (label gpu; skipped without a device):
// cubature phases and results, 1D single and batched sweeps, and the
// honest-status batteries on the device.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu/core/device.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "gpu/quadrature/cubature.hpp"
#include "tests/quadrature/battery.hpp"
#include "tests/quadrature/capped_cases.hpp"
#include "tests/support/backend_test.hpp"

using namespace geobem::quadrature;
using geobem::ComputeDevice;

class QuadratureGpu : public geobem::test::CudaTest {};

TEST_F(QuadratureGpu, PhaseOneRegionsMatchCpu) {
  // A smooth case that splits every region, and a peak where phase one
  // retires regions on the way (the device compacts, the CPU filters).
  struct Case {
    CubatureFamily family;
    int dim;
    double a, u, rel_tol;
    std::size_t min_regions;
  };
  for (const Case c : {Case{cubature_family<GenzGaussian>, 5, 3.0, 0.4, 1e-9, 256},
                       Case{cubature_family<GenzProductPeak>, 4, 10.0, 0.3, 1e-4, 512}}) {
    CubatureOptions o;
    o.dim = c.dim;
    o.rel_tol = c.rel_tol;
    o.min_regions = c.min_regions;
    const CubatureIntegrand f = make_cubature_integrand(c.family, c.dim, c.a, c.u);
    const CubaturePhaseOne cpu = cubature_phase_one(f, o, ComputeDevice::Cpu);
    const CubaturePhaseOne gpu = cubature_phase_one(f, o, ComputeDevice::Cuda);
    ASSERT_FALSE(cpu.converged) << to_string(c.family);
    if (c.family == cubature_family<GenzProductPeak>) {
      EXPECT_GT(cpu.retired_regions, 0u);
    }
    EXPECT_EQ(gpu.retired_regions, cpu.retired_regions) << to_string(c.family);
    EXPECT_NEAR(gpu.retired_estimate, cpu.retired_estimate, 1e-12 * std::fabs(cpu.estimate)) << to_string(c.family);
    EXPECT_NEAR(gpu.estimate, cpu.estimate, 1e-12 * std::fabs(cpu.estimate)) << to_string(c.family);
    EXPECT_NEAR(gpu.error, cpu.error, 1e-9 * cpu.error) << to_string(c.family);
    EXPECT_NEAR(gpu.live_error, cpu.live_error, 1e-9 * cpu.live_error) << to_string(c.family);
    const std::vector<CubatureRegion> gpu_regions = live_regions_on_host(gpu);
    ASSERT_EQ(cpu.regions.size(), gpu_regions.size()) << to_string(c.family);
    EXPECT_EQ(gpu.live_regions, gpu_regions.size()) << to_string(c.family);
    for (std::size_t r = 0; r < cpu.regions.size(); ++r) {
      EXPECT_NEAR(gpu_regions[r].estimate, cpu.regions[r].estimate, 1e-13 * std::fabs(cpu.estimate)) << r;
      EXPECT_EQ(gpu_regions[r].split_axis, cpu.regions[r].split_axis) << r;
    }
  }
}

TEST_F(QuadratureGpu, PhaseOneBuffersGrowPastTheirInitialSize) {
  // 2^16 live regions: the device's region buffers start at 2^14 regions and
  // must grow twice on the way; totals and counts still equal the CPU's.
  CubatureOptions o;
  o.dim = 4;
  o.rel_tol = 1e-13;
  o.min_regions = std::size_t{1} << 16;
  const CubatureIntegrand f = make_cubature_integrand(cubature_family<GenzGaussian>, 4, 3.0, 0.4);
  const CubaturePhaseOne cpu = cubature_phase_one(f, o, ComputeDevice::Cpu);
  const CubaturePhaseOne gpu = cubature_phase_one(f, o, ComputeDevice::Cuda);
  ASSERT_FALSE(cpu.converged);
  ASSERT_GE(cpu.regions.size(), o.min_regions);
  EXPECT_EQ(gpu.live_regions, cpu.regions.size());
  EXPECT_EQ(gpu.retired_regions, cpu.retired_regions);
  EXPECT_EQ(gpu.evaluations, cpu.evaluations);
  EXPECT_NEAR(gpu.estimate, cpu.estimate, 1e-12 * std::fabs(cpu.estimate));
  EXPECT_NEAR(gpu.error, cpu.error, 1e-9 * cpu.error);
}

TEST_F(QuadratureGpu, PhaseTwoTakesRegionsFromTheDeviceOrTheHost) {
  // Phase two on the device reads a CUDA phase one's regions where they are;
  // given the same regions from the host it must refine them identically, and
  // the CPU phase two, given the device's regions, must agree to rounding.
  CubatureOptions o;
  o.dim = 4;
  o.rel_tol = 1e-8;
  o.min_regions = 5000;  // two chunks of live regions: one for each of two ranks
  const CubatureIntegrand f = make_cubature_integrand(cubature_family<GenzProductPeak>, 4, 4.0, 0.35);
  const double exact = genz_exact_integral(f, 4);
  const CubaturePhaseOne on_device = cubature_phase_one(f, o, ComputeDevice::Cuda);
  ASSERT_FALSE(on_device.converged);
  ASSERT_TRUE(on_device.device_regions);
  ASSERT_GT(on_device.live_regions, kPhaseTwoChunk);
  CubaturePhaseOne on_host = on_device;
  on_host.regions = live_regions_on_host(on_device);
  on_host.device_regions.reset();
  const std::uint64_t remaining = o.max_evaluations - on_device.evaluations;
  const CubaturePhaseTwo from_device = cubature_phase_two(f, o, on_device, 0, 1, remaining, ComputeDevice::Cuda);
  const CubaturePhaseTwo from_host = cubature_phase_two(f, o, on_host, 0, 1, remaining, ComputeDevice::Cuda);
  const CubaturePhaseTwo on_cpu = cubature_phase_two(f, o, on_device, 0, 1, remaining, ComputeDevice::Cpu);
  const auto estimates = [](const CubaturePhaseTwo& two) {
    std::vector<double> v;
    for (const FinalRegionSums& chunk : two.chunks) v.push_back(chunk.estimate.value());
    return v;
  };
  const auto errors = [](const CubaturePhaseTwo& two) {
    std::vector<double> v;
    for (const FinalRegionSums& chunk : two.chunks) v.push_back(chunk.error);
    return v;
  };
  EXPECT_EQ(estimates(from_device), estimates(from_host));
  EXPECT_EQ(errors(from_device), errors(from_host));
  EXPECT_EQ(from_device.evaluations, from_host.evaluations);
  // Two ranks' chunks, each refined on its own, add up to the same bits.
  CubaturePhaseTwo split = cubature_phase_two(f, o, on_device, 0, 2, remaining, ComputeDevice::Cuda);
  const CubaturePhaseTwo other = cubature_phase_two(f, o, on_device, 1, 2, remaining, ComputeDevice::Cuda);
  for (std::size_t c = 0; c < split.chunks.size(); ++c) split.chunks[c].add(other.chunks[c]);
  EXPECT_EQ(estimates(split), estimates(from_device));
  EXPECT_EQ(split.evaluations + other.evaluations, from_device.evaluations);
  // A remainder too small for most regions (as when the cap ends phase one):
  // the device settles those without refining them, as the CPU stops them.
  const std::uint64_t scarce = 1000 * 2 * 57;  // a thousand splits of a 4D region in all (the CPU refines a few)
  const CubaturePhaseTwo scarce_gpu = cubature_phase_two(f, o, on_device, 0, 1, scarce, ComputeDevice::Cuda);
  const CubaturePhaseTwo scarce_cpu = cubature_phase_two(f, o, on_device, 0, 1, scarce, ComputeDevice::Cpu);
  EXPECT_TRUE(scarce_gpu.capped);
  EXPECT_EQ(scarce_gpu.capped, scarce_cpu.capped);
  EXPECT_LE(scarce_gpu.evaluations, scarce);
  EXPECT_GT(scarce_gpu.evaluations, 0u);
  EXPECT_EQ(scarce_gpu.evaluations, scarce_cpu.evaluations);
  EXPECT_EQ(scarce_gpu.regions, scarce_cpu.regions);
  EXPECT_NEAR(combine_phases(on_device, scarce_gpu, o).estimate, combine_phases(on_device, scarce_cpu, o).estimate,
              1e-12 * exact);
  const CubatureResult device_result = combine_phases(on_device, from_device, o);
  const CubatureResult cpu_result = combine_phases(on_device, on_cpu, o);
  EXPECT_EQ(device_result.status, IntegrationStatus::Converged);
  EXPECT_LE(std::fabs(device_result.estimate - exact), 1e-8 * exact);
  EXPECT_NEAR(device_result.estimate, cpu_result.estimate, 1e-8 * exact);
}

TEST_F(QuadratureGpu, CubatureMatchesCpuAndClosedForm) {
  struct Case {
    CubatureFamily family;
    int dim;
    double a, u, rel_tol;
  };
  for (const Case c : {Case{cubature_family<GenzOscillatory>, 6, 1.5, 0.2, 1e-8}, Case{cubature_family<GenzProductPeak>, 3, 6.0, 0.3, 1e-8},
                       Case{cubature_family<GenzCornerPeak>, 8, 0.4, 0.0, 1e-4}, Case{cubature_family<GenzGaussian>, 6, 1.0, 0.5, 1e-6},
                       Case{cubature_family<GenzDiscontinuous>, 3, 1.0, 0.5, 1e-5}}) {
    CubatureOptions o;
    o.dim = c.dim;
    o.rel_tol = c.rel_tol;
    const CubatureIntegrand f = make_cubature_integrand(c.family, c.dim, c.a, c.u);
    const CubatureResult cpu = integrate_cubature(f, o, ComputeDevice::Cpu);
    const CubatureResult gpu = integrate_cubature(f, o, ComputeDevice::Cuda);
    const double exact = genz_exact_integral(f, c.dim);
    ASSERT_EQ(gpu.status, IntegrationStatus::Converged) << to_string(c.family);
    EXPECT_LE(std::fabs(gpu.estimate - exact), c.rel_tol * std::fabs(exact)) << to_string(c.family);
    EXPECT_NEAR(gpu.estimate, cpu.estimate, c.rel_tol * std::fabs(exact)) << to_string(c.family);
  }
}

TEST_F(QuadratureGpu, ArumugamFunctionsMatchCpu) {
  for (const auto& [family, dim, tol] : {std::tuple{cubature_family<ArumugamF1>, 3, 1e-6}, std::tuple{cubature_family<ArumugamF3>, 3, 1e-5},
                                          std::tuple{cubature_family<ArumugamF4>, 4, 1e-5}}) {
    CubatureOptions o;
    o.dim = dim;
    o.rel_tol = tol;
    const CubatureIntegrand f = make_cubature_integrand(family, dim);
    const CubatureResult cpu = integrate_cubature(f, o, ComputeDevice::Cpu);
    const CubatureResult gpu = integrate_cubature(f, o, ComputeDevice::Cuda);
    EXPECT_EQ(gpu.status, IntegrationStatus::Converged) << to_string(family);
    EXPECT_NEAR(gpu.estimate, cpu.estimate, 2.0 * tol * std::fabs(cpu.estimate)) << to_string(family);
  }
}

TEST_F(QuadratureGpu, SpillAndRetireKeepTheTotals) {
  CubatureOptions o;
  o.dim = 3;
  o.rel_tol = 1e-7;
  o.min_regions = 64;
  o.max_evaluations = 50'000'000;
  const CubatureIntegrand f = make_cubature_integrand(cubature_family<GenzProductPeak>, 3, 8.0, 0.3);
  const double exact = genz_exact_integral(f, 3);
  // A spill slice large enough: records leave shared memory and come back.
  o.spill_records = 2048;
  const CubatureResult spilled = integrate_cubature(f, o, ComputeDevice::Cuda);
  EXPECT_EQ(spilled.status, IntegrationStatus::Converged);
  EXPECT_LE(std::fabs(spilled.estimate - exact), 1e-7 * exact);
  // A tiny slice retires records that still needed work: the run may then
  // miss the tolerance, but it must say so, and the totals (retired records
  // included) must still bound the true error.
  o.spill_records = 16;
  const CubatureResult retired = integrate_cubature(f, o, ComputeDevice::Cuda);
  EXPECT_LE(std::fabs(retired.estimate - exact), retired.error);
  if (retired.status == IntegrationStatus::Converged) {
    EXPECT_LE(std::fabs(retired.estimate - exact), 1e-7 * exact);
  }
}

TEST_F(QuadratureGpu, EvaluationCapGivesStatus) {
  CubatureOptions o;
  o.dim = 6;
  o.rel_tol = 1e-12;
  o.max_evaluations = 3'000'000;
  const CubatureResult gpu = integrate_cubature(make_cubature_integrand(cubature_family<ArumugamF1>, 6), o, ComputeDevice::Cuda);
  EXPECT_EQ(gpu.status, IntegrationStatus::EvaluationCapReached);
  EXPECT_LE(gpu.evaluations, o.max_evaluations);
}

namespace {

/// A capped case (capped_cases.hpp) on the CPU and on the GPU.
struct CpuAndGpu {
  CubatureResult cpu, gpu;
};
CpuAndGpu run_on_both(const test_cases::CappedCase& c) {
  return {integrate_cubature(c.integrand(), c.options(), ComputeDevice::Cpu),
          integrate_cubature(c.integrand(), c.options(), ComputeDevice::Cuda)};
}

/// What every capped case must show on both devices: the expected status on
/// the GPU and the same on the CPU, the same evaluations within the cap, and
/// a GPU error column that bounds the true error (closed form).
void expect_same_decision(const CpuAndGpu& runs, const test_cases::CappedCase& c, IntegrationStatus expected) {
  EXPECT_EQ(runs.gpu.status, expected);
  EXPECT_EQ(runs.gpu.status, runs.cpu.status);
  EXPECT_EQ(runs.gpu.evaluations, runs.cpu.evaluations);
  EXPECT_LE(runs.gpu.evaluations, c.cap);
  EXPECT_LE(std::fabs(runs.gpu.estimate - c.exact()), runs.gpu.error);
}

}  // namespace

TEST_F(QuadratureGpu, CappedRunTakesTheTwoLevelEstimateAsTheCpuDoes) {
  // Converged on the two-level estimate; the device's sums of changes and
  // rounding floors give the same decision. The estimates agree to 1% (H100:
  // 7.030e-14 against 7.054e-14): the rounding floors, most of it here, come
  // from each device's own function values.
  const auto& c = test_cases::kConvergesOnTwoLevel;
  const CpuAndGpu runs = run_on_both(c);
  expect_same_decision(runs, c, IntegrationStatus::Converged);
  EXPECT_NEAR(runs.gpu.error, runs.cpu.error, 1e-2 * runs.cpu.error);
}

TEST_F(QuadratureGpu, CappedRunTakesTheDegreeNineCheckAsTheCpuDoes) {
  // Converged on the degree-9 check of the regions stopped by their caps,
  // with the tenfold credit (product peak) and with the oscillatory
  // integrand's larger one. The device checks the same final regions (its
  // block sums Q9 in another order) and measures the same cancellation.
  for (const test_cases::CappedCase* c :
       {&test_cases::kConvergesOnDegreeNine, &test_cases::kConvergesOnCreditedCancellation}) {
    SCOPED_TRACE(to_string(c->family));
    const CpuAndGpu runs = run_on_both(*c);
    expect_same_decision(runs, *c, IntegrationStatus::Converged);
    const auto& [cpu, gpu] = runs;
    EXPECT_EQ(gpu.checked_regions, cpu.checked_regions);
    EXPECT_GT(gpu.checked_regions, 0u);
    // The oscillatory Σ (Q9 − Q7) cancels to the level of its rounding term,
    // where the two devices' function values differ.
    EXPECT_NEAR(gpu.check_change, cpu.check_change, 1e-2 * std::fabs(cpu.check_change) + cpu.check_rounding);
    EXPECT_NEAR(gpu.check_credit, cpu.check_credit, 1e-2 * cpu.check_credit);
    EXPECT_NEAR(gpu.error, cpu.error, 1e-2 * cpu.error);
  }
}

TEST_F(QuadratureGpu, RoundingLimitedRunIsFlaggedAsTheCpuDoes) {
  // The rounding term comes from each device's own function values; both
  // put it above the target and say rounding_limited.
  const auto& c = test_cases::kRoundingLimited;
  const CpuAndGpu runs = run_on_both(c);
  expect_same_decision(runs, c, IntegrationStatus::RoundingLimited);
  EXPECT_NEAR(runs.gpu.check_rounding, runs.cpu.check_rounding, 1e-2 * runs.cpu.check_rounding);
}

TEST_F(QuadratureGpu, Adaptive1DSingleAndBatchMatchCpu) {
  Adaptive1DOptions o;
  o.rel_tol = 1e-10;
  for (Integrand1DFamily family : {integrand_1d_family<ExpSin>, integrand_1d_family<PolyCos>, integrand_1d_family<ExpCos>,
                                   integrand_1d_family<Sinc>}) {
    const Integrand1D f = table2_integrand(family);
    const double lower = family == integrand_1d_family<Sinc> ? 1e-6 : 0.0;
    const Adaptive1DResult cpu = integrate_adaptive_1d(f, lower, 20.0, o, ComputeDevice::Cpu);
    const Adaptive1DResult gpu = integrate_adaptive_1d(f, lower, 20.0, o, ComputeDevice::Cuda);
    EXPECT_EQ(gpu.status, IntegrationStatus::Converged);
    EXPECT_EQ(gpu.blocks, cpu.blocks) << to_string(family);
    EXPECT_NEAR(gpu.estimate, cpu.estimate, 1e-12 * std::fabs(cpu.estimate)) << to_string(family);
  }
  std::vector<Problem1D> problems;
  for (int i = 0; i < 1000; ++i) {
    Problem1D p;
    p.integrand = table2_integrand(integrand_1d_family<ExpCos>);
    p.integrand.p[0] = 0.5 + 0.01 * i;
    p.upper = 1.0 + 0.02 * i;
    problems.push_back(p);
  }
  const auto cpu = integrate_adaptive_1d_batch(problems, o, ComputeDevice::Cpu);
  const auto gpu = integrate_adaptive_1d_batch(problems, o, ComputeDevice::Cuda);
  for (std::size_t i = 0; i < problems.size(); ++i) {
    EXPECT_EQ(gpu[i].status, IntegrationStatus::Converged) << i;
    EXPECT_NEAR(gpu[i].estimate, cpu[i].estimate, 1e-12 * std::fabs(cpu[i].estimate) + 1e-16) << i;
  }
}

// The CPU batteries' families, ranges and seeds (test_cubature_battery.cpp,
// test_quadrature_battery.cpp) on the device: the honest-status rule and the
// cry-wolf rule (the cubature's per family, as on the CPU) against the closed
// forms, and each row within the two paths' error estimates of the CPU's. The
// cubature rows are the CPU battery's first GEOBEM_BATTERY_ROWS rows per
// family (default 12), the tolerances in turn; the CPU runs each row too.
TEST_F(QuadratureGpu, CubatureBatteryKeepsTheStatusPromiseAndMatchesCpu) {
  namespace b = geobem::battery;
  const int rows = static_cast<int>(b::environment_or("GEOBEM_BATTERY_ROWS", 12));
  const double cap = b::environment_or("GEOBEM_BATTERY_CAP", 1e7);
  std::printf("%s\n", b::tally_header());
  int status_differs = 0;
  for (CubatureFamily family : b::kGenzFamilies) {
    std::mt19937_64 random(b::cubature_battery_seed() + static_cast<int>(family));
    b::Tally by_tolerance[3];
    for (int i = 0; i < rows; ++i) {
      const double rel_tol = b::kCubatureTolerances[i % 3];
      const b::CubatureDraw d = b::draw_cubature(random, family, 8);
      const CubatureIntegrand f = b::cubature_integrand(d);
      const CubatureOptions o = b::cubature_options(d, rel_tol, cap);
      const CubatureResult cpu = integrate_cubature(f, o, ComputeDevice::Cpu);
      const CubatureResult gpu = integrate_cubature(f, o, ComputeDevice::Cuda);
      by_tolerance[i % 3].add(b::cubature_row(d, rel_tol, gpu));
      b::print_if_noteworthy(d, rel_tol, gpu);
      status_differs += gpu.status != cpu.status;
      EXPECT_LE(std::fabs(gpu.estimate - cpu.estimate), gpu.error + cpu.error)
          << to_string(family) << " n=" << d.dim << " a=" << d.a << " u=" << d.u;
    }
    b::expect_family_rules(to_string(family), by_tolerance);
  }
  std::printf("rows whose status differs between the CPU and the GPU: %d of %d\n", status_differs, 6 * rows);
}

TEST_F(QuadratureGpu, CubatureBatteryAtTheStageCap) {
  // The stage's default cap (2e9 evaluations), GEOBEM_BATTERY_ROWS rows per
  // family and tolerance (default 6), device only: how often flags cry wolf
  // when the cap is the real one. At 1e-4 and 1e-6: at 1e-10 and 1e-12 most
  // rows in 5–8D run to the cap, seconds each (8 rows of one family took
  // more than 2 minutes on an H100).
  namespace b = geobem::battery;
  const int rows = static_cast<int>(b::environment_or("GEOBEM_BATTERY_ROWS", 6));
  std::printf("%s\n", b::tally_header());
  for (CubatureFamily family : b::kGenzFamilies) {
    std::mt19937_64 random(7 + static_cast<int>(family));
    for (double rel_tol : {1e-4, 1e-6}) {
      b::Tally tally;
      for (int i = 0; i < rows; ++i) {
        const b::CubatureDraw d = b::draw_cubature(random, family, 8);
        const CubatureOptions o = b::cubature_options(d, rel_tol, CubatureOptions{}.max_evaluations);
        const CubatureResult r = integrate_cubature(b::cubature_integrand(d), o, ComputeDevice::Cuda);
        tally.add(b::cubature_row(d, rel_tol, r));
        b::print_if_noteworthy(d, rel_tol, r);
      }
      std::printf("%s\n", tally.line(to_string(family), rel_tol).c_str());
      EXPECT_TRUE(tally.rule()) << tally.line(to_string(family), rel_tol);
    }
  }
}

TEST_F(QuadratureGpu, Adaptive1DBatteryKeepsTheStatusPromiseAndMatchesCpu) {
  namespace b = geobem::battery;
  for (Integrand1DFamily family : b::kFamilies1D) {
    std::mt19937_64 random(20261124 + static_cast<int>(family));
    std::vector<Problem1D> problems(2000);  // the CPU battery's draws, full size
    std::vector<double> exact(problems.size());
    for (std::size_t i = 0; i < problems.size(); ++i) {
      problems[i] = b::draw_1d(random, family);
      exact[i] = static_cast<double>(b::reference_1d(problems[i].integrand, problems[i].lower, problems[i].upper));
    }
    for (double rel_tol : {1e-6, 1e-10, 1e-12}) {
      Adaptive1DOptions o;
      o.rel_tol = rel_tol;
      o.alpha = 8;
      o.beta = 32;
      o.max_evaluations = 10'000'000;
      const auto cpu = integrate_adaptive_1d_batch(problems, o, ComputeDevice::Cpu);
      const auto gpu = integrate_adaptive_1d_batch(problems, o, ComputeDevice::Cuda);
      b::Tally tally;
      for (std::size_t i = 0; i < problems.size(); ++i) {
        tally.add({gpu[i].estimate, gpu[i].error, exact[i], rel_tol * std::fabs(exact[i]),
                   static_cast<int>(gpu[i].status)});
        EXPECT_LE(std::fabs(gpu[i].estimate - cpu[i].estimate), gpu[i].error + cpu[i].error) << to_string(family) << " " << i;
      }
      std::printf("%s\n", tally.line(to_string(family), rel_tol).c_str());
      EXPECT_TRUE(tally.rule()) << tally.line(to_string(family), rel_tol);
      EXPECT_TRUE(tally.cry_wolf_rule()) << tally.line(to_string(family), rel_tol);
    }
  }
}
