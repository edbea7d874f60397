// rounding_bench: the cost and the tightness of the rounding estimates
// (gpu/gravity/rounding_estimate.hpp) on the sphere model of Couder-Castañeda
// et al. (2013) at a chosen size (mesh/prisms couder_grid, couder_spheres),
// stations 100 m above it. For the general path (prisms) and the grid path
// (nodes), double and single: the drivers' time for all ten fields and for
// g_z alone, alone and with the estimate's sums as forward_model takes them
// (best of --repeat), and, against the
// double result (whose own estimate is printed), the single precision's
// largest error per field group over the station's group magnitude, the
// largest estimate, the largest ratio error/estimate over all values (at
// most 1 if the estimate is honest), and the stations whose estimate misses
// single precision's accuracy goal against those whose error does; on the
// CPU, how much the estimate's tile bound gives away against bounding every
// prism on its own (tile_looseness.hpp).
#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/gravity/bench_timing.hpp"
#include "bench/gravity/tile_looseness.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/grid_nodes.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/stations.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
using namespace geobem;
using namespace geobem::gravity;
using geobem::bench::best_time;

namespace {

/// Seconds of the drivers (all ten fields, g_z), alone and with the
/// estimate's sums as forward_model takes them (prisms in double: a pass of
/// its own; else the same pass).
template <typename Source>
void time_path(const char* path, const std::vector<Source>& sources, const std::vector<Station>& stations,
               ComputeDevice device, Precision precision, int repeat) {
  ProgressReporter quiet("", 1, "", true);
  const auto drivers = [&](unsigned mask, bool estimated) {
    std::vector<double> rounding;
    std::vector<double>* into = estimated ? &rounding : nullptr;
    if (device == ComputeDevice::Cuda) {
#if GEOBEM_WITH_CUDA
      forward_cuda(sources, stations, mask, precision, quiet, {}, into);
#endif
    } else {
      forward_cpu(sources, stations, mask, precision, quiet, into);
    }
  };
  const double all = best_time(repeat, [&] { drivers(0x3ffu, false); });
  const double g_z = best_time(repeat, [&] { drivers(unsigned(bit_g_z), false); });
  const double all_estimated = best_time(repeat, [&] { drivers(0x3ffu, true); });
  const double g_z_estimated = best_time(repeat, [&] { drivers(unsigned(bit_g_z), true); });
  std::printf("%-7s %-6s %zu sources x %zu stations: drivers all ten %.4f s, g_z %.4f s; with the estimate "
              "%.4f s, %.4f s (+%.0f%%, +%.0f%%)\n",
              path, precision == Precision::Single ? "single" : "double", sources.size(), stations.size(), all, g_z,
              all_estimated, g_z_estimated, 100 * (all_estimated / all - 1), 100 * (g_z_estimated / g_z - 1));
}

/// Single against double on one path: per group the largest error, the
/// largest estimates, the largest error/estimate; stations over 1e-4.
void tightness(const char* path, const ForwardResult& single, const ForwardResult& reference) {
  const double single_goal = accuracy_goal(Precision::Single);
  const int first[3] = {0, 1, 4}, last[3] = {1, 4, 10};
  const char* names[3] = {"potential", "g", "tensor"};
  const std::size_t n = reference.values[0].size();
  std::size_t estimate_over = 0, error_over = 0;
  std::vector<char> over_estimate(n, 0), over_error(n, 0);
  for (int g = 0; g < 3; ++g) {
    double error = 0, estimate = 0, ratio = 0, double_estimate = 0;
    for (std::size_t s = 0; s < n; ++s) {
      double scale = 0;
      for (int f = first[g]; f < last[g]; ++f) scale = std::max(scale, std::abs(reference.values[f][s]));
      for (int f = first[g]; f < last[g]; ++f) {
        const double e = std::abs(single.values[f][s] - reference.values[f][s]) / scale;
        error = std::max(error, e);
        estimate = std::max(estimate, single.error_estimate[f][s]);
        double_estimate = std::max(double_estimate, reference.error_estimate[f][s]);
        ratio = std::max(ratio, e / (single.error_estimate[f][s] + reference.error_estimate[f][s]));
        if (single.error_estimate[f][s] > single_goal) over_estimate[s] = 1;
        if (e > single_goal) over_error[s] = 1;
      }
    }
    std::printf("%-7s %-9s single: largest error %.2e, largest estimate %.2e, largest error/estimate %.3f; "
                "double: largest estimate %.2e\n",
                path, names[g], error, estimate, ratio, double_estimate);
  }
  for (std::size_t s = 0; s < n; ++s) {
    estimate_over += over_estimate[s];
    error_over += over_error[s];
  }
  std::printf("%-7s single: %zu of %zu stations have an estimate above %.0e, %zu an error above it\n", path,
              estimate_over, n, single_goal, error_over);
}

}  // namespace

