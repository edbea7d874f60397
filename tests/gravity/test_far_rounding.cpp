// The rounding bounds of far sources in single precision
// (far_prism_rounding_bounds, rounding_estimate.hpp) against the double
// path's (double_prism_rounding_bounds): never below them, and within the
// inflation and float's rounding above them, for prisms of sides 1e-12 to
// 1e8 m and aspects up to 1e4, stations 1 to 1e6 of the largest side away in
// every direction (on the face planes' extensions too), around origins up to
// 1e7 m; refused (false, the double path then) near sources and outside the
// proven size range.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "gpu/gravity/rounding_estimate.hpp"
#include "tests/gravity/far_cases.hpp"

namespace geobem::gravity {
namespace {

using test::far_case;
using test::log_uniform;

TEST(FarRounding, FloatBoundsAreAtLeastTheDoubleBoundsAndWithinTheInflation) {
  std::mt19937_64 rng(20261129);
  int far = 0;
  for (int i = 0; i < 200000; ++i) {
    const test::Case c = far_case(rng, log_uniform(rng, 0.001, 6));
    double single[3], reference[3];
    double_prism_rounding_bounds<double>(c.rel, c.size, reference);
    if (!far_prism_rounding_bounds(c.rel, c.size, single)) continue;
    ++far;
    for (int g = 0; g < rounding_groups; ++g) {
      SCOPED_TRACE("case " + std::to_string(i) + ", group " + std::to_string(g));
      ASSERT_GE(single[g], reference[g]);
      // The inflation (1.5e-5) and float's rounding (a few 1e-7) above.
      ASSERT_LE(single[g], reference[g] * (1 + 2e-5));
    }
  }
  // Every station is at least 1.0023 largest sides away: the float path.
  EXPECT_EQ(far, 200000);
}

TEST(FarRounding, NearSourcesAndSizesOutsideTheProvenRangeTakeTheDoublePath) {
  std::mt19937_64 rng(7);
  double e[3] = {-1, -1, -1};
  for (int i = 0; i < 10000; ++i) {
    // Within the largest side of the prism.
    const test::Case c = far_case(rng, log_uniform(rng, -6, -0.001));
    EXPECT_FALSE(far_prism_rounding_bounds(c.rel, c.size, e)) << "case " << i;
  }
  const double unit_far[6] = {10, 11, 10, 11, 10, 11}, unit[3] = {1, 1, 1};
  EXPECT_TRUE(far_prism_rounding_bounds(unit_far, unit, e));
  // Largest side below 1e-18 m, a side below 1e-30 m, the farthest vertex beyond 1e18 m.
  const double tiny_far[6] = {1e-17, 1.1e-17, 1e-17, 1.1e-17, 1e-17, 1.1e-17}, tiny[3] = {1e-19, 1e-19, 1e-19};
  const double flat[3] = {1, 1, 1e-31}, huge_far[6] = {2e18, 2e18 + 1e3, 0, 1, 0, 1}, huge[3] = {1e3, 1, 1};
  EXPECT_FALSE(far_prism_rounding_bounds(tiny_far, tiny, e));
  EXPECT_FALSE(far_prism_rounding_bounds(unit_far, flat, e));
  EXPECT_FALSE(far_prism_rounding_bounds(huge_far, huge, e));
  EXPECT_EQ(e[0], e[0]);  // not NaN: untouched or set by the first call
}

TEST(FarRounding, ThePrismBoundsAreTheFloatPathFarAndTheDoublePathNear) {
  const Station station{1000, 2000, 30};
  double e[3], reference[3];
  // 500 m away: the float path, just above the double bounds.
  prism_rounding_bounds<double>(1500, 1510, 2000, 2010, 0, 10, station, e);
  const double far_rel[6] = {500, 510, 0, 10, -30, -20}, sides[3] = {10, 10, 10};
  double_prism_rounding_bounds<double>(far_rel, sides, reference);
  for (int g = 0; g < rounding_groups; ++g) {
    EXPECT_GE(e[g], reference[g]);
    EXPECT_LE(e[g], reference[g] * (1 + 2e-5));
  }
  // On a vertex: the double path's finite parts, exactly.
  prism_rounding_bounds<double>(1000, 1010, 2000, 2010, 30, 40, station, e);
  const double vertex_rel[6] = {0, 10, 0, 10, 0, 10};
  double_prism_rounding_bounds<double>(vertex_rel, sides, reference);
  for (int g = 0; g < rounding_groups; ++g) EXPECT_EQ(e[g], reference[g]);
}

}  // namespace
}  // namespace geobem::gravity
