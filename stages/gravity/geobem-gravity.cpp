// geobem-gravity: potential, field and gradient tensor of a prism model on a
// station grid or scattered stations. Reads and checks every input before
// computing, computes before writing: bad input writes nothing. Started by
// mpirun, every rank reads the inputs, evaluates its share of the prisms or
// grid nodes on device rank mod (devices per host), and rank 0 sums the
// station fields and alone writes outputs.
#include <mpi.h>

#include <cstdlib>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/gravity/forward_mpi.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/grid_nodes.hpp"
#include "mesh/prisms/gravity_output.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "mesh/prisms/stations.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
namespace gravity = geobem::gravity;
using namespace geobem::prisms;

namespace {

const char* const grid_options[] = {"grid-west", "grid-east", "grid-south", "grid-north", "grid-shape"};

std::optional<StationGrid> station_grid_from(const po::variables_map& vm) {
  std::size_t given = 0;
  for (const char* name : grid_options) given += vm.count(name);
  if (vm.count("stations")) {
    if (given > 0) throw po::error("give either --stations or the --grid-* options, not both");
    return std::nullopt;
  }
  if (given < std::size(grid_options)) {
    std::string missing;
    for (const char* name : grid_options)
      if (!vm.count(name)) missing += std::string(missing.empty() ? "" : ", ") + "--" + name;
    throw po::error("stations: give --stations FILE.csv or a grid (missing " + missing + ")");
  }
  const auto shape = geobem::cli::parse_count_list("grid-shape", vm["grid-shape"].as<std::string>(), 2, "NE,NN", 1e8);
  StationGrid grid{vm["grid-west"].as<double>(), vm["grid-east"].as<double>(), vm["grid-south"].as<double>(),
                   vm["grid-north"].as<double>(), shape[0], shape[1], vm["grid-upward"].as<double>()};
  try {
    check_station_grid(grid);
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  return grid;
}

/// Started by mpirun (Open MPI or a PMI launcher)?
bool under_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE"); }

/// Closes MPI on every exit path of run() (usage errors included).
struct MpiSession {
  explicit MpiSession(bool active) : active(active) {
    if (active) {
      MPI_Init(nullptr, nullptr);
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      MPI_Comm_size(MPI_COMM_WORLD, &size);
    }
  }
  ~MpiSession() {
    if (active) MPI_Finalize();
  }
  bool active;
  int rank = 0, size = 1;
};

int run(int argc, char** argv) {
  const MpiSession mpi(under_mpirun());
  po::options_description options("Options");
  geobem::cli::add_common_options(options);
  geobem::cli::add_device_option(options);
  options.add_options()
    ("prisms", po::value<std::string>()->required(),
     "prism model: .csv (prism CSV), .vtr/.vti/.vtu (cell 'density'), or a UBC-GIF mesh file with --ubc-model")
    ("ubc-model", po::value<std::string>(), "UBC-GIF model file (densities, kg/m^3) of the --prisms mesh file")
    ("stations", po::value<std::string>(), "station CSV (easting,northing,upward in m); writes gravity.vtu")
    ("grid-west", po::value<double>(), "station grid: west edge (m)")
    ("grid-east", po::value<double>(), "station grid: east edge (m)")
    ("grid-south", po::value<double>(), "station grid: south edge (m)")
    ("grid-north", po::value<double>(), "station grid: north edge (m)")
    ("grid-shape", po::value<std::string>(), "station grid: NE,NN stations (east-west, south-north)")
    ("grid-upward", po::value<double>()->default_value(0.0), "station grid: elevation (m, upward)")
    ("fields", po::value<std::string>()->default_value("all"),
     "all, or a comma-separated list of potential,g_e,g_n,g_z,g_ee,g_en,g_ez,g_nn,g_nz,g_zz")
    ("precision", po::value<std::string>()->default_value("double"), "double or single (kernel arithmetic)")
    ("path", po::value<std::string>()->default_value("auto"),
     "auto, general or grid: grid models on their weighted grid nodes (auto: when every station is outside the grid)")
    ("device-memory-limit", po::value<double>()->default_value(0.0),
     "CUDA: device memory to use at most, MiB (0: 80% of the free memory); larger problems go in chunks")
    ("out", po::value<std::string>()->default_value("."), "output folder for gravity.csv and gravity.vts/.vtu");
  const auto parsed = geobem::cli::parse_stage_options(
      argc, argv, "geobem-gravity",
      "Gravity potential, field (mGal) and gradient tensor (Eotvos) of a prism model on stations.", options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const bool quiet = vm["quiet"].as<bool>() || mpi.rank != 0;

  // Check every option and read every input before computing or writing.
  gravity::ForwardOptions forward;
  forward.quiet = quiet;
  std::vector<gravity::Field> fields;
  gravity::ForwardPath path = gravity::ForwardPath::Auto;
  try {
    fields = gravity::parse_fields(vm["fields"].as<std::string>());
    forward.precision = gravity::parse_precision(vm["precision"].as<std::string>());
    forward.device = geobem::resolve_device(geobem::parse_device_choice(vm["device"].as<std::string>()));
    path = gravity::parse_forward_path(vm["path"].as<std::string>());
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  const double limit_mib = vm["device-memory-limit"].as<double>();
  if (!(limit_mib >= 0.0) || limit_mib > 1e9)
    throw po::error("--device-memory-limit " + std::to_string(limit_mib) + ": expected MiB between 0 and 1e9");
  forward.device_memory_limit_bytes = static_cast<std::size_t>(limit_mib * 1024.0 * 1024.0);
  const std::optional<StationGrid> grid = station_grid_from(vm);
  const std::vector<Station> stations =
      grid ? grid_stations(*grid) : read_station_csv(vm["stations"].as<std::string>());
  PrismModel model =
      read_prism_model(vm["prisms"].as<std::string>(), vm.count("ubc-model") ? vm["ubc-model"].as<std::string>() : "");
  drop_zero_density(model);
  if (path == gravity::ForwardPath::Grid && !model.grid)
    throw po::error("--path grid: the model " + model.source + " is a prism list, not a grid");
  const bool on_grid = model.grid && (path == gravity::ForwardPath::Grid ||
                                      (path == gravity::ForwardPath::Auto &&
                                       gravity::grid_path_applies(*model.grid, stations)));
  if (!quiet)
    std::fprintf(stderr,
                 "geobem-gravity: %zu prisms from %s (%zu of zero density left out), %zu stations, %zu fields, %s, "
                 "%s path, %d rank(s)\n",
                 model.prisms.size(), model.source.c_str(), model.zero_density_dropped, stations.size(), fields.size(),
                 geobem::to_string(forward.device).c_str(), on_grid ? "grid" : "general", mpi.size);

  std::vector<GravityColumn> columns;
  if (model.prisms.empty()) {
    // No mass: every field is zero (the compute library is not called).
    for (const auto field : fields)
      columns.push_back({gravity::field_name(field), gravity::field_unit(field), std::vector<double>(stations.size())});
  } else {
    const gravity::ForwardOptions options = gravity::rank_options(forward, mpi.rank, mpi.size);
    gravity::ForwardResult result = on_grid ? gravity::forward_model_grid(*model.grid, stations, fields, options)
                                            : gravity::forward_model(model.prisms, stations, fields, options);
    if (mpi.active) gravity::reduce_to_root(result, MPI_COMM_WORLD);
    for (std::size_t f = 0; f < result.fields.size(); ++f)
      columns.push_back({gravity::field_name(result.fields[f]), gravity::field_unit(result.fields[f]),
                         std::move(result.values[f])});
  }

  if (mpi.rank != 0) return 0;  // rank 0 alone writes
  const auto written = write_gravity_outputs(vm["out"].as<std::string>(), stations, grid, columns);
  if (!quiet)
    for (const auto& path : written) std::fprintf(stderr, "geobem-gravity: wrote %s\n", path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_stage("geobem-gravity", [&] { return run(argc, argv); });
}
