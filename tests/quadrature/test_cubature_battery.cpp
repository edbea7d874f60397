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

#include <cstdlib>

#include "tests/quadrature/battery.hpp"

using namespace geobem::battery;
using geobem::ComputeDevice;

namespace {

double environment_or(const char* name, double fallback) {
  const char* text = std::getenv(name);
  return text ? std::atof(text) : fallback;
}

}  // namespace

TEST(CubatureBattery, GenzFamiliesKeepTheStatusPromise) {
  const int rows = static_cast<int>(environment_or("GEOBEM_BATTERY_ROWS", 48));
  const double cap = environment_or("GEOBEM_BATTERY_CAP", 1e7);
  const bool verbose = std::getenv("GEOBEM_BATTERY_VERBOSE") != nullptr;
  std::printf("%s\n", tally_header());
  for (q::CubatureFamily family : kGenzFamilies) {
    std::mt19937_64 random(20261124 + static_cast<int>(family));
    Tally by_tolerance[3], all;
    for (int i = 0; i < rows; ++i) {
      const CubatureDraw d = draw_cubature(random, family, 8);
      const int t = i % 3;
      const double rel_tol = kCubatureTolerances[t];
      const q::CubatureIntegrand f = q::make_cubature_integrand(family, d.dim, d.a, d.u);
      q::CubatureOptions o;
      o.dim = d.dim;
      o.rel_tol = rel_tol;
      o.max_evaluations = static_cast<std::uint64_t>(cap);
      const q::CubatureResult r = q::integrate_cubature(f, o, ComputeDevice::Cpu);
      const double exact = static_cast<double>(genz_closed_form(family, d.dim, d.a, d.u));
      const Row row{r.estimate, r.error, exact, rel_tol * std::fabs(exact), static_cast<int>(r.status)};
      by_tolerance[t].add(row);
      all.add(row);
      const double true_error = std::fabs(r.estimate - exact);
      if (verbose && (true_error > (row.status == 0 ? std::min(row.tolerance, r.error) : r.error) ||
                      (row.status != 0 && true_error <= row.tolerance)))
        std::printf("  %s n=%d a=%.17g u=%.17g tol=%g: %.17g exact %.17g error %.3g status %d evals %llu\n",
                    q::to_string(family).c_str(), d.dim, d.a, d.u, rel_tol, r.estimate, exact, r.error, row.status,
                    static_cast<unsigned long long>(r.evaluations));
    }
    for (int t = 0; t < 3; ++t)
      std::printf("%s\n", by_tolerance[t].line(q::to_string(family), kCubatureTolerances[t]).c_str());
    std::fflush(stdout);
    EXPECT_TRUE(all.rule()) << q::to_string(family) << ", all tolerances: " << all.line(q::to_string(family), 0.0);
  }
}
