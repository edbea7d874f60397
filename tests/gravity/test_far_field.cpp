// Rounding far from the model, against the point-mass field (the cube's
// field differs from it by (side/distance)^4, below 1e-16 here): the
// per-station estimate (rounding_estimate.hpp) bounds the measured error and
// is not far above it, on the general and the grid path and in both
// precisions; the warnings name the stations that miss the accuracy goal
// with the estimate, NaN at a vertex is "on an edge or vertex", overflow
// never is, and single precision that no station can use is refused unless
// forced.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gpu/core/input_error.hpp"
#include "gpu/core/warning.hpp"
#include "gpu/gravity/gravity.hpp"

using namespace geobem::gravity;

namespace {

ForwardOptions quiet(Precision precision = Precision::Double) {
  ForwardOptions options;
  options.quiet = true;
  options.precision = precision;
  return options;
}

/// Largest measured error and largest estimate (relative to each field) of
/// the potential, g_z and g_zz of a cube of side `side` centred at 0, at
/// `distance` along a direction off every axis, on the general or grid path.
std::pair<double, double> measured_and_estimated(double side, double distance, Precision precision, bool grid) {
  const Prism cube{-side / 2, side / 2, -side / 2, side / 2, -side / 2, side / 2, 1000};
  const double s = distance / std::sqrt(3.0);
  const Station station{0.6 * s, 0.8 * s, std::sqrt(2.0) * s};
  ForwardOptions options = quiet(precision);
  options.force = true;
  const auto fields = parse_fields("potential,g_z,g_zz");
  const auto result =
      grid ? forward_model_grid({{cube.west, cube.east}, {cube.south, cube.north}, {cube.bottom, cube.top}, {1000}},
                                {station}, fields, options)
           : forward_model({cube}, {station}, fields, options);
  const double gm = gravitational_constant * 1000 * side * side * side;
  const double r = std::sqrt(station.easting * station.easting + station.northing * station.northing +
                             station.upward * station.upward);
  const double z = station.upward;
  const double reference[3] = {gm / r, si_to_mgal * gm * z / (r * r * r),
                               si_to_eotvos * gm * (3 * z * z - r * r) / (r * r * r * r * r)};
  double measured = 0, estimated = 0;
  for (int f = 0; f < 3; ++f) {
    measured = std::max(measured, std::abs(result.values[f][0] / reference[f] - 1));
    estimated = std::max(estimated, result.error_estimate[f][0]);
  }
  return {measured, estimated};
}

/// A forward call's result and the warnings it gave (geobem::warn).
template <typename Call>
std::pair<ForwardResult, std::vector<std::string>> warned(Call&& call) {
  geobem::WarningCapture capture;
  ForwardResult result = call();
  return {std::move(result), capture.messages()};
}

}  // namespace

TEST(FarField, EstimateBoundsTheMeasuredRounding) {
  // Double: 1e4 to 1e8 sides; single: 1e1 to 1e5, into distances where the
  // values are noise (estimates above 1). Where the estimate is below 1 the
  // measured error lies within a factor 1000 below it.
  for (const bool grid : {false, true})
    for (const Precision precision : {Precision::Double, Precision::Single})
      for (const double side : {10.0, 100.0}) {
        const double low = precision == Precision::Double ? 1e4 : 1e1, high = low * 1e4;
        for (double ratio = low; ratio <= high; ratio *= 10) {
          const auto [measured, estimated] = measured_and_estimated(side, ratio * side, precision, grid);
          SCOPED_TRACE(std::string(grid ? "grid" : "general") + (precision == Precision::Double ? " double " : " single ") +
                       std::to_string(side) + " m cube at " + std::to_string(ratio) + " sides");
          EXPECT_LE(measured, estimated);
          if (estimated < 1) {
            EXPECT_GE(measured, estimated / 1000);
          }
        }
      }
}

