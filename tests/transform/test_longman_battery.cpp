// The honest-status rule on random batteries (label cpu): for every built-in
// family, 2,000 integrals drawn over its documented range (longman_battery.hpp:
// log-uniform, edges, strong damping, low frequency, the rim, a = 0, r = 0),
// each accelerator, relative tolerances 1e-6, 1e-10 and 1e-12, against closed
// forms in long double:
//  - >= 99.5% of converged rows within the tolerance and their own estimate,
//    none off by more than 10x the tolerance;
//  - flagged rows: the estimate bounds the true error in >= 95%, and <= 5% of
//    them are within the tolerance (flags that do not cry wolf; below 20
//    flagged rows, at most one);
//  - >= 95% of all rows converge (a method that flags everything fails too).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "longman_battery.hpp"

using namespace geobem::transform;
using geobem::test::BatteryTally;

namespace {

void check_battery(TransformFamily family) {
  constexpr std::size_t kCount = 2000;
  std::mt19937_64 random(20261124 + static_cast<unsigned>(family));
  const std::vector<double> parameters = geobem::test::draw_battery(family, kCount, random);
  const std::size_t stride = describe(family).parameters.size();
  for (const Accelerator accelerator : {Accelerator::Euler, Accelerator::Epsilon, Accelerator::SidiMW}) {
    for (const double tolerance : {1e-6, 1e-10, 1e-12}) {
      LongmanOptions options;
      options.accelerator = accelerator;
      options.relative_tolerance = tolerance;
      const auto results = integrate_family(family, parameters, kCount, options, 16, geobem::ComputeDevice::Cpu);
      BatteryTally t;
      for (std::size_t i = 0; i < kCount; ++i)
        t.add(results[i], geobem::test::closed_form_long(family, &parameters[i * stride]), tolerance);
      const std::string label = describe(family).name + " " + to_string(accelerator) + " tol " + std::to_string(tolerance);
      EXPECT_GE(t.converged_good, t.converged * 995 / 1000) << label << ": " << t.converged - t.converged_good
                                                            << " converged rows beyond tolerance or estimate";
      EXPECT_EQ(t.converged_off_10x, 0u) << label << " (worst " << t.worst_converged << "x the tolerance)";
      EXPECT_GE(t.flagged_bounded, t.flagged * 95 / 100) << label << ": of " << t.flagged << " flagged";
      EXPECT_LE(t.flagged_within, t.cry_wolf_allowed()) << label << ": of " << t.flagged << " flagged";
      EXPECT_GE(t.converged, t.rows * 95 / 100) << label;
    }
  }
}

}  // namespace

TEST(LongmanBattery, ExponentialCosine) { check_battery(transform_family<ExponentialCosine>); }
TEST(LongmanBattery, ExponentialSine) { check_battery(transform_family<ExponentialSine>); }
TEST(LongmanBattery, LorentzianCosine) { check_battery(transform_family<LorentzianCosine>); }
TEST(LongmanBattery, LorentzianSine) { check_battery(transform_family<LorentzianSine>); }
TEST(LongmanBattery, HankelExponential) { check_battery(transform_family<HankelExponential>); }
TEST(LongmanBattery, HalfSpaceDisk) { check_battery(transform_family<HalfSpaceDisk>); }
