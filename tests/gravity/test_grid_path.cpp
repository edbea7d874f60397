// The grid path against the general path on the CPU: the corner function's
// signed vertex sum equals the edge-pair kernel of one prism; the weighted
// grid nodes of sphere grids and of random non-uniform grids give the
// general path's fields to 1e-12 of each field's largest magnitude, also at
// stations on the prolongation of cell edges; node
// weights and the automatic choice; shares of the sources add up to the whole;
// the chunk plan of the CUDA driver.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/grid_nodes.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/stations.hpp"
#include "gravity_test_support.hpp"

namespace geobem::gravity {
namespace {

using test::relative_max_difference;

ForwardOptions quiet_cpu() {
  ForwardOptions options;
  options.quiet = true;
  return options;
}

/// One prism per cell of `grid`, empty cells included: the general path's
/// input, built here from the edges rather than by the library.
std::vector<Prism> every_cell(const PrismGrid& grid) {
  std::vector<Prism> prisms;
  for (std::size_t k = 0; k < grid.cells_u(); ++k)
    for (std::size_t j = 0; j < grid.cells_n(); ++j)
      for (std::size_t i = 0; i < grid.cells_e(); ++i)
        prisms.push_back({grid.easting_edges[i], grid.easting_edges[i + 1], grid.northing_edges[j],
                          grid.northing_edges[j + 1], grid.upward_edges[k], grid.upward_edges[k + 1],
                          grid.density[grid.index(i, j, k)]});
  return prisms;
}

/// All ten fields of the grid path on `stations` (which it must apply to)
/// within 1e-12 of each field's largest magnitude of the general path's on
/// `prisms`, the same model.
void expect_grid_path_matches_general_path(const PrismGrid& grid, const std::vector<Prism>& prisms,
                                           const std::vector<Station>& stations) {
  ASSERT_TRUE(grid_path_applies(grid, stations));
  const auto fields = parse_fields("all");
  const auto diff = relative_max_difference(forward_model_grid(grid, stations, fields, quiet_cpu()),
                                            forward_model(prisms, stations, fields, quiet_cpu()));
  for (int f = 0; f < field_count; ++f) EXPECT_LE(diff[f], 1e-12) << field_name(Field(f));
}

TEST(GridPath, CornerSumEqualsEdgePairKernel) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> where(-300, 300), size(1, 200), above(0.5, 100);
  for (int trial = 0; trial < 200; ++trial) {
    const double w = where(rng), s = where(rng), b = -size(rng) - 1;
    const double x[2] = {w + size(rng), w}, y[2] = {s + size(rng), s}, z[2] = {b + size(rng), b};
    const Station station{where(rng) / 2, where(rng) / 2, trial % 2 ? above(rng) : b + 0.5 * (z[0] - b)};
    double corner_sum[10] = {}, values[10];
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k) {
          corner_fields<double>(x[i] - station.easting, y[j] - station.northing, z[k] - station.upward, 0x3ffu, values);
          const double sign = ((i + j + k) % 2 == 0) ? 1.0 : -1.0;
          for (int f = 0; f < 10; ++f) corner_sum[f] += sign * values[f];
        }
    double pairs[10];
    prism_fields(relative_prism<double>(x[1], x[0], y[1], y[0], z[1], z[0], station.easting, station.northing,
                                        station.upward),
                 0x3ffu, pairs);
    for (int f = 0; f < 10; ++f)
      EXPECT_NEAR(corner_sum[f], pairs[f], 1e-9 * std::max(1.0, std::abs(pairs[f]))) << field_name(Field(f));
  }
}

TEST(GridPath, NodeWeightsOfOneCellAndTwoEqualCells) {
  PrismGrid one{{0, 1}, {0, 2}, {-3, 0}, {5.0}};
  const auto nodes = grid_nodes(one);
  ASSERT_EQ(nodes.size(), 8u);
  // A corner's sign in the vertex sum: + for each upper bound, − for each
  // lower bound (east/north/top are index 0 of Nagy's sum).
  for (const GridNode& n : nodes) {
    const int lower = (n.easting == 0) + (n.northing == 0) + (n.upward == -3);
    EXPECT_EQ(n.weight, lower % 2 == 0 ? 5.0 : -5.0);
  }
  // Two equal cells side by side: the shared face's nodes cancel.
  PrismGrid two{{0, 1, 2}, {0, 1}, {-1, 0}, {7.0, 7.0}};
  const auto merged = grid_nodes(two);
  ASSERT_EQ(merged.size(), 8u);
  for (const GridNode& n : merged) EXPECT_NE(n.easting, 1.0);
}

