// Random battery (fixed seeds) for the cubature's honest-status rule of
// battery.hpp: Genz's six families in 2–8 dimensions, a log-uniform over each
// family's documented range and u uniform over [0, 1] (edges drawn on
// purpose), against their closed forms in long double. The tolerances are
// those cubature is used at: 1e-3, 1e-4 and 1e-6 relative, one in turn per
// row. CI runs GEOBEM_BATTERY_ROWS rows per family (default 48) at a cap of
// GEOBEM_BATTERY_CAP evaluations (default 1e7: a cap below about 3e6 stops
// 8D runs before the minimum grid is complete, and their error estimates
// are then no bound); bench/RESULTS.md records larger runs of the same code.
// Each run prints its table on stdout (GEOBEM_BATTERY_VERBOSE=1: also every
// row that breaks the rule or whose flag cries wolf).
#include <gtest/gtest.h>

#include "tests/quadrature/battery.hpp"

using namespace geobem::battery;
using geobem::ComputeDevice;

TEST(CubatureBattery, GenzFamiliesKeepTheStatusPromise) {
  const int rows = static_cast<int>(environment_or("GEOBEM_BATTERY_ROWS", 48));
  const double cap = environment_or("GEOBEM_BATTERY_CAP", 1e7);
  std::printf("%s\n", tally_header());
  for (q::CubatureFamily family : kGenzFamilies) {
    std::mt19937_64 random(20261124 + static_cast<int>(family));
    Tally by_tolerance[3], all;
    for (int i = 0; i < rows; ++i) {
      const CubatureDraw d = draw_cubature(random, family, 8);
      const int t = i % 3;
      const double rel_tol = kCubatureTolerances[t];
      const q::CubatureResult r =
          q::integrate_cubature(cubature_integrand(d), cubature_options(d, rel_tol, cap), ComputeDevice::Cpu);
      const Row row = cubature_row(d, rel_tol, r);
      by_tolerance[t].add(row);
      all.add(row);
      if (verbose() && row.noteworthy())
        std::printf("  %s n=%d a=%.17g u=%.17g tol=%g: %.17g exact %.17g error %.3g status %d evals %llu\n",
                    q::to_string(family).c_str(), d.dim, d.a, d.u, rel_tol, r.estimate, row.exact, r.error, row.status,
                    static_cast<unsigned long long>(r.evaluations));
    }
    for (int t = 0; t < 3; ++t)
      std::printf("%s\n", by_tolerance[t].line(q::to_string(family), kCubatureTolerances[t]).c_str());
    std::fflush(stdout);
    EXPECT_TRUE(all.rule()) << q::to_string(family) << ", all tolerances: " << all.line(q::to_string(family), 0.0);
  }
}
