// The prism layer evaluated from its grid against independent constructions:
// a flat layer against the one prism it fills (an interior-face cancellation
// test of the cell sums), and a rough layer with cells above and below the
// reference and skipped (NaN) cells against the prism list written out here
// by Harmonica's prism_layer rule (centres on the nodes, ± half a spacing;
// Uieda et al. 2020) and summed by forward_model; shares of the cells (MPI
// ranks) adding up to the whole; single precision within 1e-5; the station
// limits against the octants found by probing a step into each.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>

#include "gpu/gravity/layer_faces.hpp"
#include "gpu/gravity/prism_layer.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "gpu/gravity/station_contact.hpp"
#include "gravity_test_support.hpp"

namespace geobem::gravity {
namespace {

using test::relative_max_difference;

PrismLayer rough_layer(std::int64_t ne, std::int64_t nn, std::uint64_t seed) {
  PrismLayer layer;
  layer.geometry = {ne, nn, 1000.0, -500.0, 75.0, 90.0, 100.0, 2670.0, -1640.0};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> height(-400.0, 900.0);
  for (std::int64_t c = 0; c < ne * nn; ++c) layer.surface.push_back(height(rng));
  layer.surface[3] = 100.0;                                        // on the reference: empty
  layer.surface[7] = std::numeric_limits<double>::quiet_NaN();     // skipped no-data
  return layer;
}

/// The layer's prisms by Harmonica's prism_layer rule, written out here.
std::vector<Prism> harmonica_prisms(const PrismLayer& layer) {
  const LayerGeometry& g = layer.geometry;
  std::vector<Prism> prisms;
  for (std::int64_t j = 0; j < g.shape_n; ++j)
    for (std::int64_t i = 0; i < g.shape_e; ++i) {
      const double s = layer.surface[i + g.shape_e * j];
      if (std::isnan(s) || s == g.reference) continue;
      const double e = g.west_centre + i * g.spacing_e, n = g.south_centre + j * g.spacing_n;
      prisms.push_back({e - g.spacing_e / 2, e + g.spacing_e / 2, n - g.spacing_n / 2, n + g.spacing_n / 2,
                        std::min(s, g.reference), std::max(s, g.reference),
                        s > g.reference ? g.density_above : g.density_below});
    }
  return prisms;
}

std::vector<Station> stations_above(const PrismLayer& layer, double height) {
  std::vector<Station> stations;
  const LayerGeometry& g = layer.geometry;
  for (int a = 0; a < 7; ++a)
    for (int b = 0; b < 6; ++b)
      stations.push_back({g.west_centre - 300.0 + a * (g.shape_e * g.spacing_e + 600.0) / 6.3,
                          g.south_centre - 250.0 + b * (g.shape_n * g.spacing_n + 500.0) / 5.2, height + 17.0 * a});
  return stations;
}

ForwardOptions quiet_cpu() {
  ForwardOptions options;
  options.quiet = true;
  return options;
}

TEST(PrismLayer, FlatLayerEqualsTheOnePrismItFills) {
  PrismLayer layer;
  layer.geometry = {24, 17, 25.0, 45.0, 50.0, 70.0, -300.0, 2670.0, 1000.0};
  layer.surface.assign(24 * 17, 450.0);
  const Prism whole{0.0, 1200.0, 10.0, 1200.0, -300.0, 450.0, 2670.0};
  const auto stations = stations_above(layer, 700.0);
  const auto fields = parse_fields("all");
  const auto a = forward_model_layer(layer, stations, fields, quiet_cpu());
  const auto b = forward_model({whole}, stations, fields, quiet_cpu());
  const auto diff = relative_max_difference(a, b);
  for (std::size_t f = 0; f < diff.size(); ++f) EXPECT_LT(diff[f], 1e-11) << field_name(a.fields[f]);
}

TEST(PrismLayer, RoughLayerEqualsHarmonicasPrismList) {
  const PrismLayer layer = rough_layer(19, 13, 20261124);
  EXPECT_EQ(massive_cell_count(layer), layer.cell_count() - 2);
  const auto stations = stations_above(layer, 1000.0);
  const auto fields = parse_fields("all");
  const auto a = forward_model_layer(layer, stations, fields, quiet_cpu());
  const auto b = forward_model(harmonica_prisms(layer), stations, fields, quiet_cpu());
  const auto diff = relative_max_difference(a, b);
  for (std::size_t f = 0; f < diff.size(); ++f) EXPECT_LT(diff[f], 1e-13) << field_name(a.fields[f]);
}

// g_z alone goes face by face (surface faces plus the reference edges that
// do not cancel): against the prism list, with stations above, at the
// reference height inside and outside the layer, and on cell corners of the
// reference plane and of the surface.
TEST(PrismLayer, FaceByFaceGzEqualsHarmonicasPrismList) {
  const PrismLayer layer = rough_layer(19, 13, 20261125);
  const LayerGeometry& g = layer.geometry;
  auto stations = stations_above(layer, 1000.0);
  for (const auto& s : stations_above(layer, g.reference)) stations.push_back(s);
  const double corner_e = g.west_centre + 4.5 * g.spacing_e, corner_n = g.south_centre + 6.5 * g.spacing_n;
  stations.push_back({corner_e, corner_n, g.reference});
  stations.push_back({g.west_centre - 0.5 * g.spacing_e, g.south_centre - 0.5 * g.spacing_n, g.reference});
  stations.push_back({g.west_centre + 2.5 * g.spacing_e, g.south_centre + 0.5 * g.spacing_n, layer.surface[2] + 0.0});
  const auto fields = parse_fields("g_z");
  const auto a = forward_model_layer(layer, stations, fields, quiet_cpu());
  const auto b = forward_model(harmonica_prisms(layer), stations, fields, quiet_cpu());
  EXPECT_LT(relative_max_difference(a, b)[0], 1e-13);
  ForwardOptions single = quiet_cpu();
  single.precision = Precision::Single;
  EXPECT_LT(relative_max_difference(forward_model_layer(layer, stations, fields, single), b)[0], 1e-5);
  // A flat layer: only the rim of its reference plane remains.
  PrismLayer flat;
  flat.geometry = {24, 17, 25.0, 45.0, 50.0, 70.0, -300.0, 2670.0, 1000.0};
  flat.surface.assign(24 * 17, 450.0);
  const auto above = stations_above(flat, 700.0);
  const auto c = forward_model_layer(flat, above, fields, quiet_cpu());
  const auto d = forward_model({Prism{0.0, 1200.0, 10.0, 1200.0, -300.0, 450.0, 2670.0}}, above, fields, quiet_cpu());
  EXPECT_LT(relative_max_difference(c, d)[0], 1e-12);
  EXPECT_EQ(reference_edges(flat, 0, 24 * 17).size(), 2u * (24 + 17));
}

TEST(PrismLayer, SharesOfTheCellsAddUpAndSinglePrecisionIsClose) {
  const PrismLayer layer = rough_layer(11, 9, 7);
  const auto stations = stations_above(layer, 1000.0);
  for (const char* list : {"g_z,g_zz,potential", "g_z"}) {  // prisms; faces (g_z alone)
    const auto fields = parse_fields(list);
    const auto whole = forward_model_layer(layer, stations, fields, quiet_cpu());
    ForwardResult sum = whole;
    for (auto& column : sum.values) column.assign(column.size(), 0.0);
    for (int part = 0; part < 3; ++part) {
      ForwardOptions options = quiet_cpu();
      options.part = part;
      options.parts = 3;
      const auto share = forward_model_layer(layer, stations, fields, options);
      for (std::size_t f = 0; f < sum.values.size(); ++f)
        for (std::size_t s = 0; s < stations.size(); ++s) sum.values[f][s] += share.values[f][s];
    }
    for (double d : relative_max_difference(sum, whole)) EXPECT_LT(d, 1e-13) << list;
    ForwardOptions single = quiet_cpu();
    single.precision = Precision::Single;
    for (double d : relative_max_difference(forward_model_layer(layer, stations, fields, single), whole))
      EXPECT_LT(d, 1e-5) << list;
  }
}

/// A station's octants on a layer found by probing: the point a small step
/// into each octant, inside which prism of Harmonica's rule it lies (its
/// weights) and whether it lies below its column's terrain surface.
template <int Components>
Octants<Components> probed_octants(const PrismLayer& layer, const Station& p,
                                   const std::array<double, Components>& above,
                                   const std::array<double, Components>& below) {
  const LayerGeometry& g = layer.geometry;
  const double step = 1e-7 * std::min(g.spacing_e, g.spacing_n);
  Octants<Components> octants;
  for (int o = 0; o < 8; ++o) {
    const double q[3] = {p.easting + (o & 1 ? step : -step), p.northing + (o & 2 ? step : -step),
                         p.upward + (o & 4 ? step : -step)};
    std::int64_t i = -1, j = -1;
    for (std::int64_t k = 0; k < g.shape_e; ++k)
      if (easting_line(g, k) < q[0] && q[0] < easting_line(g, k + 1)) i = k;
    for (std::int64_t k = 0; k < g.shape_n; ++k)
      if (northing_line(g, k) < q[1] && q[1] < northing_line(g, k + 1)) j = k;
    if (i < 0 || j < 0) continue;
    const double height = layer.surface[static_cast<std::size_t>(i + g.shape_e * j)];
    if (std::isnan(height)) continue;
    if (q[2] < height) octants.occupied |= 1u << o;
    if (height == g.reference) continue;
    if (std::min(height, g.reference) < q[2] && q[2] < std::max(height, g.reference))
      for (int c = 0; c < Components; ++c) octants.value[c][o] = (height > g.reference ? above : below)[c];
  }
  return octants;
}

/// layer_station_limits against the probed octants at stations on and off
/// the grid lines, on the terrain, on the reference plane and off them all.
template <int Components>
void expect_layer_limits_as_probed(const PrismLayer& layer, const std::array<double, Components>& above,
                                   const std::array<double, Components>& below) {
  const LayerGeometry& g = layer.geometry;
  std::mt19937_64 rng(20261129);
  const auto pick = [&](int choices) { return std::uniform_int_distribution<int>(0, choices - 1)(rng); };
  const auto uniform = [&](double low, double high) { return std::uniform_real_distribution<double>(low, high)(rng); };
  // Along an axis: a grid line (the outer ones too), a cell centre, anywhere.
  const auto coordinate = [&](std::int64_t cells, const auto& line) {
    const std::int64_t k = std::uniform_int_distribution<std::int64_t>(0, cells)(rng);
    const int how = pick(3);
    if (how == 0) return line(k);
    if (how == 1) return 0.5 * (line(k) + line(k + 1));
    return uniform(line(-1), line(cells + 1));
  };
  std::vector<Station> stations;
  for (int s = 0; s < 4000; ++s) {
    const double e = coordinate(g.shape_e, [&](std::int64_t k) { return easting_line(g, k); });
    const double n = coordinate(g.shape_n, [&](std::int64_t k) { return northing_line(g, k); });
    // Upward: the surface of a cell at or beside the point, the reference, anywhere.
    const std::int64_t i = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::floor((e - easting_line(g, 0)) / g.spacing_e)) - pick(2), 0, g.shape_e - 1);
    const std::int64_t j = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::floor((n - northing_line(g, 0)) / g.spacing_n)) - pick(2), 0, g.shape_n - 1);
    const int how = pick(3);
    const double u = how == 0 ? layer.surface[static_cast<std::size_t>(i + g.shape_e * j)]
                              : (how == 1 ? g.reference : uniform(-500.0, 1000.0));
    stations.push_back({e, n, std::isnan(u) ? g.reference : u});
  }
  const StationLimits<Components> limits = layer_station_limits<Components>(g, layer.surface, above, below, stations);
  std::size_t next = 0;
  for (std::size_t s = 0; s < stations.size(); ++s) {
    StationLimit<Components> expected;
    expected.station = s;
    if (!analyse_octants(probed_octants<Components>(layer, stations[s], above, below), expected)) continue;
    ASSERT_LT(next, limits.size()) << "station " << s;
    const StationLimit<Components>& got = limits[next++];
    ASSERT_EQ(got.station, s);
    for (int c = 0; c < Components; ++c) {
      EXPECT_EQ(got.undefined[c], expected.undefined[c]) << "station " << s;
      EXPECT_EQ(got.interior[c], expected.interior[c]) << "station " << s;
      for (int a = 0; a < 3; ++a) EXPECT_EQ(got.shift[c][a], expected.shift[c][a]) << "station " << s;
    }
  }
  EXPECT_EQ(next, limits.size());
  EXPECT_GT(limits.size(), stations.size() / 10);  // the battery meets faces, edges and vertices
}

TEST(PrismLayer, StationLimitsAreThoseOfTheProbedOctants) {
  const PrismLayer layer = rough_layer(19, 13, 20261129);
  const LayerGeometry& g = layer.geometry;
  expect_layer_limits_as_probed<1>(layer, {g.density_above}, {g.density_below});
  expect_layer_limits_as_probed<3>(layer, {1.5, -0.25, 3.0}, {-2.0, 0.75, 0.5});
}

TEST(PrismLayer, BadLayersAreRefused) {
  PrismLayer layer = rough_layer(4, 3, 1);
  layer.surface.pop_back();
  EXPECT_THROW(forward_model_layer(layer, {{0, 0, 0}}, parse_fields("g_z"), quiet_cpu()), std::invalid_argument);
  layer = rough_layer(4, 3, 1);
  layer.geometry.spacing_n = 0.0;
  EXPECT_THROW(forward_model_layer(layer, {{0, 0, 0}}, parse_fields("g_z"), quiet_cpu()), std::invalid_argument);
  layer = rough_layer(4, 3, 1);
  layer.surface[2] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(forward_model_layer(layer, {{0, 0, 0}}, parse_fields("g_z"), quiet_cpu()), std::invalid_argument);
}

}  // namespace
}  // namespace geobem::gravity
