// distinct_radii and RadiusLookup (gpu/transform/halfspace_load.hpp) against
// expectations built without them: the distinct squared distances of an
// integer station grid, hand-placed radii on both sides of the matching
// tolerance, and a fixed-seed battery of radii log-uniform over nine decades
// with rounding-size jitter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "gpu/transform/halfspace_load.hpp"

namespace tf = geobem::transform;

namespace {

constexpr double tol = tf::kRadiusMatchTolerance;

TEST(DistinctRadii, GridSymmetricAboutTheDiskHasOneRadiusPerSquaredDistance) {
  // Stations on an 11 x 9 grid of 7 m spacing around a disk at (1234.5, -987.25):
  // the coordinates differences are exact, the distances computed in two
  // orders differ by rounding only. Distinct radii = distinct i^2 + j^2.
  const double spacing = 7.0, east0 = 1234.5, north0 = -987.25;
  std::vector<double> radii;
  std::set<int> squares;
  for (int i = -5; i <= 5; ++i)
    for (int j = -4; j <= 4; ++j) {
      const double e = east0 + spacing * i, n = north0 + spacing * j;
      radii.push_back((i + j) % 2 ? std::hypot(e - east0, n - north0) : std::sqrt((n - north0) * (n - north0) +
                                                                                   (e - east0) * (e - east0)));
      squares.insert(i * i + j * j);
    }
  const auto distinct = tf::distinct_radii(radii);
  ASSERT_EQ(distinct.size(), squares.size());
  std::size_t k = 0;
  for (const int square : squares) {
    const double expected = spacing * std::sqrt(static_cast<double>(square));
    EXPECT_NEAR(distinct[k], expected, 1e-15 * std::max(expected, 1.0)) << "i^2 + j^2 = " << square;
    ++k;
  }
}

TEST(DistinctRadii, EdgesOfTheTolerance) {
  EXPECT_TRUE(tf::distinct_radii({}).empty());
  EXPECT_EQ(tf::distinct_radii({5.0}), std::vector<double>{5.0});
  EXPECT_EQ(tf::distinct_radii({3.0, 3.0, 3.0}), std::vector<double>{3.0});
  // Ascending, whatever the input order.
  EXPECT_EQ(tf::distinct_radii({30.0, 10.0, 20.0, 10.0}), (std::vector<double>{10.0, 20.0, 30.0}));
  // Relative above 1 m: half the tolerance merges, three times keeps both.
  EXPECT_EQ(tf::distinct_radii({1000.0, 1000.0 * (1 + 0.5 * tol)}).size(), 1u);
  EXPECT_EQ(tf::distinct_radii({1000.0, 1000.0 * (1 + 3 * tol)}).size(), 2u);
  // Absolute (1 m times the tolerance) below 1 m: the centre station and a
  // rounding-size radius are one radius; 3e-12 m is another.
  EXPECT_EQ(tf::distinct_radii({0.0, 0.5 * tol}), std::vector<double>{0.0});
  EXPECT_EQ(tf::distinct_radii({0.0, 3 * tol}).size(), 2u);
  EXPECT_EQ(tf::distinct_radii({1e-6, 1e-6 + 0.5 * tol}).size(), 1u);
  // Merged into the previous *kept* value: a chain of steps of 0.8 tol keeps
  // every second one.
  const double a = 100.0;
  const auto chain = tf::distinct_radii({a, a * (1 + 0.8 * tol), a * (1 + 1.6 * tol)});
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0], a);
  EXPECT_EQ(chain[1], a * (1 + 1.6 * tol));
}

/// Radii log-uniform over [1e-3, 1e6] m, each at least 1e-9 relative from the
/// others (far outside the tolerance), fixed seed.
std::vector<double> separated_radii(std::mt19937_64& random, std::size_t count) {
  std::uniform_real_distribution<double> exponent(-3.0, 6.0);
  std::vector<double> radii;
  while (radii.size() < count) {
    const double r = std::pow(10.0, exponent(random));
    if (std::all_of(radii.begin(), radii.end(), [&](double s) { return std::fabs(r - s) > 1e-9 * std::max(r, s); }))
      radii.push_back(r);
  }
  radii.push_back(0.0);    // the station at the disk's centre
  radii.push_back(1e-3);   // the lower end itself
  radii.push_back(1e6);    // the upper end itself
  return radii;
}

