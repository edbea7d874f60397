// The OpenMP driver: several threads really take part, zero densities are
// dropped without changing the result (and without changing the caller's
// list), bad input is refused naming the prism's index in the given list, and single
// precision stays within its stated bound on the seed geometry.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/potential/station_sums_cpu.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/stations.hpp"

namespace geobem::gravity {
namespace {

ForwardResult run(const std::vector<Prism>& prisms, const std::vector<Station>& stations, Precision precision,
                  const std::string& fields = "all") {
  ForwardOptions options;
  options.quiet = true;
  options.precision = precision;
  return forward_model(prisms, stations, parse_fields(fields), options);
}

TEST(ForwardCpu, UsesSeveralThreads) {
  omp_set_num_threads(2);
  const std::vector<Prism> prisms{{0, 10, 0, 10, -20, -10, 1000}};
  std::vector<Station> stations;
  for (int i = 0; i < 256; ++i) stations.push_back({double(i), 0.0, 5.0});
  run(prisms, stations, Precision::Double, "g_z");
  EXPECT_EQ(potential::last_cpu_thread_count(), 2);
}

TEST(ForwardCpu, ZeroDensityPrismsChangeNothing) {
  const std::vector<Prism> massive{{0, 10, 0, 10, -20, -10, 1000}, {20, 30, 0, 5, -30, -5, -200}};
  std::vector<Prism> with_zero = massive;
  with_zero.insert(with_zero.begin() + 1, Prism{100, 200, 0, 10, -20, -10, 0.0});
  const std::vector<Station> stations{{5, 5, 1}, {-50, 20, 3}};
  const auto a = run(massive, stations, Precision::Double), b = run(with_zero, stations, Precision::Double);
  for (int f = 0; f < field_count; ++f) EXPECT_EQ(a.values[f], b.values[f]);
}

TEST(ForwardCpu, AListMovedInEqualsTheCallersCopy) {
  // forward_model reads a caller's list where it lies when every prism has a
  // density, copies the massive ones otherwise, and compacts a list moved in
  // in place: the caller's vector, passed as an lvalue, is left as it was,
  // and the three give the same fields.
  const std::vector<Prism> prisms{{0, 10, 0, 10, -20, -10, 0.0}, {0, 10, 0, 10, -20, -10, 1000},
                                  {100, 200, 0, 10, -20, -10, 0.0}, {20, 30, 0, 5, -30, -5, -200}};
  std::vector<Prism> caller = prisms;
  const std::vector<Station> stations{{5, 5, 1}, {-50, 20, 3}};
  ForwardOptions options;
  options.quiet = true;
  const auto copied = forward_model(caller, stations, parse_fields("all"), options);
  ASSERT_EQ(caller.size(), prisms.size());
  for (std::size_t i = 0; i < prisms.size(); ++i) EXPECT_EQ(caller[i].density, prisms[i].density);
  const auto moved = forward_model(std::move(caller), stations, parse_fields("all"), options);
  for (int f = 0; f < field_count; ++f) EXPECT_EQ(copied.values[f], moved.values[f]);
  const std::vector<Prism> massive{prisms[1], prisms[3]};
  const auto as_given = forward_model(massive, stations, parse_fields("all"), options);
  for (int f = 0; f < field_count; ++f) EXPECT_EQ(as_given.values[f], moved.values[f]);
  for (int f = 0; f < field_count; ++f) EXPECT_EQ(as_given.error_estimate[f], moved.error_estimate[f]);
}

TEST(ForwardCpu, ABadPrismIsNamedByItsIndexInTheGivenList) {
  // Zero-density prisms before it are dropped in the same pass: the message
  // still counts them.
  const std::vector<Prism> prisms{{0, 10, 0, 10, -20, -10, 0.0}, {0, 10, 0, 10, -20, -10, 1000},
                                  {20, 30, 0, 5, -30, -5, 0.0}, {20, 30, 5, 0, -30, -5, 1}};
  try {
    run(prisms, {{0, 0, 1}}, Precision::Double);
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("prism 3 needs"), std::string::npos) << error.what();
  }
}

TEST(ForwardCpu, FieldSubsetsEqualTheFullRun) {
  const std::vector<Prism> prisms{{0, 10, 0, 10, -20, -10, 1000}};
  const std::vector<Station> stations{{3, 4, 2}, {30, -4, 12}};
  const auto all = run(prisms, stations, Precision::Double);
  const auto some = run(prisms, stations, Precision::Double, "g_zz,g_e");
  ASSERT_EQ(some.fields.size(), 2u);
  EXPECT_EQ(some.fields[0], Field::g_e);
  EXPECT_EQ(some.values[0], all.values[1]);
  EXPECT_EQ(some.values[1], all.values[9]);
}

TEST(ForwardCpu, RefusesBadInput) {
  const std::vector<Station> stations{{0, 0, 1}};
  EXPECT_THROW(run({{10, 0, 0, 10, -20, -10, 1000}}, stations, Precision::Double), std::invalid_argument);
  EXPECT_THROW(run({{0, 10, 0, 10, -20, -10, NAN}}, stations, Precision::Double), std::invalid_argument);
  EXPECT_THROW(parse_fields("g_z,g_q"), std::invalid_argument);
  EXPECT_THROW(parse_precision("half"), std::invalid_argument);
  ForwardOptions options;
  EXPECT_THROW(forward_model({}, stations, {}, options), std::invalid_argument);
}

TEST(ForwardCpu, ParsesFieldListsInCanonicalOrder) {
  const auto fields = parse_fields("g_zz,potential,g_zz");
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[0], Field::potential);
  EXPECT_EQ(fields[1], Field::g_zz);
  EXPECT_EQ(parse_fields("all").size(), 10u);
  EXPECT_STREQ(field_unit(Field::g_ez), "Eotvos");
}

// Single precision on the seed geometry of Couder-Castañeda et al. (2013),
// coarsened 4× per horizontal axis and 2× vertically (175 × 175 × 25 cells,
// the same seven spheres, 15,663 prisms), stations 15 × 10 at 100 m over the
// whole 22 km × 22 km. Bound: the largest single-vs-double difference of each
// field is at most 2e-5 of the field's largest magnitude on the grid
// (measured: at most 4.8e-6, g_n; 9e-7 for g_z). Without the edge-pair form of
// prism_kernels.hpp the same case gives 3e-3 (the eight vertex terms of
// magnitude ~ d²·ln d cancel in float, ε·(d/a)³ relative per prism).
TEST(ForwardCpu, SinglePrecisionErrorOnTheSeedGeometry) {
  const auto grid = prisms::sphere_grid(prisms::couder_grid(175, 175, 25), prisms::couder_spheres());
  const std::vector<Prism> prisms = prisms::grid_prisms(grid);
  const auto stations = prisms::grid_stations({0, 22000, 0, 22000, 15, 10, 100});
  const auto d = run(prisms, stations, Precision::Double);
  const auto s = run(prisms, stations, Precision::Single);
  for (int f = 0; f < field_count; ++f) {
    double largest = 0, error = 0;
    for (std::size_t i = 0; i < stations.size(); ++i) {
      largest = std::max(largest, std::abs(d.values[f][i]));
      error = std::max(error, std::abs(s.values[f][i] - d.values[f][i]));
    }
    std::printf("%-9s largest %.6e  single error %.3e (%.2e of largest)\n", field_name(Field(f)), largest, error,
                error / largest);
    EXPECT_LE(error, 2e-5 * largest) << field_name(Field(f));
  }
}

}  // namespace
}  // namespace geobem::gravity
