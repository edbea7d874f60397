// Random batteries (fixed seeds) for the honest-status rule of battery.hpp,
// flags that cry wolf included: the four 1D families at 1e-6, 1e-10 and
// 1e-12 against a Gauss–Legendre reference in long double (the cubature's:
// test_cubature_battery.cpp). CI runs the 1D battery at full size (2,000
// integrals per family and tolerance); the statistics of bench/RESULTS.md come from the same code with
// GEOBEM_BATTERY_ROWS (rows per family and tolerance) and GEOBEM_BATTERY_CAP
// (evaluation cap) raised; each run prints its table on stdout.
#include <gtest/gtest.h>

#include "tests/quadrature/battery.hpp"

using namespace geobem::battery;
using geobem::ComputeDevice;

TEST(Adaptive1DBattery, FamiliesKeepTheStatusPromise) {
  const int rows = static_cast<int>(environment_or("GEOBEM_BATTERY_ROWS", 2000));
  const double cap = environment_or("GEOBEM_BATTERY_CAP", 1e7);
  std::printf("%s\n", tally_header());
  for (q::Integrand1DFamily family : kFamilies1D) {
    std::mt19937_64 random(20261124 + static_cast<int>(family));
    std::vector<q::Problem1D> problems(rows);
    std::vector<long double> exact(rows);
    for (int i = 0; i < rows; ++i) {
      problems[i] = draw_1d(random, family);
      exact[i] = reference_1d(problems[i].integrand, problems[i].lower, problems[i].upper);
    }
    for (double rel_tol : {1e-6, 1e-10, 1e-12}) {
      q::Adaptive1DOptions o;
      o.rel_tol = rel_tol;
      o.alpha = 8;
      o.beta = 32;
      o.max_evaluations = static_cast<std::uint64_t>(cap);
      const std::vector<q::Adaptive1DResult> results = q::integrate_adaptive_1d_batch(problems, o, ComputeDevice::Cpu);
      Tally tally;
      for (int i = 0; i < rows; ++i) {
        const q::Adaptive1DResult& r = results[i];
        const double value = static_cast<double>(exact[i]);
        const Row row{r.estimate, r.error, value, rel_tol * std::fabs(value), static_cast<int>(r.status)};
        tally.add(row);
        if (verbose() && row.noteworthy())
          std::printf("  %s [%.17g, %.17g] p=%.17g,%.17g,%.17g tol=%g: %.17g exact %.17g error %.3g status %d evals %llu\n",
                      q::to_string(family).c_str(), problems[i].lower, problems[i].upper, problems[i].integrand.p[0],
                      problems[i].integrand.p[1], problems[i].integrand.p[2], rel_tol, r.estimate, value, r.error,
                      row.status, static_cast<unsigned long long>(r.evaluations));
      }
      std::printf("%s\n", tally.line(q::to_string(family), rel_tol).c_str());
      std::fflush(stdout);
      EXPECT_TRUE(tally.rule()) << tally.line(q::to_string(family), rel_tol);
      EXPECT_TRUE(tally.cry_wolf_rule()) << tally.line(q::to_string(family), rel_tol);
    }
  }
}
