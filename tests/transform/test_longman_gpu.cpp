// CUDA vs CPU for every built-in family and accelerator (label gpu): the same
// GEOBEM_HD solver on both sides, so values agree to rounding (the device's
// fused multiply-adds and libdevice exp/cos differ from the host's in the
// last bits) and the statuses agree.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "closed_forms.hpp"
#include "longman_battery.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/transform/longman_cuda_pipeline.hpp"
#include "gpu/transform/transform.hpp"
#include "tests/support/backend_test.hpp"

using namespace geobem::transform;

class LongmanCuda : public geobem::test::CudaTest {};

namespace {

std::vector<double> random_parameters(TransformFamily family, std::size_t count, std::mt19937_64& random) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> p;
  for (std::size_t i = 0; i < count; ++i) {
    switch (family) {
      case transform_family<ExponentialCosine>:
      case transform_family<ExponentialSine>:
        p.insert(p.end(), {0.05 + 5 * unit(random), 0.1 + 50 * unit(random)});
        break;
      case transform_family<LorentzianCosine>:
      case transform_family<LorentzianSine>:
        p.push_back(0.1 + 8 * unit(random));
        break;
      case transform_family<HankelExponential>:
        p.insert(p.end(), {std::floor(2 * unit(random)), std::floor(2 * unit(random)), 0.05 + 5 * unit(random),
                           0.1 + 10 * unit(random)});
        break;
      case transform_family<HalfSpaceDisk>:
        p.insert(p.end(), {1.0, 20 * unit(random)});
        break;
    }
  }
  return p;
}

}  // namespace

TEST_F(LongmanCuda, AgreesWithCpuForEveryFamilyAndAccelerator) {
  std::mt19937_64 random(4);
  const std::size_t count = 2000;
  for (const auto& description : transform_families()) {
    const auto parameters = random_parameters(description.family, count, random);
    for (const Accelerator accelerator : {Accelerator::Euler, Accelerator::Epsilon, Accelerator::SidiMW}) {
      LongmanOptions options;
      options.accelerator = accelerator;
      options.relative_tolerance = 1e-10;
      const auto cpu = integrate_family(description.family, parameters, count, options, 16, geobem::ComputeDevice::Cpu);
      LongmanTimings timings;
      const auto gpu = integrate_family(description.family, parameters, count, options, 16,
                                        geobem::ComputeDevice::Cuda, true, &timings);
      int status_mismatches = 0;
      double worst = 0.0;
      for (std::size_t i = 0; i < count; ++i) {
        status_mismatches += cpu[i].status != gpu[i].status;
        if (cpu[i].status == geobem::IntegrationStatus::Converged && gpu[i].status == geobem::IntegrationStatus::Converged)
          worst = std::fmax(worst, std::fabs(cpu[i].value - gpu[i].value) /
                                       (std::fabs(cpu[i].value) * 1e-10 + cpu[i].error + gpu[i].error));
      }
      // Rounding may tip an integral across the tolerance on one side only.
      EXPECT_LE(status_mismatches, static_cast<int>(count / 100)) << description.name << " " << to_string(accelerator);
      EXPECT_LE(worst, 1.0) << description.name << " " << to_string(accelerator);
      EXPECT_GT(timings.kernel_ms, 0.0);
    }
  }
}

TEST_F(LongmanCuda, PaperBatchMatchesClosedForm) {
  const std::size_t count = 50000;
  std::vector<double> parameters(2 * count);
  for (std::size_t i = 0; i < count; ++i) {
    parameters[2 * i] = 0.1 + 0.9 * (i % 1000) / 1000.0;
    parameters[2 * i + 1] = 1.0 + 19.0 * (i / 1000) / 50.0;
  }
  LongmanOptions options;
  options.accelerator = Accelerator::Euler;
  options.min_areas = options.max_areas = 16;  // the paper's N = 16
  const auto gpu = integrate_family(transform_family<ExponentialCosine>, parameters, count, options, 16,
                                    geobem::ComputeDevice::Cuda);
  const auto cpu = integrate_family(transform_family<ExponentialCosine>, parameters, count, options, 16,
                                    geobem::ComputeDevice::Cpu);
  for (std::size_t i = 0; i < count; ++i) {
    const double lambda = parameters[2 * i], omega = parameters[2 * i + 1];
    const double exact = geobem::test::exponential_cosine(lambda, omega);
    // Euler's transformation of areas with ratio -rho, rho = e^{-lambda pi/omega},
    // leaves about ((1 - rho)/2)^16 of the first area (of size ~2/omega).
    const double rho = std::exp(-lambda * geobem::kPi / omega);
    const double bound = 4.0 / omega * std::pow(0.5 * (1.0 - rho), 16) + 5e-12 * exact;  // + rounding
    ASSERT_LE(std::fabs(gpu[i].value - exact), bound) << "lambda " << lambda << " omega " << omega;
    ASSERT_NEAR(gpu[i].value, cpu[i].value, 1e-12 * exact) << "lambda " << lambda << " omega " << omega;
    ASSERT_EQ(gpu[i].evaluations, cpu[i].evaluations);
  }
}

