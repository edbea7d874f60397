// terrain_bench: the gravity (g_z) and magnetic field (b_e, b_n, b_u) of a
// prism layer evaluated from its grid (geobem-model --dem's layer.vts), on
// stations at every --station-step-th DEM node with a height, --clearance
// metres above it (step 1: every node, the Harmonica comparison's case).
// Times run from host vectors to host results (transfers included) after a
// warm-up call, best of --repeat; g_z also by its driver alone (no rounding
// estimate, limits or units), to show what the public call adds. The layer
// is magnetized by induction (--susceptibility in --field-intensity,
// --inclination, --declination). --shapes fields|estimated|both (CUDA) then
// times the drivers alone, with the rounding estimate (its own pass in
// double), or both, in every compiled launch shape of the g_z face kernel
// (cuda_layer_face_shapes()) and of the magnetic kernel (cuda_layer_shapes()),
// double. --looseness K (CPU) prints instead how much the estimate's tile
// bound gives away against bounding every cell on its own, at every K-th
// station (tile_looseness.hpp).
// --peer-case DIR writes the layer, the stations and geobem's results for
// bench/gravity/terrain_harmonica_peer.py:
//   easting.npy (1, NE), northing.npy (1, NN): prism centres (m)
//   surface.npy (NN, NE): heights (m), NaN where the layer has no cell
//   stations.npy (S, 3), geobem_g_z.npy (1, S) mGal, geobem_b.npy (3, S) nT
//   geobem.txt: "driver D", "reference R", "density ABOVE BELOW", "magnetization ME MN MU",
//   then "g_z SECONDS" and "b SECONDS";
//   reference.npy (5, R): station index, g_z (mGal), b_e, b_n, b_u (nT) at
//   --reference-stations R stations spread over the list, the point kernels
//   evaluated in long double (64-bit significand; sums in double) on the CPU:
//   the high-precision reference that says which of two codes is right.
#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/gravity/bench_timing.hpp"
#include "bench/gravity/harmonica_case.hpp"
#include "bench/gravity/tile_looseness.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/layer_faces.hpp"
#include "gpu/gravity/station_contact.hpp"
#include "gpu/gravity/layer_sources.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "gpu/magnetic/magnetic.hpp"
#include "gpu/magnetic/magnetic_sources.hpp"
#include "gpu/potential/station_sums_cpu.hpp"
#include "mesh/terrain/layer_file.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
using namespace geobem;

