// geobem-gravity: potential, field and gradient tensor of a prism model (a
// prism list, a voxel grid or a prism layer) on a station grid, scattered
// stations or stations draped over a DEM. Parse -> read and check every
// input -> compute -> write the output set (docs/stage_contract.md): bad
// input writes nothing, and the set in OUT is replaced whole. Started by
// mpirun, every rank reads the inputs, evaluates its share of the prisms or
// grid nodes on device rank mod (devices per host), and rank 0 sums the
// station fields and alone writes the outputs.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/gravity/forward_mpi.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/grid_nodes.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "mesh/io/output_set.hpp"
#include "stages/cli/mpi_session.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/survey/survey.hpp"

namespace po = boost::program_options;
namespace gravity = geobem::gravity;
using geobem::InputError;
using namespace geobem::prisms;

namespace {

/// What geobem-gravity does, the head of its --help.
const char* const kSummary =
    "Gravity potential, field (mGal) and gradient tensor (Eotvos) of a prism model on stations. A station on the "
    "model gets the limit from the side its survey sees (above a top face, outside a side face, below a bottom "
    "face; above a layer's terrain); a tensor term without a limit (on an edge or vertex, or inside the model on a "
    "face between different densities) is NaN with a warning.";

struct GravityOptions : geobem::survey::PotentialFieldOptions {
  std::string path = "auto";
};

/// The fields of a run on `stations`: computed (and summed over the ranks),
/// or zero for a model without mass (the compute library is not called).
std::vector<GravityColumn> columns_of(std::optional<gravity::ForwardResult> result,
                                      const std::vector<gravity::Field>& fields, std::size_t station_count) {
  std::vector<GravityColumn> columns;
  if (result) {
    for (std::size_t f = 0; f < result->fields.size(); ++f)
      columns.push_back({gravity::field_name(result->fields[f]), gravity::field_unit(result->fields[f]),
                         std::move(result->values[f])});
  } else {
    for (const auto field : fields)
      columns.push_back({gravity::field_name(field), gravity::field_unit(field), std::vector<double>(station_count)});
  }
  return columns;
}

/// Warns (quiet or not) when the densities look like g/cm³.
void warn_about_densities(const geobem::survey::Model& model) {
  std::vector<std::string> warnings;
  if (model.layer) {
    const auto& geometry = model.layer->layer.geometry;
    warnings.push_back(density_unit_warning(std::abs(geometry.density_above), "the layer above its reference"));
    warnings.push_back(density_unit_warning(std::abs(geometry.density_below), "the layer below its reference"));
  } else {
    warnings.push_back(density_unit_warning(largest_density_magnitude(model.prisms.prisms), model.prisms.source));
  }
  for (const auto& warning : warnings)
    if (!warning.empty()) std::fprintf(stderr, "geobem-gravity: warning: %s\n", warning.c_str());
}

/// The command line of geobem-gravity, bound to `o`.
void declare_options(geobem::cli::StageOptions& command, GravityOptions& o) {
  geobem::survey::add_potential_field_options(
      command, &o, "all, or a comma-separated list of potential,g_e,g_n,g_z,g_ee,g_en,g_ez,g_nn,g_nz,g_zz");
  command.add()
    ("path", po::value(&o.path)->default_value(o.path),
     "auto, general or grid: grid models on their weighted grid nodes (auto: when every station is outside the grid)");
  geobem::survey::add_kernel_options(command, &o.kernel);
  command.add_out_folder(&o.out,
                         "gravity.csv, gravity.vts (grid stations) or gravity.vtu, gravity.prj (the CRS, when known), "
                         "geobem-gravity.ini");
}

int run(const GravityOptions& o, const geobem::cli::StageOptions& command, const geobem::cli::MpiSession& mpi) {
  const bool quiet = command.quiet() || mpi.rank() != 0;

  // Check every option and read every input before computing or writing.
  gravity::ForwardOptions forward;
  forward.quiet = quiet;
  const std::vector<gravity::Field> fields = gravity::parse_fields(o.fields);
  geobem::survey::apply_kernel_options(o.kernel, forward);
  const gravity::ForwardPath path = gravity::parse_forward_path(o.path);
  geobem::survey::check_station_options(o.stations);
  forward.device = geobem::resolve_device(geobem::parse_device_choice(o.device));
  // Rank 0 alone writes: it alone takes the output folder, before the work.
  std::unique_ptr<geobem::OutputSet> outputs;
  if (mpi.rank() == 0) outputs = std::make_unique<geobem::OutputSet>(o.out, "geobem-gravity");
  geobem::survey::Model model = geobem::survey::read_model(o.model);
  if (mpi.rank() == 0) warn_about_densities(model);
  const geobem::survey::Survey survey = geobem::survey::read_survey(o.stations, model, "geobem-gravity", quiet);
  const std::vector<Station>& stations = survey.stations;
  const gravity::ForwardOptions rank_share = gravity::rank_options(forward, mpi.rank(), mpi.size());
  std::optional<gravity::ForwardResult> result;
  if (model.layer) {
    if (path != gravity::ForwardPath::Auto)
      throw InputError::usage("--path " + std::string(gravity::to_string(path)) + ": a prism layer has one path");
    if (!quiet)
      std::fprintf(stderr, "geobem-gravity: prism layer %s, %lld x %lld cells (%zu with mass, %s), %zu stations, "
                           "%zu fields, %s, %d rank(s)\n",
                   model.path.c_str(), static_cast<long long>(model.layer->layer.geometry.shape_e),
                   static_cast<long long>(model.layer->layer.geometry.shape_n),
                   gravity::massive_cell_count(model.layer->layer),
                   model.layer->crs.empty() ? "CRS unknown" : model.layer->crs.c_str(), stations.size(), fields.size(),
                   geobem::to_string(forward.device).c_str(), mpi.size());
    result = gravity::forward_model_layer(model.layer->layer, stations, fields, rank_share);
  } else {
    PrismModel& prism_model = model.prisms;
    drop_zero_density(prism_model);
    if (path == gravity::ForwardPath::Grid && !prism_model.grid)
      throw InputError::usage("--path grid: the model " + prism_model.source + " is a prism list, not a grid");
    const bool on_grid = prism_model.grid && (path == gravity::ForwardPath::Grid ||
                                              (path == gravity::ForwardPath::Auto &&
                                               gravity::grid_path_applies(*prism_model.grid, stations)));
    if (!quiet)
      std::fprintf(stderr,
                   "geobem-gravity: %zu prisms from %s (%zu of zero density left out), %zu stations, %zu fields, %s, "
                   "%s path, %d rank(s)\n",
                   prism_model.prisms.size(), prism_model.source.c_str(), prism_model.zero_density_dropped,
                   stations.size(), fields.size(), geobem::to_string(forward.device).c_str(),
                   on_grid ? "grid" : "general", mpi.size());
    if (!prism_model.prisms.empty())
      result = on_grid ? gravity::forward_model_grid(*prism_model.grid, stations, fields, rank_share)
                       : gravity::forward_model(prism_model.prisms, stations, fields, rank_share);
  }
  if (result && mpi.active()) gravity::reduce_to_root(*result, MPI_COMM_WORLD);
  if (!outputs) return 0;

  geobem::survey::commit_station_outputs(*outputs, "gravity", survey,
                                         columns_of(std::move(result), fields, stations.size()), command,
                                         forward.device, quiet);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_mpi_stage("geobem-gravity", kSummary, declare_options, argc, argv, run);
}
