// Stations on a vertex, an edge or a face of the prism: the documented
// results (prism_kernels.hpp, station_contact.hpp): finite limits for the
// potential and g, the limit from outside for a diagonal term on a face, NaN
// where a tensor term is undefined.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu/core/math_constants.hpp"
#include "gravity_test_support.hpp"

namespace geobem::gravity {
namespace {

const Prism prism{-34, 5, -18, 14, -345, -146, 2670};
constexpr double delta = 1e-6;  // m, distance of the nearby stations

/// Mean of the fields at the 8 stations (±δ, ±δ, ±δ) around `at`.
std::vector<double> mean_around(const Station& at) {
  std::vector<Station> around;
  for (int i : {-1, 1})
    for (int j : {-1, 1})
      for (int k : {-1, 1}) around.push_back({at.easting + i * delta, at.northing + j * delta, at.upward + k * delta});
  const auto v = test::all_fields({prism}, around);
  std::vector<double> mean(10, 0.0);
  for (int f = 0; f < 10; ++f)
    for (double x : v[f]) mean[f] += x / 8;
  return mean;
}

/// The first `fields` fields at `at` (4: the potential and g) are finite and
/// equal the limit (nearby values).
void expect_continuous(const Station& at, int fields = 4) {
  const auto v = test::all_fields({prism}, {at});
  const auto near = mean_around(at);
  for (int f = 0; f < fields; ++f) {
    SCOPED_TRACE(field_name(static_cast<Field>(f)));
    ASSERT_TRUE(std::isfinite(v[f][0]));
    EXPECT_NEAR(v[f][0], near[f], 1e-6 * std::abs(near[f]) + 1e-12);
  }
}

TEST(PrismSingular, VertexGivesLimitsAndUndefinedTensor) {
  const Station vertex{5, 14, -146};  // east, north, top
  expect_continuous(vertex);
  const auto v = test::all_fields({prism}, {vertex});
  for (int f = 4; f < 10; ++f) EXPECT_TRUE(std::isnan(v[f][0])) << field_name(static_cast<Field>(f));
}

TEST(PrismSingular, EdgeParallelToEasting) {
  const Station edge{-10, -18, -345};  // south-bottom edge, along easting
  expect_continuous(edge);
  const auto v = test::all_fields({prism}, {edge});
  // Undefined: g_nn, g_zz (axes perpendicular to the edge) and g_nz (log-divergent).
  EXPECT_TRUE(std::isnan(v[7][0]));
  EXPECT_TRUE(std::isnan(v[9][0]));
  EXPECT_TRUE(std::isnan(v[8][0]));
  // Defined and continuous: g_ee, g_en, g_ez.
  const auto near = mean_around(edge);
  for (int f : {4, 5, 6}) {
    ASSERT_TRUE(std::isfinite(v[f][0])) << f;
    EXPECT_NEAR(v[f][0], near[f], 1e-5 * std::abs(near[f])) << field_name(static_cast<Field>(f));
  }
}

TEST(PrismSingular, EdgeParallelToUpward) {
  const Station edge{-34, 14, -200};  // west-north edge, vertical
  expect_continuous(edge);
  const auto v = test::all_fields({prism}, {edge});
  EXPECT_TRUE(std::isnan(v[4][0]));  // g_ee
  EXPECT_TRUE(std::isnan(v[7][0]));  // g_nn
  EXPECT_TRUE(std::isnan(v[5][0]));  // g_en diverges
  EXPECT_TRUE(std::isfinite(v[9][0]) && std::isfinite(v[6][0]) && std::isfinite(v[8][0]));
}

TEST(PrismSingular, FacesGiveTheLimitFromOutside) {
  // Top face: from above; bottom face: from below; a side face: from outside.
  const Station faces[3] = {{-10, 0, -146}, {-10, 0, -345}, {5, 0, -200}};
  const Station outside[3] = {{-10, 0, -146 + delta}, {-10, 0, -345 - delta}, {5 + delta, 0, -200}};
  for (int k = 0; k < 3; ++k) {
    expect_continuous(faces[k]);
    const auto v = test::all_fields({prism}, {faces[k]});
    const auto near = test::all_fields({prism}, {outside[k]});
    for (int f = 4; f < 10; ++f) {
      SCOPED_TRACE(std::to_string(k) + " " + field_name(static_cast<Field>(f)));
      // The tensor's gradient near a face is O(1/size): δ = 1e-6 m moves it by ~1e-8 of itself.
      EXPECT_NEAR(v[f][0], near[f][0], 1e-6 * std::abs(near[f][0]) + 1e-9);
    }
  }
  // g_zz jumps by 4πGρ across the face (Poisson's equation): above minus below.
  const auto sides = test::all_fields({prism}, {{-10, 0, -146 + delta}, {-10, 0, -146 - delta}});
  const double jump = 4 * kPi * gravitational_constant * prism.density * si_to_eotvos;
  EXPECT_NEAR(sides[9][0] - sides[9][1], jump, 1e-5 * jump);
}

TEST(PrismSingular, ProlongationOfAVerticalEdgeIsRegular) {
  // Above the prism on the line of its west-north edge: every field is smooth
  // there; the log singularities of the edge's two vertices cancel.
  expect_continuous({-34, 14, 30}, field_count);
}

}  // namespace
}  // namespace geobem::gravity
