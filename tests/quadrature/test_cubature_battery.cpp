// Random battery (fixed seeds) for the cubature's honest-status rule of
// battery.hpp: Genz's six families in 2–8 dimensions, a log-uniform over each
// family's documented range and u uniform over [0, 1] (edges drawn on
// purpose), against their closed forms in long double, at the tolerances
// the rule is stated for: 1e-6, 1e-10 and 1e-12 relative, one in turn per
// row; the cry-wolf share over each family's rows, its tolerances pooled
// (battery.hpp says why). CI runs GEOBEM_BATTERY_ROWS rows per family
// (default 48) at a cap of GEOBEM_BATTERY_CAP evaluations (default 1e7, the
// stage's is 2e9: a cap below about 3e6 stops 8D runs before the minimum
// grid is complete, and their error estimates are then no bound);
// bench/RESULTS.md records larger runs of the same code. The rows run in
// parallel (OpenMP, one row a thread: most are too small to share out).
// Each run prints its table on stdout (GEOBEM_BATTERY_VERBOSE=1: also every
// row that breaks the rule or whose flag cries wolf; GEOBEM_BATTERY_FAMILIES:
// only the families named; GEOBEM_BATTERY_SEED: other draws than CI's, to
// check what was tuned on them).
#include <gtest/gtest.h>
#include <omp.h>

#include "tests/quadrature/battery.hpp"

using namespace geobem::battery;
using geobem::ComputeDevice;

TEST(CubatureBattery, GenzFamiliesKeepTheStatusPromise) {
  const int rows = static_cast<int>(environment_or("GEOBEM_BATTERY_ROWS", 48));
  const double cap = environment_or("GEOBEM_BATTERY_CAP", 1e7);
  omp_set_max_active_levels(1);  // one row a thread; the integrator's own loops run inside it
  std::printf("%s\n", tally_header());
  const char* only = std::getenv("GEOBEM_BATTERY_FAMILIES");  // e.g. "gaussian,discontinuous"; unset: all
  for (q::CubatureFamily family : kGenzFamilies) {
    if (only && std::string(only).find(q::to_string(family)) == std::string::npos) continue;
    std::mt19937_64 random(cubature_battery_seed() + static_cast<int>(family));
    std::vector<CubatureDraw> draws(rows);
    for (CubatureDraw& d : draws) d = draw_cubature(random, family, 8);
    std::vector<q::CubatureResult> results(rows);
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < rows; ++i)
      results[i] = q::integrate_cubature(cubature_integrand(draws[i]),
                                         cubature_options(draws[i], kCubatureTolerances[i % 3], cap),
                                         ComputeDevice::Cpu);
    Tally by_tolerance[3];
    for (int i = 0; i < rows; ++i) {
      by_tolerance[i % 3].add(cubature_row(draws[i], kCubatureTolerances[i % 3], results[i]));
      print_if_noteworthy(draws[i], kCubatureTolerances[i % 3], results[i]);
    }
    expect_family_rules(q::to_string(family), by_tolerance);
  }
}