TEST_F(LongmanCuda, BatchesOfMoreChunksThanSlotsMatchTheCpu) {
  // More chunks than the pipeline has slots, the last one partial: every
  // slot is reused, and each chunk's results must land at its own place.
  using geobem::transform::detail::kLongmanChunk;
  using geobem::transform::detail::kLongmanSlots;
  const std::size_t count = (kLongmanSlots + 1) * kLongmanChunk + 1234;
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> lambda(0.1, 1.0), omega(1.0, 20.0);
  std::vector<double> parameters(2 * count);
  for (std::size_t i = 0; i < count; ++i) parameters[2 * i] = lambda(random), parameters[2 * i + 1] = omega(random);
  LongmanOptions options;
  options.accelerator = Accelerator::Epsilon;
  options.relative_tolerance = 1e-10;
  LongmanTimings timings;
  const auto gpu = integrate_family(transform_family<ExponentialCosine>, parameters, count, options, 16,
                                    geobem::ComputeDevice::Cuda, true, &timings);
  const auto cpu = integrate_family(transform_family<ExponentialCosine>, parameters, count, options, 16,
                                    geobem::ComputeDevice::Cpu);
  std::size_t status_mismatches = 0;
  double worst = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    status_mismatches += cpu[i].status != gpu[i].status;
    worst = std::fmax(worst, std::fabs(cpu[i].value - gpu[i].value) /
                                 (std::fabs(cpu[i].value) * 1e-10 + cpu[i].error + gpu[i].error));
  }
  EXPECT_LE(status_mismatches, count / 100);
  EXPECT_LE(worst, 1.0);
  EXPECT_GT(timings.upload_ms, 0.0);
  EXPECT_GT(timings.kernel_ms, 0.0);
  EXPECT_GT(timings.download_ms, 0.0);
  // The kernels' span lies within the batch's.
  EXPECT_GT(timings.kernel_span_ms, 0.0);
  EXPECT_LE(timings.kernel_span_ms, timings.device_span_ms);
  // A smaller batch after the large one reuses the grown buffers: its
  // results are those of the same integrals in the large batch.
  const std::size_t small = 1000;
  const std::vector<double> head(parameters.begin() + 2 * 777, parameters.begin() + 2 * (777 + small));
  std::vector<LongmanResult> again = gpu;  // the overload into a caller's vector: resized, storage reused
  integrate_family(transform_family<ExponentialCosine>, head, small, options, 16, geobem::ComputeDevice::Cuda, again);
  ASSERT_EQ(again.size(), small);
  for (std::size_t i = 0; i < small; ++i) {
    ASSERT_EQ(again[i].value, gpu[777 + i].value) << "integral " << 777 + i;
    ASSERT_EQ(again[i].evaluations, gpu[777 + i].evaluations) << "integral " << 777 + i;
  }
}

TEST_F(LongmanCuda, BatteriesMatchClosedFormsAndCpu) {
  // The CPU batteries (test_longman_battery.cpp, same draws) on the device: the
  // honest-status rule against the long-double closed forms, and the GPU
  // against the CPU (statuses agree but where rounding tips an integral across
  // its tolerance; values of rows converged on both agree within the tolerance).
  constexpr std::size_t kCount = 2000;
  for (const auto& description : transform_families()) {
    const TransformFamily family = description.family;
    std::mt19937_64 random(20261124 + static_cast<unsigned>(family));
    const std::vector<double> parameters = geobem::test::draw_battery(family, kCount, random);
    const std::size_t stride = description.parameters.size();
    for (const Accelerator accelerator : {Accelerator::Euler, Accelerator::Epsilon, Accelerator::SidiMW}) {
      for (const double tolerance : {1e-6, 1e-10, 1e-12}) {
        LongmanOptions options;
        options.accelerator = accelerator;
        options.relative_tolerance = tolerance;
        const auto gpu = integrate_family(family, parameters, kCount, options, 16, geobem::ComputeDevice::Cuda);
        const auto cpu = integrate_family(family, parameters, kCount, options, 16, geobem::ComputeDevice::Cpu);
        geobem::test::BatteryTally t;
        std::size_t status_mismatches = 0, value_mismatches = 0;
        for (std::size_t i = 0; i < kCount; ++i) {
          const long double exact = geobem::test::closed_form_long(family, &parameters[i * stride]);
          t.add(gpu[i], exact, tolerance);
          status_mismatches += gpu[i].status != cpu[i].status;
          if (gpu[i].status == geobem::IntegrationStatus::Converged &&
              cpu[i].status == geobem::IntegrationStatus::Converged)
            value_mismatches += !(std::fabs(gpu[i].value - cpu[i].value) <=
                                  2 * tolerance * static_cast<double>(std::fabs(exact)));
        }
        const std::string label = description.name + " " + to_string(accelerator) + " tol " + std::to_string(tolerance);
        EXPECT_GE(t.converged_good, t.converged * 995 / 1000) << label;
        EXPECT_EQ(t.converged_off_10x, 0u) << label << " (worst " << t.worst_converged << "x the tolerance)";
        EXPECT_GE(t.flagged_bounded, t.flagged * 95 / 100) << label << ": of " << t.flagged << " flagged";
        EXPECT_LE(t.flagged_within, t.cry_wolf_allowed()) << label << ": of " << t.flagged << " flagged";
        EXPECT_LE(status_mismatches, kCount / 100) << label;
        EXPECT_EQ(value_mismatches, 0u) << label;
      }
    }
  }
}
