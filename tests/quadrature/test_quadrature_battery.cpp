// Random batteries (fixed seeds) for the honest-status rule of battery.hpp:
// Genz's six families in 2–8 dimensions at 1e-6 and 1e-10 against their
// closed forms, the four 1D families at 1e-6, 1e-10 and 1e-12 against a
// long-double Gauss–Legendre reference. CI runs a few rows per family; the
// statistics of bench/RESULTS.md come from the same code with
// GEOBEM_BATTERY_ROWS (rows per family and tolerance) and GEOBEM_BATTERY_CAP
// (cubature evaluation cap) raised; each run prints its table on stdout.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

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
  const int rows = static_cast<int>(environment_or("GEOBEM_BATTERY_ROWS", 4));
  const double cap = environment_or("GEOBEM_BATTERY_CAP", 2e7);
  const int max_dim = static_cast<int>(environment_or("GEOBEM_BATTERY_MAX_DIM", 8));
  std::printf("%s\n", tally_header());
  for (q::CubatureFamily family : kGenzFamilies) {
    std::mt19937_64 random(20261124 + static_cast<int>(family));
    for (double rel_tol : {1e-6, 1e-10}) {
      Tally tally;
      for (int i = 0; i < rows; ++i) {
        const CubatureDraw d = draw_cubature(random, family, max_dim);
        const q::CubatureIntegrand f = q::make_cubature_integrand(family, d.dim, d.a, d.u);
        q::CubatureOptions o;
        o.dim = d.dim;
        o.rel_tol = rel_tol;
        o.max_evaluations = static_cast<std::uint64_t>(cap);
        const q::CubatureResult r = q::integrate_cubature(f, o, ComputeDevice::Cpu);
        const double exact = static_cast<double>(genz_closed_form(family, d.dim, d.a, d.u));
        const Row row{r.estimate, r.error, exact, rel_tol * std::fabs(exact), static_cast<int>(r.status)};
        tally.add(row);
        if (std::getenv("GEOBEM_BATTERY_VERBOSE") &&
            (std::fabs(r.estimate - exact) > (row.status == 0 ? std::min(row.tolerance, r.error) : r.error) ||
             (row.status != 0 && std::fabs(r.estimate - exact) <= row.tolerance)))
          std::printf("  %s n=%d a=%.17g u=%.17g tol=%g: %.17g exact %.17g error %.3g status %d evals %llu\n",
                      q::to_string(family).c_str(), d.dim, d.a, d.u, rel_tol, r.estimate, exact, r.error, row.status,
                      static_cast<unsigned long long>(r.evaluations));
      }
      std::printf("%s\n", tally.line(q::to_string(family), rel_tol).c_str());
      std::fflush(stdout);
      EXPECT_TRUE(tally.rule()) << tally.line(q::to_string(family), rel_tol);
    }
  }
}

TEST(Adaptive1DBattery, FamiliesKeepTheStatusPromise) {
  const int rows = static_cast<int>(environment_or("GEOBEM_BATTERY_ROWS", 40));
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
        if (std::getenv("GEOBEM_BATTERY_VERBOSE") &&
            (std::fabs(r.estimate - value) > (row.status == 0 ? std::min(row.tolerance, r.error) : r.error) ||
             (row.status != 0 && std::fabs(r.estimate - value) <= row.tolerance)))
          std::printf("  %s [%.17g, %.17g] p=%.17g,%.17g,%.17g tol=%g: %.17g exact %.17g error %.3g status %d evals %llu\n",
                      q::to_string(family).c_str(), problems[i].lower, problems[i].upper, problems[i].integrand.p[0],
                      problems[i].integrand.p[1], problems[i].integrand.p[2], rel_tol, r.estimate, value, r.error,
                      row.status, static_cast<unsigned long long>(r.evaluations));
      }
      std::printf("%s\n", tally.line(q::to_string(family), rel_tol).c_str());
      std::fflush(stdout);
      EXPECT_TRUE(tally.rule()) << tally.line(q::to_string(family), rel_tol);
    }
  }
}