namespace {

/// The best of `repeat` calls after a warm-up call (context creation,
/// first touch of the host results), seconds.
double warm_best_time(int repeat, const std::function<void()>& call) {
  call();
  return bench::best_time(repeat, call);
}

/// Rows of reference.npy: station index, g_z (mGal), b_e, b_n, b_u (nT) at
/// `count` stations spread over the list, kernels in long double.
std::vector<double> long_double_reference(const magnetic::MagneticLayer& layer,
                                          const std::vector<gravity::Station>& stations, std::size_t count) {
  std::vector<gravity::Station> chosen;
  std::vector<double> index;
  for (std::size_t k = 0; k < count && k < stations.size(); ++k) {
    index.push_back(static_cast<double>(k * stations.size() / count));
    chosen.push_back(stations[static_cast<std::size_t>(index.back())]);
  }
  const std::int64_t cells = static_cast<std::int64_t>(layer.layer.cell_count());
  ProgressReporter quiet("", 1, "", true);
  const gravity::LayerView gravity_view{layer.layer.geometry, layer.layer.surface.data(), 0};
  const auto g = potential::station_sums_cpu(gravity_view, cells, chosen,
                                             gravity::LayerFieldsKernel<long double, true>{{gravity::bit_g_z}}, quiet);
  const auto magnetic_view = magnetic::magnetic_layer_view(layer.layer.geometry, layer.magnetization_above,
                                                           layer.magnetization_below, layer.layer.surface.data(), 0);
  const auto b =
      potential::station_sums_cpu(magnetic_view, cells, chosen, magnetic::MagneticKernel<long double>{}, quiet);
  const std::size_t n = chosen.size();
  std::vector<double> rows(index);
  for (std::size_t s = 0; s < n; ++s) rows.push_back(gravity::field_scale(gravity::Field::g_z) * g[3 * n + s]);
  for (int c = 0; c < 3; ++c)
    for (std::size_t s = 0; s < n; ++s) rows.push_back(magnetic::field_factor_nt * b[c * n + s]);
  return rows;
}

#if GEOBEM_WITH_CUDA
/// The drivers in double in every compiled launch shape, the kernels alone
/// (`estimated` false) or with the rounding estimate (its own pass): the
/// layer's g_z face kernel, then the magnetic layer kernel.
void shape_sweep(const gravity::PrismLayer& layer, const magnetic::MagneticLayer& magnetized,
                 const std::vector<gravity::Station>& stations, int repeat, bool estimated) {
  ProgressReporter quiet("", 1, "", true);
  const std::int64_t cells = static_cast<std::int64_t>(layer.cell_count());
  const unsigned g_z_bit = 1u << static_cast<int>(gravity::Field::g_z);
  std::vector<double> rounding;
  std::vector<double>* estimate = estimated ? &rounding : nullptr;
  const char* with = estimated ? "+estimate" : "";
  for (const potential::KernelShape& shape : gravity::cuda_layer_face_shapes()) {
    const double seconds = warm_best_time(repeat, [&] {
      gravity::layer_sums_cuda(layer, 0, cells, stations, g_z_bit, gravity::Precision::Double, quiet, 0, estimate,
                               shape);
    });
    std::printf("shape g_z%-9s %4d threads, %3d registers: %9.4f s\n", with, shape.block_size, shape.max_registers,
                seconds);
  }
  for (const potential::KernelShape& shape : magnetic::cuda_layer_shapes()) {
    const double seconds = warm_best_time(repeat, [&] {
      magnetic::magnetic_layer_sums_cuda(magnetized, 0, cells, stations, gravity::Precision::Double, quiet, 0,
                                         estimate, shape);
    });
    std::printf("shape b%-11s %4d threads, %3d registers: %9.4f s\n", with, shape.block_size, shape.max_registers,
                seconds);
  }
}
#endif

int run(int argc, char** argv) {
  std::string layer_path, device_choice = "auto";
  std::optional<std::string> peer_case;
  double clearance = 100.0, susceptibility = 0.01;
  magnetic::InducingField field{51000.0, 64.0, -5.0};
  int step = 1, repeat = 3, reference_stations = 16;
  std::string sweep;
  int looseness_step = 0;
  bool host_parts = false;
  cli::StageOptions command("terrain_bench", "g_z and b of a prism layer on DEM-node stations, timed.");
  command.add_device(&device_choice);
  command.add()
    ("layer", po::value(&layer_path)->required(), "prism layer .vts (geobem-model --dem)")
    ("clearance", po::value(&clearance)->default_value(clearance), "station height above the DEM node (m)")
    ("station-step", po::value(&step)->default_value(step), "every K-th DEM node along each axis")
    ("repeat", po::value(&repeat)->default_value(repeat), "timed calls after the warm-up (best taken)")
    ("susceptibility", po::value(&susceptibility)->default_value(susceptibility), "SI, cells above the reference")
    ("field-intensity", po::value(&field.intensity_nt)->default_value(field.intensity_nt), "nT")
    ("inclination", po::value(&field.inclination_deg)->default_value(field.inclination_deg), "degrees")
    ("declination", po::value(&field.declination_deg)->default_value(field.declination_deg), "degrees")
    ("reference-stations", po::value(&reference_stations)->default_value(reference_stations),
     "peer case: stations of the long-double reference (reference.npy)")
    ("peer-case", cli::optional_value(&peer_case), "write the case for terrain_harmonica_peer.py into DIR")
    ("shapes", po::value(&sweep),
     "CUDA: time the g_z face kernel and the magnetic kernel in every compiled launch shape: fields (alone), "
     "estimated (with the rounding estimate: its own pass in double) or both")
    ("looseness", po::value(&looseness_step)->default_value(looseness_step),
     "K > 0: on the CPU at every K-th station, the estimate's tile bound against bounding every cell on its own "
     "(g_z faces and b), then exit")
    ("host-parts", po::bool_switch(&host_parts),
     "time forward_model_layer's host phases (checks, station limits, reference edges, box, units and estimates) "
     "on the CPU, then exit");
  if (!command.parse(argc, argv)) return 0;
  if (!sweep.empty() && sweep != "fields" && sweep != "estimated" && sweep != "both")
    throw InputError::usage("--shapes " + sweep + ": expected fields, estimated or both");
  if (step < 1) throw InputError::usage("--station-step " + std::to_string(step) + ": expected 1 or more");
  bench::check_repeat(repeat);
  const terrain::LayerModel model = terrain::read_layer_vts(layer_path);
  const gravity::PrismLayer& layer = model.layer;
  const gravity::LayerGeometry& g = layer.geometry;
  std::vector<gravity::Station> stations;
  for (std::int64_t j = 0; j < g.shape_n; j += step)
    for (std::int64_t i = 0; i < g.shape_e; i += step) {
      const double h = layer.surface[i + g.shape_e * j];
      if (!std::isnan(h)) stations.push_back({g.west_centre + i * g.spacing_e, g.south_centre + j * g.spacing_n, h + clearance});
    }
  if (host_parts) {
    // The host phases of forward_model_layer for g_z around its drivers, on
    // the CPU (the sums and bounds stand in as zeros).
    const auto time = [&](const char* what, const auto& phase) {
      std::printf("host %-22s %9.4f s\n", what, warm_best_time(repeat, phase));
    };
    time("check_prism_layer", [&] { gravity::check_prism_layer(layer); });
    time("layer_station_limits", [&] {
      gravity::layer_station_limits<1>(g, layer.surface, {g.density_above}, {g.density_below}, stations);
    });
    time("reference_edges", [&] { gravity::reference_edges(layer, 0, static_cast<std::int64_t>(layer.cell_count())); });
    time("cells_box", [&] { gravity::cells_box(layer, true, true); });
    gravity::ForwardOptions quiet_options;
    quiet_options.quiet = true;
    // finish_result consumes its sums and bounds: they are made before each
    // timed call, outside it.
    const gravity::Box box = gravity::cells_box(layer, true, true);
    double finish_seconds = 1e300;
    for (int r = 0; r <= repeat; ++r) {
      std::vector<double> sums(10 * stations.size(), 1.0), bounds(6 * stations.size(), 0.0);
      const auto start = std::chrono::steady_clock::now();
      gravity::finish_result(std::move(sums), 1u << static_cast<int>(gravity::Field::g_z), stations, quiet_options,
                             {}, std::move(bounds), box);
      if (r > 0) finish_seconds = std::min(finish_seconds, seconds_since(start));
    }
    std::printf("host %-22s %9.4f s\n", "finish_result", finish_seconds);
    return 0;
  }
  if (looseness_step > 0) {
    std::vector<gravity::Station> some;
    for (std::size_t s = 0; s < stations.size(); s += static_cast<std::size_t>(looseness_step))
      some.push_back(stations[s]);
    const std::int64_t all_cells = static_cast<std::int64_t>(layer.cell_count());
    const gravity::LayerFaceView faces{g, layer.surface.data(), 0};
    bench::print_tile_looseness("layer g_z faces", faces, all_cells, some,
                                gravity::FaceRoundingKernel<double>{g.reference}, {gravity::group_g},
                                gravity::Precision::Double);
    const auto above = magnetic::induced_magnetization(susceptibility, field);
    const auto cells_view = magnetic::magnetic_layer_view(g, above, {0.0, 0.0, 0.0}, layer.surface.data(), 0);
    bench::print_tile_looseness("layer b", cells_view, all_cells, some, magnetic::MagneticRoundingKernel<double>{},
                                {0}, gravity::Precision::Double);
    return 0;
  }
  const ComputeDevice device = resolve_device(parse_device_choice(device_choice));
  const std::size_t cells = gravity::massive_cell_count(layer);
  const double pairs = static_cast<double>(cells) * static_cast<double>(stations.size());
  std::printf("layer %s: %lld x %lld cells, %zu with mass, %s; %zu stations (step %d, %.0f m above the nodes); "
              "%.4g pairs; %s\n",
              layer_path.c_str(), static_cast<long long>(g.shape_e),
              static_cast<long long>(g.shape_n), cells, model.crs.c_str(), stations.size(), step, clearance, pairs,
              to_string(device).c_str());

  gravity::ForwardOptions forward;
  forward.device = device;
  forward.quiet = true;
  gravity::ForwardResult gz;
  const double gz_seconds = warm_best_time(repeat, [&] {
    gz = gravity::forward_model_layer(layer, stations, gravity::parse_fields("g_z"), forward);
  });
  std::printf("g_z        %9.4f s  %10.4g pairs/s\n", gz_seconds, pairs / gz_seconds);
  {
    // The driver alone, without the rounding estimate, station limits and
    // units of the public call: what those add.
    ProgressReporter quiet("", 1, "", true);
    const std::int64_t all_cells = static_cast<std::int64_t>(layer.cell_count());
    const unsigned g_z_bit = 1u << static_cast<int>(gravity::Field::g_z);
    const double driver_seconds = warm_best_time(repeat, [&] {
      if (device == ComputeDevice::Cuda) {
#if GEOBEM_WITH_CUDA
        gravity::layer_sums_cuda(layer, 0, all_cells, stations, g_z_bit, forward.precision, quiet);
#endif
      } else {
        gravity::layer_sums_cpu(layer, 0, all_cells, stations, g_z_bit, forward.precision, quiet);
      }
    });
    std::printf("g_z driver %9.4f s  (without the estimate, the limits and the units)\n", driver_seconds);
  }

  magnetic::MagneticLayer magnetized;
  magnetized.layer = layer;
  magnetized.magnetization_above = magnetic::induced_magnetization(susceptibility, field);
  magnetic::Options mag_options;
  mag_options.forward = forward;
  magnetic::Result b;
  const double b_seconds = warm_best_time(repeat, [&] {
    b = magnetic::forward_magnetic_layer(magnetized, stations, magnetic::parse_fields("b_e,b_n,b_u"), mag_options);
  });
  std::printf("b_e,b_n,b_u %8.4f s  %10.4g pairs/s\n", b_seconds, pairs / b_seconds);

  if (!sweep.empty()) {
    if (device != ComputeDevice::Cuda) throw InputError::usage("--shapes times CUDA kernels: use --device cuda");
#if GEOBEM_WITH_CUDA
    for (const bool estimated : {false, true})
      if (sweep == "both" || (sweep == "estimated") == estimated)
        shape_sweep(layer, magnetized, stations, repeat, estimated);
#endif
  }

  if (peer_case) {
    const std::filesystem::path dir = *peer_case;
    std::filesystem::create_directories(dir);
    std::vector<double> easting, northing, rows;
    for (std::int64_t i = 0; i < g.shape_e; ++i) easting.push_back(g.west_centre + i * g.spacing_e);
    for (std::int64_t j = 0; j < g.shape_n; ++j) northing.push_back(g.south_centre + j * g.spacing_n);
    bench::write_npy(dir / "easting.npy", 1, easting.size(), easting);
    bench::write_npy(dir / "northing.npy", 1, northing.size(), northing);
    bench::write_npy(dir / "surface.npy", g.shape_n, g.shape_e, layer.surface);
    for (const auto& s : stations) rows.insert(rows.end(), {s.easting, s.northing, s.upward});
    bench::write_npy(dir / "stations.npy", stations.size(), 3, rows);
    bench::write_npy(dir / "geobem_g_z.npy", 1, stations.size(), gz.values[0]);
    rows.clear();
    for (const auto& column : b.values) rows.insert(rows.end(), column.begin(), column.end());
    bench::write_npy(dir / "geobem_b.npy", 3, stations.size(), rows);
    std::ofstream out(dir / "geobem.txt");
    out.precision(17);
    const auto& m = magnetized.magnetization_above;
    out << "driver " << to_string(device) << "\nreference " << g.reference << "\ndensity " << g.density_above << ' ' << g.density_below
        << "\nmagnetization " << m[0] << ' ' << m[1] << ' ' << m[2] << "\ng_z " << gz_seconds << "\nb " << b_seconds
        << '\n';
    if (!out) throw std::runtime_error((dir / "geobem.txt").string() + ": cannot write");
    const std::size_t count = static_cast<std::size_t>(std::max(1, reference_stations));
    const auto reference = long_double_reference(magnetized, stations, count);
    bench::write_npy(dir / "reference.npy", 5, reference.size() / 5, reference);
    std::printf("peer case written to %s\n", dir.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_stage("terrain_bench", [&] { return run(argc, argv); });
}