TEST(DistinctRadii, BatteryOfJitteredCopies) {
  std::mt19937_64 random(20261124);
  const std::vector<double> base = separated_radii(random, 500);
  std::uniform_real_distribution<double> jitter(-0.25 * tol, 0.25 * tol);
  std::vector<double> stations;
  for (const double r : base)
    for (int copy = 0; copy < 4; ++copy) stations.push_back(std::max(0.0, r + jitter(random) * std::max(r, 1.0)));
  std::shuffle(stations.begin(), stations.end(), random);
  std::vector<double> expected = base;
  std::sort(expected.begin(), expected.end());
  const auto distinct = tf::distinct_radii(stations);
  ASSERT_EQ(distinct.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k)
    EXPECT_LE(std::fabs(distinct[k] - expected[k]), 0.25 * tol * std::max(expected[k], 1.0)) << k;
}

TEST(RadiusLookup, FindsTheRowOfEveryJitteredStationRadius) {
  std::mt19937_64 random(7);
  std::vector<double> table = separated_radii(random, 400);
  std::shuffle(table.begin(), table.end(), random);  // the rows in no order
  const tf::RadiusLookup lookup(table);
  std::uniform_real_distribution<double> jitter(-0.9 * tol, 0.9 * tol);
  for (std::size_t row = 0; row < table.size(); ++row) {
    const double r = table[row];
    ASSERT_EQ(lookup.find(r), row) << r;
    const double nearby = std::max(0.0, r + jitter(random) * std::max(r, 1.0));
    ASSERT_EQ(lookup.find(nearby), row) << nearby << " near " << r;
    // Outside the tolerance: no row (the rows are 1e-9 apart or more).
    const double off = r + 5 * tol * std::max(r, 1.0);
    EXPECT_EQ(lookup.find(off), std::nullopt) << off;
    if (r > 0) {
      EXPECT_EQ(lookup.find(r - 5 * tol * std::max(r, 1.0)), std::nullopt) << r;
    }
  }
  // Between rows and beyond the ends: none.
  std::vector<double> sorted = table;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k + 1 < sorted.size(); ++k)
    EXPECT_EQ(lookup.find(0.5 * (sorted[k] + sorted[k + 1])), std::nullopt);
  EXPECT_EQ(lookup.find(2e6), std::nullopt);
  EXPECT_EQ(lookup.find(-1.0), std::nullopt);
}

TEST(RadiusLookup, EmptyTableAndTheCentreStation) {
  EXPECT_EQ(tf::RadiusLookup({}).find(1.0), std::nullopt);
  const tf::RadiusLookup lookup({25.0, 0.0, 10.0});
  EXPECT_EQ(lookup.find(0.0), 1u);
  EXPECT_EQ(lookup.find(0.5 * tol), 1u);  // a rounding-size distance from the centre
  EXPECT_EQ(lookup.find(3 * tol), std::nullopt);
  EXPECT_EQ(lookup.find(10.0 * (1 + 0.5 * tol)), 2u);
  EXPECT_EQ(lookup.find(25.0), 0u);
}

TEST(StationRadius, RoundingAwayFromTheCentreIsTheCentre) {
  // A grid node meant to lie on the disk's centre: 1.3 = -2 + 33 * 0.1 in
  // exact arithmetic, 3.1e-16 m away once rounded.
  const double a = 0.37, easting = -2.0 + 33 * 0.1, northing = -3.0 + 23 * 0.1;
  EXPECT_GT(std::hypot(easting - 1.3, northing + 0.7), 0.0);
  EXPECT_EQ(tf::station_radius(easting - 1.3, northing + 0.7, a), 0.0);
  // Just below and above 1e-12 a, and an ordinary radius, unchanged.
  EXPECT_EQ(tf::station_radius(0.99e-12 * a, 0.0, a), 0.0);
  EXPECT_EQ(tf::station_radius(1.01e-12 * a, 0.0, a), 1.01e-12 * a);
  EXPECT_EQ(tf::station_radius(3.0, 4.0, a), 5.0);
}

}  // namespace
