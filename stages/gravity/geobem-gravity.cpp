// geobem-gravity: potential, field and gradient tensor of a prism model (a
// prism list, a voxel grid or a prism layer) on a station grid, scattered
// stations or stations draped over a DEM. Reads and checks every input before
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
#include "gpu/gravity/prism_layer_forward.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/survey/survey.hpp"

namespace po = boost::program_options;
namespace gravity = geobem::gravity;
using namespace geobem::prisms;

namespace {

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
  geobem::survey::add_model_and_station_options(options);
  options.add_options()
    ("fields", po::value<std::string>()->default_value("all"),
     "all, or a comma-separated list of potential,g_e,g_n,g_z,g_ee,g_en,g_ez,g_nn,g_nz,g_zz")
    ("precision", po::value<std::string>()->default_value("double"), "double or single (kernel arithmetic)")
    ("path", po::value<std::string>()->default_value("auto"),
     "auto, general or grid: grid models on their weighted grid nodes (auto: when every station is outside the grid)")
    ("device-memory-limit", po::value<double>()->default_value(0.0),
     "CUDA: device memory to use at most, MiB (0: 80% of the free memory); larger problems go in chunks")
    ("out", po::value<std::string>()->default_value("."),
     "output folder for gravity.csv, gravity.vts (grid stations) or gravity.vtu, and gravity.prj (the CRS, when known)");
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
  geobem::survey::Model model = geobem::survey::read_model(vm);
  const geobem::survey::Survey survey = geobem::survey::read_survey(vm, model, "geobem-gravity", quiet);
  const std::vector<Station>& stations = survey.stations;
  const gravity::ForwardOptions rank_share = gravity::rank_options(forward, mpi.rank, mpi.size);
  std::optional<gravity::ForwardResult> result;
  if (model.layer) {
    if (path != gravity::ForwardPath::Auto)
      throw po::error("--path " + std::string(gravity::to_string(path)) + ": a prism layer has one path");
    if (!quiet)
      std::fprintf(stderr, "geobem-gravity: prism layer %s, %lld x %lld cells (%zu with mass, %s), %zu stations, "
                           "%zu fields, %s, %d rank(s)\n",
                   model.path.c_str(), static_cast<long long>(model.layer->layer.geometry.shape_e),
                   static_cast<long long>(model.layer->layer.geometry.shape_n),
                   gravity::massive_cell_count(model.layer->layer),
                   model.layer->crs.empty() ? "CRS unknown" : model.layer->crs.c_str(), stations.size(), fields.size(),
                   geobem::to_string(forward.device).c_str(), mpi.size);
    result = gravity::forward_model_layer(model.layer->layer, stations, fields, rank_share);
  } else {
    PrismModel& prism_model = model.prisms;
    drop_zero_density(prism_model);
    if (path == gravity::ForwardPath::Grid && !prism_model.grid)
      throw po::error("--path grid: the model " + prism_model.source + " is a prism list, not a grid");
    const bool on_grid = prism_model.grid && (path == gravity::ForwardPath::Grid ||
                                              (path == gravity::ForwardPath::Auto &&
                                               gravity::grid_path_applies(*prism_model.grid, stations)));
    if (!quiet)
      std::fprintf(stderr,
                   "geobem-gravity: %zu prisms from %s (%zu of zero density left out), %zu stations, %zu fields, %s, "
                   "%s path, %d rank(s)\n",
                   prism_model.prisms.size(), prism_model.source.c_str(), prism_model.zero_density_dropped,
                   stations.size(), fields.size(), geobem::to_string(forward.device).c_str(),
                   on_grid ? "grid" : "general", mpi.size);
    // No mass: every field is zero (the compute library is not called).
    if (!prism_model.prisms.empty())
      result = on_grid ? gravity::forward_model_grid(*prism_model.grid, stations, fields, rank_share)
                       : gravity::forward_model(prism_model.prisms, stations, fields, rank_share);
  }

  std::vector<GravityColumn> columns;
  if (result) {
    if (mpi.active) gravity::reduce_to_root(*result, MPI_COMM_WORLD);
    for (std::size_t f = 0; f < result->fields.size(); ++f)
      columns.push_back({gravity::field_name(result->fields[f]), gravity::field_unit(result->fields[f]),
                         std::move(result->values[f])});
  } else {
    for (const auto field : fields)
      columns.push_back({gravity::field_name(field), gravity::field_unit(field), std::vector<double>(stations.size())});
  }

  if (mpi.rank != 0) return 0;  // rank 0 alone writes
  const auto written = geobem::survey::write_station_outputs(vm["out"].as<std::string>(), "gravity", survey, columns);
  if (!quiet)
    for (const auto& path : written) std::fprintf(stderr, "geobem-gravity: wrote %s\n", path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_stage("geobem-gravity", [&] { return run(argc, argv); });
}
