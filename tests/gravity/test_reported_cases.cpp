// The cases reported against the edge handling, with their figures: a
// station on a prism's top face gets the limit from above on every path
// (gravity and magnetics), single precision states its error and warns where
// it is large, and far stations warn on the grid path, the layer path and in
// the magnetic field, with an estimate that bounds the error. Runs on the CPU
// (gravity_edge_tests) and on the GPU (gravity_edge_cuda_tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gpu/core/warning.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "gpu/magnetic/magnetic.hpp"
#include "tests/support/backend_test.hpp"

namespace geobem::gravity {
namespace {

class ReportedCases : public ::geobem::test::BackendTest {
 protected:
  ForwardOptions options(Precision precision = Precision::Double) const {
    ForwardOptions o;
    o.device = device();
    o.precision = precision;
    o.quiet = true;
    return o;
  }
};

/// A forward call's result and the warnings it gave (geobem::warn).
template <typename Call>
auto warned(Call&& call) {
  WarningCapture capture;
  auto result = call();
  return std::make_pair(std::move(result), capture.messages());
}

/// The warning of `warnings` that starts with `start`, or "" if none does.
std::string warning_starting(const std::vector<std::string>& warnings, const std::string& start) {
  for (const std::string& w : warnings)
    if (w.rfind(start, 0) == 0) return w;
  return "";
}

TEST_P(ReportedCases, UnitCubeSeenFromAboveItsTopFace) {
  // Prism 0,1,0,1,0,1 at 1000 kg/m³, station (0.5, 0.5, 1): g_zz 365.601710 E
  // (the two-sided mean was −53.757 E); magnetization (0, 0, 1) A/m: b_u
  // 547.775 nT (the mean was −80.543 nT). 365.60171012785 and 547.77536270
  // are the mpmath values (edge_reference.py, μ0/4π of CODATA 2018).
  const Prism cube{0, 1, 0, 1, 0, 1, 1000};
  const std::vector<Station> top{{0.5, 0.5, 1}};
  const PrismGrid grid{{0, 1}, {0, 1}, {0, 1}, {1000}};
  PrismLayer layer;
  layer.geometry = {1, 1, 0.5, 0.5, 1.0, 1.0, 0.0, 1000.0, 0.0};
  layer.surface = {1.0};
  const auto g_zz = parse_fields("g_zz");
  for (const Precision precision : {Precision::Double, Precision::Single}) {
    WarningCapture capture;
    const ForwardResult results[3] = {forward_model({cube}, top, g_zz, options(precision)),
                                      forward_model_grid(grid, top, g_zz, options(precision)),
                                      forward_model_layer(layer, top, g_zz, options(precision))};
    for (const ForwardResult& r : results) {
      const double value = r.values[0][0];
      EXPECT_NEAR(value, 365.601710, 5e-7 + r.error_estimate[0][0] * std::abs(value));
      EXPECT_NEAR(value, 365.60171012785, 1e-9 * 365.6 + r.error_estimate[0][0] * std::abs(value));
    }
    EXPECT_TRUE(capture.messages().empty()) << capture.messages()[0];
  }
  magnetic::Options magnetic_options;
  magnetic_options.forward = options();
  const magnetic::MagnetizedPrism magnetized{0, 1, 0, 1, 0, 1, 0, 0, 1};
  const magnetic::MagneticLayer magnetic_layer{layer, {0, 0, 1}, {0, 0, 0}};
  const auto b_u = magnetic::parse_fields("b_u");
  for (const auto& r : {magnetic::forward_magnetic({magnetized}, top, b_u, magnetic_options),
                        magnetic::forward_magnetic_layer(magnetic_layer, top, b_u, magnetic_options)}) {
    EXPECT_NEAR(r.values[0][0], 547.775, 5e-4);
    EXPECT_NEAR(r.values[0][0], 547.77536270310, 1e-9 * 547.8);
  }
}

TEST_P(ReportedCases, SinglePrecisionStatesItsErrorAndWarnsWhereItIsLarge) {
  // Thin and flat prisms (aspect 1e-3 to 1e3) with stations 1 to 100 prism
  // sizes away and beyond: single precision's errors reach whole units
  // there (1.2 % on g_zz at 10 sizes was reported, silent). Every error is
  // now within its estimate, and every station whose estimate misses single
  // precision's accuracy goal (1e-3) is counted in the warning. Double precision, whose own estimates stay below
  // 1e-5 at these stations, is the reference (within its estimate).
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<double> unit(-1, 1), exponent(-1.5, 1.5), distance(0, 2);
  std::size_t warned_stations = 0, large_errors = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const double base = 100 * std::pow(10.0, unit(rng));
    const double sides[3] = {base * std::pow(10.0, exponent(rng)), base * std::pow(10.0, exponent(rng)),
                             base * std::pow(10.0, exponent(rng))};
    const double largest = std::max({sides[0], sides[1], sides[2]});
    const Prism prism{0, sides[0], 0, sides[1], -sides[2], 0, 2670};
    std::vector<Station> stations;
    for (int k = 0; k < 20; ++k) {
      double d[3] = {unit(rng), unit(rng), unit(rng)};
      const double norm = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      const double r = largest * std::pow(10.0, distance(rng));
      stations.push_back({sides[0] / 2 + r * d[0] / norm, sides[1] / 2 + r * d[1] / norm, -sides[2] / 2 + r * d[2] / norm});
    }
    const auto reference = forward_model({prism}, stations, parse_fields("all"), options());
    ForwardOptions single = options(Precision::Single);
    single.force = true;
    const auto [result, warnings] =
        warned([&] { return forward_model({prism}, stations, parse_fields("all"), single); });
    std::size_t missing = 0;
    for (std::size_t s = 0; s < stations.size(); ++s) {
      bool misses = false;
      for (const auto& [lo, hi] : {std::pair{0, 1}, {1, 4}, {4, 10}}) {
        double scale = 0;
        for (int f = lo; f < hi; ++f) scale = std::max(scale, std::abs(reference.values[f][s]));
        for (int f = lo; f < hi; ++f) {
          ASSERT_LT(reference.error_estimate[f][s], 1e-5);
          const double error = std::abs(result.values[f][s] - reference.values[f][s]) / scale;
          EXPECT_LE(error, result.error_estimate[f][s] + reference.error_estimate[f][s])
              << "trial " << trial << ", station " << s << ", " << field_name(Field(f));
          if (error > accuracy_goal(Precision::Single)) ++large_errors;
          misses = misses || result.error_estimate[f][s] > accuracy_goal(Precision::Single);
        }
      }
      missing += misses;
    }
    warned_stations += missing;
    const std::string warning = warning_starting(warnings, std::to_string(missing) + " station(s) miss the "
                                                                  "relative accuracy of 0.001 that single precision");
    if (missing > 0) {
      EXPECT_NE(warning, "") << "trial " << trial;
    }
  }
  EXPECT_GT(large_errors, 0u);  // the case is not a friendly one
  EXPECT_GE(warned_stations, large_errors / 10);
}

TEST_P(ReportedCases, FarStationsWarnOnTheGridPathTheLayerPathAndInTheMagneticField) {
  // A voxel grid of 9.3 m cells with a station 9.7e4 m away: the grid path
  // lost 2.5e-4 of g_e there without a warning (the general path 2.2e-8).
  PrismGrid grid;
  for (int k = 0; k <= 4; ++k) {
    grid.easting_edges.push_back(9.3 * k);
    grid.northing_edges.push_back(9.3 * k);
    grid.upward_edges.push_back(-9.3 * (4 - k));
  }
  for (int c = 0; c < 64; ++c) grid.density.push_back(c % 3 == 0 ? 0.0 : 2000.0 + 10.0 * c);
  std::vector<Prism> cells;
  for (std::size_t k = 0; k < 4; ++k)
    for (std::size_t j = 0; j < 4; ++j)
      for (std::size_t i = 0; i < 4; ++i)
        cells.push_back({grid.easting_edges[i], grid.easting_edges[i + 1], grid.northing_edges[j],
                         grid.northing_edges[j + 1], grid.upward_edges[k], grid.upward_edges[k + 1],
                         grid.density[grid.index(i, j, k)]});
  const std::vector<Station> far{{9.7e4 * 0.6, 9.7e4 * 0.8, 50}, {-4e4, 6e4, 2e4}};
  const auto fields = parse_fields("g_e,g_n,g_z");
  const auto [on_grid, grid_warnings] = warned([&] { return forward_model_grid(grid, far, fields, options()); });
  const auto general = forward_model(cells, far, fields, options());
  for (std::size_t s = 0; s < far.size(); ++s) {
    double scale = 0, difference = 0;
    for (int f = 0; f < 3; ++f) {
      scale = std::max(scale, std::abs(general.values[f][s]));
      difference = std::max(difference, std::abs(on_grid.values[f][s] - general.values[f][s]));
    }
    EXPECT_GT(difference / scale, 1e-6) << "station " << s;  // the grid path's loss is real
    EXPECT_LE(difference / scale, on_grid.error_estimate[0][s] + general.error_estimate[0][s]) << "station " << s;
  }
  EXPECT_NE(warning_starting(grid_warnings, "2 station(s) miss the relative accuracy of 1e-06"), "");

  // A prism layer of 2 m cells, stations 1e5 m away.
  PrismLayer layer;
  layer.geometry = {6, 5, 0.0, 0.0, 2.0, 2.0, 0.0, 2670.0, -2670.0};
  for (int c = 0; c < 30; ++c) layer.surface.push_back(c % 2 ? 1.5 : -0.7);
  const std::vector<Station> layer_far{{1e5, 2e4, 300}, {-5e4, -8e4, 1e3}};
  const auto layer_warnings = warned([&] { return forward_model_layer(layer, layer_far, fields, options()); }).second;
  EXPECT_NE(warning_starting(layer_warnings, "2 station(s) miss the relative accuracy of 1e-06"), "");

  // A magnetized cube (20 m) 1e4 to 1e6 sides away: its field is the
  // dipole's to (a/R)^4. The errors reported reached 32 times |b|.
  const double a = 20.0, volume = a * a * a;
  const magnetic::MagnetizedPrism cube{-a / 2, a / 2, -a / 2, a / 2, -a / 2, a / 2, 0.3, -0.7, 1.1};
  std::vector<Station> stations;
  std::mt19937_64 rng(240);
  std::normal_distribution<double> normal;
  for (int k = 0; k < 24; ++k) {
    double d[3] = {normal(rng), normal(rng), normal(rng)};
    const double norm = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), r = a * std::pow(10.0, 4 + k / 12.0);
    stations.push_back({r * d[0] / norm, r * d[1] / norm, r * d[2] / norm});
  }
  magnetic::Options magnetic_options;
  magnetic_options.forward = options();
  const auto [b, magnetic_warnings] = warned(
      [&] { return magnetic::forward_magnetic({cube}, stations, magnetic::parse_fields("b_e,b_n,b_u"), magnetic_options); });
  std::size_t above = 0;
  for (std::size_t s = 0; s < stations.size(); ++s) {
    const double x[3] = {stations[s].easting, stations[s].northing, stations[s].upward};
    const double m[3] = {cube.magnetization_e, cube.magnetization_n, cube.magnetization_u};
    const double r = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    const double dot = (x[0] * m[0] + x[1] * m[1] + x[2] * m[2]) / r;
    double dipole[3], size = 0, error = 0;
    for (int i = 0; i < 3; ++i) {
      dipole[i] = magnetic::field_factor_nt * volume * (3 * dot * x[i] / r - m[i]) / (r * r * r);
      size = std::max(size, std::abs(dipole[i]));
    }
    for (int i = 0; i < 3; ++i) error = std::max(error, std::abs(b.values[i][s] - dipole[i]) / size);
    EXPECT_LE(error, b.error_estimate[0][s]) << "station " << s << " at " << r << " m";
    if (b.error_estimate[0][s] > 1e-6) ++above;
  }
  EXPECT_GT(above, 0u);
  EXPECT_NE(warning_starting(magnetic_warnings, std::to_string(above) + " station(s) miss the relative accuracy of 1e-06"), "");
}

GEOBEM_INSTANTIATE_BACKEND(ReportedCases);

}  // namespace
}  // namespace geobem::gravity
