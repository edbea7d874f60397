// Stations on faces, edges and vertices, near prisms and far from them,
// against the mpmath tables of tests/gravity/edge_reference.py (independent
// of geobem's kernels; regenerate as its docstring says): every field of
// gravity and magnetics, double and single precision, every path (prism
// list, grid path, prism layer; on the GPU the same battery compares CUDA
// with the CPU too). In each case:
//  * a value is NaN exactly where the reference has no limit;
//  * its error is within its own estimate (ForwardResult::error_estimate
//    times the largest |value| of its group at the station): the estimate is
//    honest, both precisions;
//  * in double the error is within 1e-9 of that scale wherever the estimate
//    is (no silent error above 1e-9).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/core/warning.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "gpu/magnetic/magnetic.hpp"
#include "tests/support/backend_test.hpp"

namespace geobem::gravity {
namespace {

/// The rows of a reference table: text cells and numbers.
struct Table {
  std::vector<std::vector<std::string>> text;
  std::vector<std::vector<double>> numbers;
};

Table read_table(const std::string& name) {
  std::ifstream in(std::string(GEOBEM_SOURCE_DIR) + "/tests/gravity/" + name);
  Table table;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::string cell;
    std::vector<std::string> text;
    std::vector<double> numbers;
    while (std::getline(cells, cell, ',')) {
      text.push_back(cell);
      numbers.push_back(std::strtod(cell.c_str(), nullptr));
    }
    table.text.push_back(text);
    table.numbers.push_back(numbers);
  }
  return table;
}

/// What an estimate is relative to (rounding_estimate.hpp): the largest
/// |value| of group [first, last) at station s, or over all stations where
/// the group vanishes at s.
double group_scale(const std::vector<std::vector<double>>& values, int first, int last, std::size_t s) {
  double scale = 0, survey = 0;
  for (int f = first; f < last; ++f)
    for (std::size_t t = 0; t < values[f].size(); ++t)
      if (std::isfinite(values[f][t])) {
        survey = std::max(survey, std::abs(values[f][t]));
        if (t == s) scale = std::max(scale, std::abs(values[f][t]));
      }
  return scale > 0 ? scale : survey;
}

/// Tallies of a battery, printed at its end.
struct Tally {
  std::size_t values = 0, undefined = 0, double_above_1e9 = 0;
  double worst_ratio[2] = {0, 0};  // largest error / estimate, double and single
};

/// Checks computed fields (values, estimates; one column per reference
/// column `first + f`) against reference rows `rows` (numbers[row][column]).
/// `groups` splits the columns into the groups of the estimate.
void expect_against_reference(const std::vector<std::vector<double>>& values,
                              const std::vector<std::vector<double>>& estimate,
                              const std::vector<std::vector<double>>& reference_rows, int first,
                              const std::vector<std::pair<int, int>>& groups, Precision precision,
                              const std::string& what, Tally& tally) {
  for (std::size_t s = 0; s < reference_rows.size(); ++s)
    for (const auto& [lo, hi] : groups) {
      const double scale = group_scale(values, lo, hi, s);
      for (int f = lo; f < hi; ++f) {
        const double expected = reference_rows[s][first + f], actual = values[f][s];
        SCOPED_TRACE(what + ", station " + std::to_string(s) + ", field " + std::to_string(f));
        ++tally.values;
        if (std::isnan(expected)) {
          ++tally.undefined;
          EXPECT_TRUE(std::isnan(actual)) << actual;
          continue;
        }
        ASSERT_TRUE(std::isfinite(actual)) << "expected " << expected;
        const double error = std::abs(actual - expected), bound = estimate[f][s] * scale;
        EXPECT_LE(error, bound) << "value " << actual << ", reference " << expected << ", estimate "
                                << estimate[f][s];
        const int p = precision == Precision::Double ? 0 : 1;
        if (bound > 0) tally.worst_ratio[p] = std::max(tally.worst_ratio[p], error / bound);
        if (precision == Precision::Double) {
          EXPECT_LE(error, std::max(1e-9, estimate[f][s]) * scale) << "value " << actual << ", reference " << expected;
          if (estimate[f][s] > 1e-9) ++tally.double_above_1e9;
        }
      }
    }
}

void print_tally(const Tally& t, const char* battery) {
  std::printf("%s: %zu values (%zu undefined), largest error/estimate %.3g (double) %.3g (single); "
              "%zu double values carry an estimate above 1e-9\n",
              battery, t.values, t.undefined, t.worst_ratio[0], t.worst_ratio[1], t.double_above_1e9);
}

const std::vector<std::pair<int, int>> gravity_groups{{0, 1}, {1, 4}, {4, 10}};
const std::vector<std::pair<int, int>> magnetic_groups{{0, 3}};

ForwardOptions options_for(ComputeDevice device, Precision precision) {
  ForwardOptions options;
  options.device = device;
  options.precision = precision;
  options.quiet = true;
  options.force = true;  // far single-precision stations are part of the battery
  return options;
}

/// |a − b| within the two estimates (relative to their group scale) and
/// 1e-12 of it: CUDA against the CPU.
void expect_backends_agree(const std::vector<std::vector<double>>& cuda, const std::vector<std::vector<double>>& cpu,
                           const std::vector<std::vector<double>>& cuda_estimate,
                           const std::vector<std::vector<double>>& cpu_estimate,
                           const std::vector<std::pair<int, int>>& groups, const std::string& what) {
  for (std::size_t s = 0; s < cpu[0].size(); ++s)
    for (const auto& [lo, hi] : groups) {
      const double scale = group_scale(cpu, lo, hi, s);
      for (int f = lo; f < hi; ++f) {
        SCOPED_TRACE(what + ", station " + std::to_string(s) + ", field " + std::to_string(f));
        if (std::isnan(cpu[f][s])) {
          EXPECT_TRUE(std::isnan(cuda[f][s]));
          continue;
        }
        EXPECT_LE(std::abs(cuda[f][s] - cpu[f][s]), (cuda_estimate[f][s] + cpu_estimate[f][s] + 1e-12) * scale);
      }
    }
}

/// The battery's many expected warnings (NaN on edges, far single-precision
/// stations) are collected, not printed.
class EdgeBattery : public ::geobem::test::BackendTest {
 protected:
  WarningCapture warnings_;
};

TEST_P(EdgeBattery, SinglePrismsOnEveryPathInBothPrecisions) {
  const Table table = read_table("edge_reference.csv");
  ASSERT_GE(table.numbers.size(), 700u);
  Tally tally;
  // Consecutive rows share a prism: columns 2–7 bounds, 8 density, 9–11
  // magnetization, 12–14 station, 15–24 gravity, 25–27 magnetic field.
  for (std::size_t first = 0; first < table.numbers.size();) {
    const std::vector<double>& row = table.numbers[first];
    std::size_t last = first;
    std::vector<Station> stations;
    std::vector<std::vector<double>> rows;
    while (last < table.numbers.size() && std::equal(row.begin() + 2, row.begin() + 12, table.numbers[last].begin() + 2)) {
      const auto& r = table.numbers[last];
      stations.push_back({r[12], r[13], r[14]});
      rows.push_back(r);
      ++last;
    }
    const Prism prism{row[2], row[3], row[4], row[5], row[6], row[7], row[8]};
    const PrismGrid grid{{row[2], row[3]}, {row[4], row[5]}, {row[6], row[7]}, {row[8]}};
    const magnetic::MagnetizedPrism magnetized{row[2], row[3], row[4], row[5], row[6], row[7], row[9], row[10], row[11]};
    const std::string name = "prism of row " + std::to_string(first);
    for (const Precision precision : {Precision::Double, Precision::Single}) {
      const std::string p = precision == Precision::Double ? " double" : " single";
      const ForwardOptions options = options_for(device(), precision);
      const auto general = forward_model({prism}, stations, parse_fields("all"), options);
      expect_against_reference(general.values, general.error_estimate, rows, 15, gravity_groups, precision,
                               name + p + " general path", tally);
      const auto on_grid = forward_model_grid(grid, stations, parse_fields("all"), options);
      expect_against_reference(on_grid.values, on_grid.error_estimate, rows, 15, gravity_groups, precision,
                               name + p + " grid path", tally);
      magnetic::Options magnetic_options;
      magnetic_options.forward = options;
      const auto b = magnetic::forward_magnetic({magnetized}, stations, magnetic::parse_fields("b_e,b_n,b_u"),
                                                magnetic_options);
      expect_against_reference(b.values, b.error_estimate, rows, 25, magnetic_groups, precision, name + p + " magnetic",
                               tally);
      if (device() == ComputeDevice::Cuda) {
        const ForwardOptions cpu = options_for(ComputeDevice::Cpu, precision);
        const auto reference = forward_model({prism}, stations, parse_fields("all"), cpu);
        expect_backends_agree(general.values, reference.values, general.error_estimate, reference.error_estimate,
                              gravity_groups, name + p + " general path, CUDA against the CPU");
        const auto grid_cpu = forward_model_grid(grid, stations, parse_fields("all"), cpu);
        expect_backends_agree(on_grid.values, grid_cpu.values, on_grid.error_estimate, grid_cpu.error_estimate,
                              gravity_groups, name + p + " grid path, CUDA against the CPU");
        magnetic_options.forward = cpu;
        const auto b_cpu = magnetic::forward_magnetic({magnetized}, stations, magnetic::parse_fields("b_e,b_n,b_u"),
                                                      magnetic_options);
        expect_backends_agree(b.values, b_cpu.values, b.error_estimate, b_cpu.error_estimate, magnetic_groups,
                              name + p + " magnetic, CUDA against the CPU");
      }
    }
    first = last;
  }
  print_tally(tally, "single prisms");
}

// The models of edge_reference.py --models (the same literals).
PrismGrid voxel_grid() {
  return {{0, 40, 100, 130}, {0, 50, 90}, {-60, -25, 0}, {2000, 2000, 2500, 2000, 0, 2500, 2670, 2670, 3000, 1800, 2670, 2670}};
}
const double voxel_magnetization[12][3] = {{0.1, 0.0, 0.4},  {0.1, 0.0, 0.4}, {0.0, 0.3, 0.4},  {0.1, 0.0, 0.4},
                                           {0.0, 0.0, 0.0},  {0.0, 0.3, 0.4}, {0.2, -0.1, 0.6}, {0.2, -0.1, 0.6},
                                           {0.2, -0.1, 0.9}, {0.0, 0.0, 0.6}, {0.2, -0.1, 0.6}, {0.2, -0.1, 0.6}};
PrismLayer model_layer() {
  PrismLayer layer;
  layer.geometry = {4, 3, 1000.0, 2000.0, 60.0, 50.0, 100.0, 2670.0, -2670.0};
  layer.surface = {180, 180, 60, 140, 180, 230, 40, 100, 120, 120, 90, std::nan("")};
  return layer;
}

TEST_P(EdgeBattery, SharedFacesEdgesAndTheTerrainOfModels) {
  const Table table = read_table("edge_models.csv");
  std::vector<Station> voxel_stations, layer_stations;
  std::vector<std::vector<double>> voxel_rows, layer_rows;
  for (std::size_t r = 0; r < table.numbers.size(); ++r) {
    const auto& row = table.numbers[r];
    const bool voxel = table.text[r][0] == "voxel";
    (voxel ? voxel_stations : layer_stations).push_back({row[2], row[3], row[4]});
    (voxel ? voxel_rows : layer_rows).push_back(row);
  }
  ASSERT_EQ(voxel_stations.size(), 13u);
  ASSERT_EQ(layer_stations.size(), 14u);
  const PrismGrid grid = voxel_grid();
  std::vector<Prism> cells;
  std::vector<magnetic::MagnetizedPrism> magnetized;
  for (std::size_t k = 0; k < 2; ++k)
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t i = 0; i < 3; ++i) {
        const std::size_t c = grid.index(i, j, k);
        const double b[6] = {grid.easting_edges[i], grid.easting_edges[i + 1], grid.northing_edges[j],
                             grid.northing_edges[j + 1], grid.upward_edges[k], grid.upward_edges[k + 1]};
        cells.push_back({b[0], b[1], b[2], b[3], b[4], b[5], grid.density[c]});
        const double* m = voxel_magnetization[c];
        magnetized.push_back({b[0], b[1], b[2], b[3], b[4], b[5], m[0], m[1], m[2]});
      }
  magnetic::MagneticLayer layer{model_layer(), {0.1, 0.2, 0.9}, {-0.05, 0.0, -0.3}};
  Tally tally;
  for (const Precision precision : {Precision::Double, Precision::Single}) {
    const std::string p = precision == Precision::Double ? " double" : " single";
    const ForwardOptions options = options_for(device(), precision);
    magnetic::Options magnetic_options;
    magnetic_options.forward = options;
    const auto b_fields = magnetic::parse_fields("b_e,b_n,b_u");
    const auto general = forward_model(cells, voxel_stations, parse_fields("all"), options);
    expect_against_reference(general.values, general.error_estimate, voxel_rows, 5, gravity_groups, precision,
                             "voxel grid" + p + ", general path", tally);
    const auto on_grid = forward_model_grid(grid, voxel_stations, parse_fields("all"), options);
    expect_against_reference(on_grid.values, on_grid.error_estimate, voxel_rows, 5, gravity_groups, precision,
                             "voxel grid" + p + ", grid path", tally);
    const auto b = magnetic::forward_magnetic(magnetized, voxel_stations, b_fields, magnetic_options);
    expect_against_reference(b.values, b.error_estimate, voxel_rows, 15, magnetic_groups, precision,
                             "voxel grid" + p + ", magnetic", tally);
    const auto on_layer = forward_model_layer(layer.layer, layer_stations, parse_fields("all"), options);
    expect_against_reference(on_layer.values, on_layer.error_estimate, layer_rows, 5, gravity_groups, precision,
                             "layer" + p, tally);
    // g_z alone takes the layer's face-by-face kernel.
    const auto g_z = forward_model_layer(layer.layer, layer_stations, parse_fields("g_z"), options);
    for (std::size_t s = 0; s < layer_stations.size(); ++s)
      EXPECT_LE(std::abs(g_z.values[0][s] - layer_rows[s][8]), g_z.error_estimate[0][s] * std::abs(g_z.values[0][s]))
          << "layer g_z alone, station " << s << p;
    const auto b_layer = magnetic::forward_magnetic_layer(layer, layer_stations, b_fields, magnetic_options);
    expect_against_reference(b_layer.values, b_layer.error_estimate, layer_rows, 15, magnetic_groups, precision,
                             "layer" + p + ", magnetic", tally);
  }
  print_tally(tally, "models");
}

GEOBEM_INSTANTIATE_BACKEND(EdgeBattery);

}  // namespace
}  // namespace geobem::gravity