int run_bench(int argc, char** argv) {
  std::vector<std::size_t> cells{175, 175, 25};
  std::size_t shape_e = 30, shape_n = 20;
  int repeat = 3;
  std::string device_choice = "auto";
  cli::StageOptions command("rounding_bench",
                            "Cost and tightness of the rounding estimates on the sphere model, general and grid path.");
  command.add()
      ("cells", po::value(&cells)->multitoken(), "model cells E N U (default 175 175 25)")
      ("shape-e", po::value(&shape_e)->default_value(shape_e), "stations along easting")
      ("shape-n", po::value(&shape_n)->default_value(shape_n), "stations along northing")
      ("repeat", po::value(&repeat)->default_value(repeat), "timed runs per case (best is reported)")
      ("device", po::value(&device_choice)->default_value(device_choice), "auto, cpu or cuda");
  if (!command.parse(argc, argv)) return 0;
  bench::check_repeat(repeat);
  if (cells.size() != 3) throw InputError::usage("--cells needs three numbers");
  const ComputeDevice device = resolve_device(parse_device_choice(device_choice));
  const PrismGrid grid = prisms::sphere_grid(prisms::couder_grid(cells[0], cells[1], cells[2]), prisms::couder_spheres());
  const std::vector<Prism> sources = prisms::grid_prisms(grid);
  const std::vector<GridNode> nodes = grid_nodes(grid);
  const std::vector<Station> stations = prisms::grid_stations({0, 22000, 0, 22000, shape_e, shape_n, 100});
  std::printf("sphere model %zu x %zu x %zu cells: %zu prisms, %zu grid nodes; %zu stations at 100 m; %s\n", cells[0],
              cells[1], cells[2], sources.size(), nodes.size(), stations.size(), to_string(device).c_str());
  for (const Precision precision : {Precision::Double, Precision::Single}) {
    time_path("general", sources, stations, device, precision, repeat);
    time_path("grid", nodes, stations, device, precision, repeat);
  }
  // The tile bound runs in double only (RoundingKernel).
  bench::print_tile_looseness("general", potential::ListView<Prism>{sources.data()},
                              static_cast<std::int64_t>(sources.size()), stations, RoundingKernel<double>{}, {0, 1, 2},
                              Precision::Double);
  ForwardOptions options;
  options.device = device;
  options.quiet = true;
  options.force = true;
  const auto fields = parse_fields("all");
  for (const bool on_grid : {false, true}) {
    options.precision = Precision::Double;
    const auto reference = on_grid ? forward_model_grid(grid, stations, fields, options)
                                   : forward_model(sources, stations, fields, options);
    options.precision = Precision::Single;
    const auto single = on_grid ? forward_model_grid(grid, stations, fields, options)
                                : forward_model(sources, stations, fields, options);
    tightness(on_grid ? "grid" : "general", single, reference);
  }
  return 0;
}

int main(int argc, char** argv) { return cli::run_stage("rounding_bench", [&] { return run_bench(argc, argv); }); }
