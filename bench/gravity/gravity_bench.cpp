// gravity_bench: prism–station pairs per second of the OpenMP and CUDA
// drivers, double and single, all ten fields and g_z alone, on the synthetic
// case of Couder-Castañeda et al. (2013): 700 × 700 × 50 cells over
// 22 km × 22 km × 8 km with seven spheres (mesh/prisms couder_spheres(),
// 251,947 prisms) and 150 × 100 stations at 100 m (3.78e9 pairs).
// CUDA times run from host vectors to host results (allocation, transfers,
// kernels; the context is created by a warm-up call first), best of --repeat.
// The CPU path times every k-th station only (--cpu-stations of them) and
// reports pairs/s and the time extrapolated to the whole grid. The single
// precision error is the largest |single - double| over the whole grid over
// the field's largest magnitude (CUDA results). The public call
// forward_model() is timed beside the drivers; --shapes times every compiled
// launch shape of the double kernels (prism_shapes.hpp).
// --peer-case DIR instead writes the case, geobem's double results for all
// ten fields and their times (all ten, g_z alone; CUDA, or the CPU where there
// is no device) for bench/gravity/harmonica_peer.py and
// bench/python/python_bench.py (harmonica_case.hpp): "all" and "g_z" time the
// public call forward_model(), "all_driver" and "g_z_driver" its driver alone.
// --host-parts times forward_model's host phases over the prisms on the CPU
// (g_z at no station, so the driver sums nothing): the public call on the
// list as built, on a copy moved in (what the call once made of a list it
// was given), and its driver alone with the rounding sums, best of --repeat.
#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/gravity/bench_timing.hpp"
#include "bench/gravity/harmonica_case.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/potential/station_sums_cpu.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/stations.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
using namespace geobem;
using namespace geobem::gravity;
using geobem::bench::best_time;

namespace {

struct Case {
  const char* fields;
  unsigned mask;
  Precision precision;
};

}  // namespace