TEST(FarField, WarningsNameFarStationsEdgesAndOverflow) {
  const Prism cube{0, 10, 0, 10, -10, 0, 1000};
  const auto [far, far_warnings] = warned([&] { return forward_model({cube}, {{5, 5, 1e6}}, parse_fields("g_z"), quiet()); });
  ASSERT_EQ(far_warnings.size(), 1u);
  EXPECT_NE(far_warnings[0].find("1 station(s) miss the relative accuracy of 1e-06 that double precision is meant "
                                 "to give: the estimated rounding error reaches "),
            std::string::npos)
      << far_warnings[0];
  EXPECT_NE(far_warnings[0].find("(g_z at station 0, 1e+06 m from the model"), std::string::npos) << far_warnings[0];
  EXPECT_GT(far.error_estimate[0][0], 1e-6);

  EXPECT_TRUE(warned([&] { return forward_model({cube}, {{5, 5, 100}}, parse_fields("g_z"), quiet()); }).second.empty());

  // g_zz is undefined at a vertex (station_contact.hpp).
  const auto [at_vertex, vertex_warnings] =
      warned([&] { return forward_model({cube}, {{0, 0, 0}}, parse_fields("g_zz"), quiet()); });
  EXPECT_TRUE(std::isnan(at_vertex.values[0][0]));
  ASSERT_EQ(vertex_warnings.size(), 1u);
  EXPECT_EQ(vertex_warnings[0],
            "g_zz is undefined (NaN) at 1 station(s) on an edge or vertex of the model, where its limit depends on "
            "the direction of approach or diverges");

  // Without a capture the warnings print, whatever `quiet`.
  testing::internal::CaptureStderr();
  forward_model({cube}, {{0, 0, 0}}, parse_fields("g_zz"), quiet());
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "warning: " + vertex_warnings[0] + "\n");

  // Single precision overflows far away; that is never an edge.
  ForwardOptions single = quiet(Precision::Single);
  single.force = true;
  const auto overflow = warned([&] { return forward_model({cube}, {{5, 5, 1e30}}, parse_fields("g_zz"), single); });
  for (const std::string& text : overflow.second) EXPECT_EQ(text.find("edge or vertex"), std::string::npos) << text;

  EXPECT_THROW(forward_model({cube}, {{5, 5, 1e300}}, parse_fields("g_z"), quiet()), std::invalid_argument);
}

TEST(FarField, SinglePrecisionThatNoStationCanUseIsRefusedUnlessForced) {
  // 10 m cube, stations 1e5 sides away: single precision's estimate is far
  // above 1e-3 everywhere (its error there is of the order of the field).
  const Prism cube{0, 10, 0, 10, -10, 0, 1000};
  const std::vector<Station> far{{5e5, 3e5, 1e5}, {-4e5, 2e5, 3e5}};
  try {
    forward_model({cube}, far, parse_fields("g_z"), quiet(Precision::Single));
    ADD_FAILURE() << "single precision was not refused";
  } catch (const geobem::InputError& error) {
    EXPECT_NE(std::string(error.what()).find("single precision cannot give a relative accuracy of 0.001 at any "
                                             "station"),
              std::string::npos)
        << error.what();
  }
  ForwardOptions forced = quiet(Precision::Single);
  forced.force = true;
  const auto [result, warnings] = warned([&] { return forward_model({cube}, far, parse_fields("g_z"), forced); });
  EXPECT_GT(*std::min_element(result.error_estimate[0].begin(), result.error_estimate[0].end()), 1e-3);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("2 station(s) miss the relative accuracy of 0.001 that single precision"),
            std::string::npos)
      << warnings[0];
  // One usable station is enough to compute the rest with their warning.
  std::vector<Station> mixed = far;
  mixed.push_back({5, 5, 20});
  EXPECT_NO_THROW(forward_model({cube}, mixed, parse_fields("g_z"), quiet(Precision::Single)));
}