TEST(GridPath, SphereGridMatchesGeneralPath) {
  const PrismGrid grid = prisms::sphere_grid(prisms::couder_grid(88, 88, 25), prisms::couder_spheres());
  const auto prisms = prisms::grid_prisms(grid);
  const auto stations = prisms::grid_stations({-1000, 23000, -1000, 23000, 13, 11, 100});
  const auto fields = parse_fields("all");
  const auto general = forward_model(prisms, stations, fields, quiet_cpu());
  const auto on_grid = forward_model_grid(grid, stations, fields, quiet_cpu());
  const auto diff = relative_max_difference(on_grid, general);
  for (int f = 0; f < field_count; ++f) {
    std::printf("%-9s grid vs general %.2e\n", field_name(Field(f)), diff[f]);
    EXPECT_LE(diff[f], 1e-12) << field_name(Field(f));
  }
  EXPECT_LT(grid_nodes(grid).size(), 2 * prisms.size());
}

TEST(GridPath, RandomNonUniformGridMatchesGeneralPath) {
  // Every cell a different density, a third of them zero, uneven edges:
  // nearly every node carries a weight.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> width(20, 120), rho(-600, 900);
  PrismGrid grid;
  std::vector<double>* axes[3] = {&grid.easting_edges, &grid.northing_edges, &grid.upward_edges};
  const double origin[3] = {-700, -500, -900};
  const int cells[3] = {12, 10, 8};
  for (int a = 0; a < 3; ++a) {
    axes[a]->push_back(origin[a]);
    for (int i = 0; i < cells[a]; ++i) axes[a]->push_back(axes[a]->back() + width(rng));
  }
  for (std::size_t c = 0; c < grid.cell_count(); ++c) grid.density.push_back(c % 3 == 0 ? 0.0 : rho(rng));
  const std::vector<Prism> prisms = every_cell(grid);
  std::uniform_real_distribution<double> where(-1500, 1500), height(5, 300);
  std::vector<Station> stations;
  for (int i = 0; i < 120; ++i) stations.push_back({where(rng), where(rng), grid.upward_edges.back() + height(rng)});
  expect_grid_path_matches_general_path(grid, prisms, stations);
}

TEST(GridPath, StationsOnNodeLinesMatchGeneralPath) {
  // Stations exactly above node columns and beside node rows: the general
  // path's finite limit on the prolongation of an edge (g_en, g_ez, g_nz).
  PrismGrid grid{{0, 50, 100, 150}, {0, 40, 80}, {-60, -30, 0}, {}};
  for (std::size_t c = 0; c < grid.cell_count(); ++c) grid.density.push_back(100.0 * double(c % 5) - 150.0);
  const std::vector<Prism> prisms = every_cell(grid);
  const std::vector<Station> stations{{50, 40, 10},  {100, 0, 5},   {0, 80, 1},    {150, 40, 20},
                                      {-30, 40, -30}, {50, 120, -60}, {200, 0, -30}, {75, 60, 15}};
  expect_grid_path_matches_general_path(grid, prisms, stations);
}

TEST(GridPath, AppliesOnlyToStationsOutsideTheGrid) {
  const PrismGrid grid{{0, 10}, {0, 10}, {-10, 0}, {1.0}};
  EXPECT_TRUE(grid_path_applies(grid, {{5, 5, 0.001}, {-1, 5, -5}}));
  EXPECT_FALSE(grid_path_applies(grid, {{5, 5, 0.0}}));
  EXPECT_FALSE(grid_path_applies(grid, {{20, 20, 1}, {10, 10, -10}}));
}

TEST(GridPath, SharesAddUpToTheWhole) {
  // What every MPI rank computes (ForwardOptions::part/parts), summed.
  const PrismGrid grid = prisms::sphere_grid(prisms::couder_grid(44, 44, 10), prisms::couder_spheres());
  const auto prisms = prisms::grid_prisms(grid);
  const auto stations = prisms::grid_stations({0, 22000, 0, 22000, 7, 5, 50});
  const auto fields = parse_fields("g_z,g_zz");
  for (const bool on_grid : {false, true}) {
    ForwardOptions options = quiet_cpu();
    const auto whole = on_grid ? forward_model_grid(grid, stations, fields, options)
                               : forward_model(prisms, stations, fields, options);
    ForwardResult sum = whole;
    for (auto& column : sum.values) std::fill(column.begin(), column.end(), 0.0);
    options.parts = 3;
    for (options.part = 0; options.part < 3; ++options.part) {
      const auto part = on_grid ? forward_model_grid(grid, stations, fields, options)
                                : forward_model(prisms, stations, fields, options);
      for (std::size_t f = 0; f < sum.values.size(); ++f)
        for (std::size_t s = 0; s < stations.size(); ++s) sum.values[f][s] += part.values[f][s];
    }
    for (const double d : relative_max_difference(sum, whole)) EXPECT_LE(d, 1e-13) << (on_grid ? "grid" : "prisms");
  }
  ForwardOptions bad = quiet_cpu();
  bad.parts = 2;
  bad.part = 2;
  EXPECT_THROW(forward_model(prisms, stations, fields, bad), std::invalid_argument);
  PrismGrid short_of_densities = grid;
  short_of_densities.density.pop_back();
  EXPECT_THROW(forward_model_grid(short_of_densities, stations, fields, quiet_cpu()), std::invalid_argument);
}

}  // namespace
}  // namespace geobem::gravity