int run_bench(int argc, char** argv) {
  std::vector<std::size_t> cells{700, 700, 50};
  std::size_t shape_e = 150, shape_n = 100, cpu_stations = 160;
  int repeat = 3;
  std::string sweep;
  std::string peer_case;
  bool host_parts = false;
  cli::StageOptions command("gravity_bench",
                            "Prism-station pairs per second of the CPU and CUDA gravity drivers on the paper's case.");
  command.add()
      ("cells", po::value(&cells)->multitoken(), "model cells E N U (default 700 700 50)")
      ("shape-e", po::value(&shape_e)->default_value(shape_e), "stations along easting")
      ("shape-n", po::value(&shape_n)->default_value(shape_n), "stations along northing")
      ("cpu-stations", po::value(&cpu_stations)->default_value(cpu_stations), "stations timed on the CPU (0: skip the CPU)")
      ("repeat", po::value(&repeat)->default_value(repeat), "CUDA runs per case (best is reported)")
      ("shapes", po::value(&sweep),
       "also time every compiled launch shape of the double kernels: fields (alone), estimated (with the rounding "
       "estimate: its own pass in double, the same pass in single) or both")
      ("peer-case", po::value(&peer_case), "write the case and double results for harmonica_peer.py to DIR, then stop")
      ("host-parts", po::bool_switch(&host_parts),
       "time forward_model's host phases over the prisms on the CPU (g_z at no station: the public call, the "
       "call on a copy moved in, the driver alone with the rounding sums), then exit");
  if (!command.parse(argc, argv)) return 0;  // --help
  bench::check_repeat(repeat);
  if (cells.size() != 3) throw InputError::usage("--cells needs three counts");
  if (!sweep.empty() && sweep != "fields" && sweep != "estimated" && sweep != "both")
    throw InputError::usage("--shapes " + sweep + ": expected fields, estimated or both");
  const std::size_t cells_e = cells[0], cells_n = cells[1], cells_u = cells[2];

  const auto grid = prisms::sphere_grid(prisms::couder_grid(cells_e, cells_n, cells_u), prisms::couder_spheres());
  const std::vector<Prism> prisms = prisms::grid_prisms(grid);
  const std::vector<Station> stations = prisms::grid_stations({0, 22000, 0, 22000, shape_e, shape_n, 100});
  const double pairs = double(prisms.size()) * double(stations.size());
  std::printf("model %zux%zux%zu cells, %zu prisms; %zu stations; %.4g pairs\n", cells_e, cells_n, cells_u,
              prisms.size(), stations.size(), pairs);

  if (host_parts) {
    ForwardOptions options;
    options.device = ComputeDevice::Cpu;
    options.quiet = true;
    ProgressReporter quiet("bench", 0, "pairs", true);
    const std::vector<Station> none;
    const std::vector<Field> g_z{Field::g_z};
    const double given = best_time(repeat, [&] { forward_model(prisms, none, g_z, options); });
    const double moved = best_time(repeat, [&] { forward_model(std::vector<Prism>(prisms), none, g_z, options); });
    std::vector<double> rounding;
    const double driver =
        best_time(repeat, [&] { forward_cpu(prisms, none, 1u << 3, Precision::Double, quiet, &rounding); });
    std::printf("host forward_model, list as built  %9.4f s\n", given);
    std::printf("host forward_model, copy moved in  %9.4f s\n", moved);
    std::printf("host forward_cpu alone             %9.4f s\n", driver);
    return 0;
  }

  if (!peer_case.empty()) {
    // Two times per case, both from host vectors to host results: the
    // library's public call forward_model() (the checks, the limits at
    // stations on the model, the driver, the rounding estimate with its own
    // pass over prisms and stations, the units: what a C++ program,
    // geobem-gravity and the Python module call), and its driver alone
    // (forward_cuda or forward_cpu), to show what the call adds.
    const bool cuda = cuda_device_count() > 0;
    ForwardOptions options;
    options.device = cuda ? ComputeDevice::Cuda : ComputeDevice::Cpu;
    options.quiet = true;
    ProgressReporter quiet("bench", 0, "pairs", true);
    const auto driver = [&](const std::vector<Station>& at, unsigned mask) {
      return cuda ? forward_cuda(prisms, at, mask, Precision::Double, quiet)
                  : forward_cpu(prisms, at, mask, Precision::Double, quiet);
    };
    driver({stations.front()}, 0x3ffu);  // CUDA context and module load
    const std::vector<Field> all = parse_fields("all"), g_z{Field::g_z};
    ForwardResult result;
    const double all_s = best_time(repeat, [&] { result = forward_model(prisms, stations, all, options); });
    const double g_z_s = best_time(repeat, [&] { forward_model(prisms, stations, g_z, options); });
    const double all_driver_s = best_time(repeat, [&] { driver(stations, 0x3ffu); });
    const double g_z_driver_s = best_time(repeat, [&] { driver(stations, unsigned(1u << 3)); });
    std::vector<double> fields;
    for (const auto& column : result.values) fields.insert(fields.end(), column.begin(), column.end());
    const std::string name = cuda ? "cuda" : "cpu";
    bench::write_harmonica_case(peer_case, prisms, stations, fields, name,
                                {{"all", all_s}, {"g_z", g_z_s}, {"all_driver", all_driver_s},
                                 {"g_z_driver", g_z_driver_s}});
    std::printf("%s double, best of %d: forward_model all ten fields %.4f s, g_z %.4f s; driver alone %.4f s, "
                "%.4f s; case written to %s\n",
                name.c_str(), repeat, all_s, g_z_s, all_driver_s, g_z_driver_s, peer_case.c_str());
    return 0;
  }

  const Case cases[] = {{"all", 0x3ffu, Precision::Double},
                        {"all", 0x3ffu, Precision::Single},
                        {"g_z", unsigned(1u << 3), Precision::Double},
                        {"g_z", unsigned(1u << 3), Precision::Single}};
  ProgressReporter silent("bench", 0, "pairs", true);
  std::printf("\n%-5s %-6s %-7s %12s %14s %12s\n", "path", "fields", "prec", "time_s", "pairs_per_s", "stations");

  if (cpu_stations > 0) {
    const std::size_t step = std::max<std::size_t>(1, stations.size() / cpu_stations);
    std::vector<Station> subset;
    for (std::size_t s = 0; s < stations.size(); s += step) subset.push_back(stations[s]);
    const double sub_pairs = double(prisms.size()) * double(subset.size());
    for (const Case& c : cases) {
      const double t = best_time(1, [&] { forward_cpu(prisms, subset, c.mask, c.precision, silent); });
      std::printf("%-5s %-6s %-7s %12.3f %14.4g %12zu  (whole grid: %.1f s, %d threads)\n", "cpu", c.fields,
                  c.precision == Precision::Double ? "double" : "single", t, sub_pairs / t, subset.size(),
                  t * pairs / sub_pairs, potential::last_cpu_thread_count());
    }
  }

  if (cuda_device_count() == 0) {
    std::printf("no CUDA device: CUDA rows skipped\n");
    return 0;
  }
  forward_cuda(prisms, {stations.front()}, 0x3ffu, Precision::Double, silent);  // context and module load
  // Rows for each launch choice of CudaTuning; the first is the default.
  const CudaTuning tunings[] = {CudaTuning{}, CudaTuning{true, 64}, CudaTuning{false, 8}};
  const char* tuning_names[] = {"default (inline pairs, 64 blocks/SM)", "out-of-line pairs", "8 blocks/SM"};
  std::vector<double> sums[4];
  for (int k = 0; k < 3; ++k) {
    std::printf("cuda launch: %s\n", tuning_names[k]);
    for (int i = 0; i < 4; ++i) {
      const Case& c = cases[i];
      std::vector<double> result;
      const double t = best_time(
          repeat, [&] { result = forward_cuda(prisms, stations, c.mask, c.precision, silent, tunings[k]); });
      if (k == 0) sums[i] = std::move(result);
      std::printf("%-5s %-6s %-7s %12.4f %14.4g %12zu\n", "cuda", c.fields,
                  c.precision == Precision::Double ? "double" : "single", t, pairs / t, stations.size());
    }
  }
  // The public call: checks, the limits at stations on the model, the
  // drivers with the rounding estimate (its own pass in double), units, estimates.
  ForwardOptions options;
  options.device = ComputeDevice::Cuda;
  options.quiet = true;
  const double public_all = best_time(repeat, [&] { forward_model(prisms, stations, parse_fields("all"), options); });
  const double public_g_z = best_time(repeat, [&] { forward_model(prisms, stations, {Field::g_z}, options); });
  std::printf("cuda forward_model (the public call), double: all ten %.4f s, g_z %.4f s\n", public_all, public_g_z);
  if (!sweep.empty()) {
    // Every compiled shape of the double kernels: fields alone
    // (cuda_kernel_shapes) and with the estimate (cuda_estimated_kernel_shapes).
    std::printf("\n%-8s %-9s %-6s %10s\n", "block", "registers", "fields", "time_s");
    for (const bool estimated : {false, true}) {
      if (sweep != "both" && sweep != (estimated ? "estimated" : "fields")) continue;
      std::printf("%s\n", estimated ? "with the rounding estimate (its own pass)" : "fields alone");
      for (const KernelShape& shape : estimated ? cuda_estimated_kernel_shapes() : cuda_kernel_shapes())
        for (const unsigned mask : {0x3ffu, unsigned(bit_g_z)}) {
          CudaTuning tuning;
          tuning.shape = shape;
          std::vector<double> rounding;
          const double t = best_time(repeat, [&] {
            forward_cuda(prisms, stations, mask, Precision::Double, silent, tuning, estimated ? &rounding : nullptr);
          });
          std::printf("%-8d %-9d %-6s %10.4f\n", shape.block_size, shape.max_registers, mask == 0x3ffu ? "all" : "g_z",
                      t);
        }
    }
  }
  std::printf("\nsingle vs double (CUDA, whole grid): largest |difference| / largest |field|\n");
  for (int f = 0; f < field_count; ++f) {
    double largest = 0, diff = 0;
    for (std::size_t s = 0; s < stations.size(); ++s) {
      const double d = sums[0][f * stations.size() + s], x = sums[1][f * stations.size() + s];
      largest = std::max(largest, std::abs(d));
      diff = std::max(diff, std::abs(x - d));
    }
    std::printf("  %-9s %.3e (%.4g %s)\n", field_name(Field(f)), diff / largest, diff * field_scale(Field(f)),
                field_unit(Field(f)));
  }
  return 0;
}

int main(int argc, char** argv) {
  return geobem::cli::run_stage("gravity_bench", [&] { return run_bench(argc, argv); });
}
