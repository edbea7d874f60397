// Rounding limits of the prism kernels far from the model, against the
// point-mass field (the cube's field differs from it by (side/distance)^4,
// below 1e-20 here), and the warnings that name them: far stations get the
// estimated error, NaN at a vertex is "on a prism edge or vertex", and
// overflow never is.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "gpu/gravity/gravity.hpp"

using namespace geobem::gravity;

namespace {

/// Largest relative error of potential, g_z and g_zz of a cube of side
/// `side` (centred at 0) at `distance` along a direction off every axis.
double largest_error(double side, double distance) {
  const Prism cube{-side / 2, side / 2, -side / 2, side / 2, -side / 2, side / 2, 1000};
  const double s = distance / std::sqrt(3.0);
  const Station station{0.6 * s, 0.8 * s, std::sqrt(2.0) * s};
  ForwardOptions options;
  options.quiet = true;
  testing::internal::CaptureStderr();
  const auto result = forward_model({cube}, {station}, parse_fields("potential,g_z,g_zz"), options);
  testing::internal::GetCapturedStderr();
  const double gm = gravitational_constant * 1000 * side * side * side;
  const double r = std::sqrt(station.easting * station.easting + station.northing * station.northing +
                             station.upward * station.upward);
  const double z = station.upward;
  const double reference[3] = {gm / r, si_to_mgal * gm * z / (r * r * r),
                               si_to_eotvos * gm * (3 * z * z - r * r) / (r * r * r * r * r)};
  double largest = 0;
  for (int f = 0; f < 3; ++f) largest = std::max(largest, std::abs(result.values[f][0] / reference[f] - 1));
  return largest;
}

}  // namespace

TEST(FarField, EstimateBoundsTheMeasuredRounding) {
  for (double side : {10.0, 100.0})
    for (double ratio : {1e5, 1e6, 1e7, 1e8}) {
      const double estimate = far_field_relative_error(ratio * side, side);
      const double measured = largest_error(side, ratio * side);
      EXPECT_LE(measured, estimate) << side << " m cube at " << ratio << " sides";
      EXPECT_GE(measured, estimate / 10) << side << " m cube at " << ratio << " sides";
    }
  EXPECT_NEAR(far_field_accuracy_distance(10), 3.87e5, 0.01e5);
}

TEST(FarField, WarningsNameFarStationsEdgesAndOverflow) {
  const Prism cube{0, 10, 0, 10, -10, 0, 1000};
  ForwardOptions options;
  options.quiet = true;  // warnings are not progress: they stay
  testing::internal::CaptureStderr();
  forward_model({cube}, {{5, 5, 1e6}}, parse_fields("g_z"), options);
  const std::string far = testing::internal::GetCapturedStderr();
  EXPECT_NE(far.find("warning: 1 station(s) lie up to 1e+06 m from the model, whose smallest prism side is 10 m"),
            std::string::npos)
      << far;
  EXPECT_NE(far.find("relative accuracy of about 7e-06"), std::string::npos) << far;

  testing::internal::CaptureStderr();
  forward_model({cube}, {{5, 5, 100}}, parse_fields("g_z"), options);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");

  // g_zz is undefined on the top edges (prism_kernels.hpp): a vertex.
  testing::internal::CaptureStderr();
  const auto at_vertex = forward_model({cube}, {{0, 0, 0}}, parse_fields("g_zz"), options);
  const std::string vertex = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(std::isnan(at_vertex.values[0][0]));
  EXPECT_NE(vertex.find("g_zz is undefined (NaN) at 1 station(s) on a prism edge or vertex"), std::string::npos)
      << vertex;

  // Single precision overflows far away; that is never an edge.
  options.precision = Precision::Single;
  testing::internal::CaptureStderr();
  forward_model({cube}, {{5, 5, 1e30}}, parse_fields("g_zz"), options);
  const std::string overflow = testing::internal::GetCapturedStderr();
  EXPECT_EQ(overflow.find("edge or vertex"), std::string::npos) << overflow;

  EXPECT_THROW(forward_model({cube}, {{5, 5, 1e300}}, parse_fields("g_z"), options), std::invalid_argument);
}
