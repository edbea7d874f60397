// geobem-magnetic: magnetic field (b_e, b_n, b_u, nT) and total-field anomaly
// of magnetized prisms (a prism CSV, a UBC-GIF susceptibility model, a VTK
// voxel model with cell array `susceptibility`, a prism layer) on a station
// grid, scattered stations or stations draped over a DEM. Reads and checks
// every input before computing, computes before writing. Under mpirun every
// rank reads the inputs and evaluates its share of the prisms or layer cells
// (gravity's rank split); the fields are summed on rank 0, which alone writes.
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/gravity/forward_mpi.hpp"
#include "gpu/magnetic/magnetic.hpp"
#include "stages/cli/mpi_session.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/magnetic/magnetic_model.hpp"
#include "stages/survey/survey.hpp"

namespace po = boost::program_options;
namespace magnetic = geobem::magnetic;

namespace {

/// Sums every rank's fields into rank 0's (all four outputs are linear in
/// the sources). Collective; throws std::runtime_error on an MPI error.
void reduce_to_root(magnetic::Result& result, const geobem::cli::MpiSession& mpi) {
  for (auto& column : result.values) {
    std::vector<double> total(column.size());
    if (MPI_Reduce(column.data(), total.data(), static_cast<int>(column.size()), MPI_DOUBLE, MPI_SUM, 0,
                   MPI_COMM_WORLD) != MPI_SUCCESS)
      throw std::runtime_error("MPI_Reduce of the magnetic fields failed");
    if (mpi.rank() == 0) column = std::move(total);
  }
}

bool is_vtk_model(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".vtr" || extension == ".vti" || extension == ".vtu";
}

int run(int argc, char** argv, const geobem::cli::MpiSession& mpi) {
  po::options_description options("Options");
  geobem::cli::add_common_options(options);
  geobem::cli::add_device_option(options);
  geobem::survey::add_model_and_station_options(options);
  options.add_options()
    ("fields", po::value<std::string>()->default_value("all"), "all, or a comma-separated list of b_e,b_n,b_u,tfa")
    ("field-intensity", po::value<double>()->default_value(50000.0),
     "inducing field intensity (nT): induced magnetization from --susceptibility")
    ("inclination", po::value<double>()->default_value(90.0),
     "inducing field inclination (degrees, positive downward): induced magnetization and the TFA direction")
    ("declination", po::value<double>()->default_value(0.0),
     "inducing field declination (degrees, east of north): induced magnetization and the TFA direction")
    ("susceptibility", po::value<double>(),
     "SI susceptibility of prisms without their own (CSV without magnetization or susceptibility columns) and of a "
     "layer's cells above its reference")
    ("susceptibility-below", po::value<double>(), "SI susceptibility of a layer's cells below its reference (default 0)")
    ("magnetization", po::value<std::string>(),
     "ME,MN,MU (A/m): magnetization instead of --susceptibility for the same prisms")
    ("precision", po::value<std::string>()->default_value("double"), "double or single (kernel arithmetic)")
    ("device-memory-limit", po::value<double>()->default_value(0.0),
     "CUDA: device memory to use at most, MiB (0: 80% of the free memory); larger problems go in chunks")
    ("out", po::value<std::string>()->default_value("."),
     "output folder for magnetic.csv, magnetic.vts (grid stations) or magnetic.vtu, and magnetic.prj (the CRS)");
  const auto parsed = geobem::cli::parse_stage_options(
      argc, argv, "geobem-magnetic",
      "Magnetic field b_e, b_n, b_u (nT, b_u upward) and total-field anomaly of magnetized prisms on stations. "
      "Prism CSV: magnetization_e/_n/_u (A/m) or susceptibility columns; UBC-GIF mesh with --ubc-model: "
      "susceptibilities; VTK voxel model (.vtr, .vti, .vtu): cell array susceptibility (SI); prism layer .vts: "
      "--susceptibility or --magnetization.",
      options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const bool quiet = vm["quiet"].as<bool>() || mpi.rank() != 0;

  magnetic::Options forward;
  forward.forward.quiet = quiet;
  std::vector<magnetic::Field> fields;
  try {
    fields = magnetic::parse_fields(vm["fields"].as<std::string>());
    forward.forward.precision = geobem::gravity::parse_precision(vm["precision"].as<std::string>());
    forward.forward.device = geobem::resolve_device(geobem::parse_device_choice(vm["device"].as<std::string>()));
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  const double limit_mib = vm["device-memory-limit"].as<double>();
  if (!(limit_mib >= 0.0) || limit_mib > 1e9)
    throw po::error("--device-memory-limit " + std::to_string(limit_mib) + ": expected MiB between 0 and 1e9");
  forward.forward.device_memory_limit_bytes = static_cast<std::size_t>(limit_mib * 1024.0 * 1024.0);
  geobem::magnetic_stage::UniformMagnetization uniform;
  uniform.field = {vm["field-intensity"].as<double>(), vm["inclination"].as<double>(), vm["declination"].as<double>()};
  for (double v : {uniform.field.intensity_nt, uniform.field.inclination_deg, uniform.field.declination_deg})
    if (!std::isfinite(v)) throw po::error("--field-intensity, --inclination and --declination must be finite");
  if (uniform.field.inclination_deg < -90.0 || uniform.field.inclination_deg > 90.0)
    throw po::error("--inclination " + std::to_string(uniform.field.inclination_deg) + ": expected -90 to 90 degrees");
  forward.tfa_inclination_deg = uniform.field.inclination_deg;
  forward.tfa_declination_deg = uniform.field.declination_deg;
  if (vm.count("susceptibility") && vm.count("magnetization"))
    throw po::error("give --susceptibility or --magnetization, not both");
  if (vm.count("susceptibility")) uniform.susceptibility = vm["susceptibility"].as<double>();
  if (vm.count("susceptibility-below")) uniform.susceptibility_below = vm["susceptibility-below"].as<double>();
  if (vm.count("magnetization")) {
    const auto m = geobem::cli::parse_number_list("magnetization", vm["magnetization"].as<std::string>(), 3, "ME,MN,MU");
    uniform.magnetization = std::array<double, 3>{m[0], m[1], m[2]};
  }

  forward.forward = geobem::gravity::rank_options(forward.forward, mpi.rank(), mpi.size());

  // Model: a layer .vts, a UBC-GIF mesh with its susceptibility model, a VTK
  // voxel model, or a prism CSV.
  const std::string model_path = vm["prisms"].as<std::string>();
  geobem::survey::Model model;
  model.path = model_path;
  if (std::filesystem::path(model_path).extension() == ".vts") model.layer = geobem::terrain::read_layer_vts(model_path);
  const geobem::survey::Survey survey = geobem::survey::read_survey(vm, model, "geobem-magnetic", quiet);
  magnetic::Result result;
  if (model.layer) {
    const magnetic::MagneticLayer layer = geobem::magnetic_stage::magnetized_layer(*model.layer, uniform);
    if (!quiet)
      std::fprintf(stderr, "geobem-magnetic: prism layer %s, %lld x %lld cells (%s), %zu stations, %s\n",
                   model_path.c_str(), static_cast<long long>(layer.layer.geometry.shape_e),
                   static_cast<long long>(layer.layer.geometry.shape_n),
                   model.layer->crs.empty() ? "CRS unknown" : model.layer->crs.c_str(), survey.stations.size(),
                   geobem::to_string(forward.forward.device).c_str());
    result = magnetic::forward_magnetic_layer(layer, survey.stations, fields, forward);
  } else {
    std::vector<magnetic::MagnetizedPrism> prisms;
    if (vm.count("ubc-model"))
      prisms = geobem::magnetic_stage::induced_prisms(model_path, vm["ubc-model"].as<std::string>(), uniform.field);
    else if (is_vtk_model(model_path))
      prisms = geobem::magnetic_stage::induced_vtk_prisms(model_path, uniform.field);
    else if (std::filesystem::path(model_path).extension() == ".csv")
      prisms = geobem::magnetic_stage::read_magnetized_csv(model_path, uniform);
    else
      throw po::error("--prisms " + model_path + ": geobem-magnetic reads a prism CSV, a UBC-GIF mesh with "
                      "--ubc-model (susceptibilities), a VTK voxel model (.vtr, .vti, .vtu with cell array "
                      "'susceptibility') or a prism layer .vts");
    if (!quiet)
      std::fprintf(stderr, "geobem-magnetic: %zu magnetized prisms from %s, %zu stations, %s, %d rank(s)\n",
                   prisms.size(), model_path.c_str(), survey.stations.size(),
                   geobem::to_string(forward.forward.device).c_str(), mpi.size());
    result = magnetic::forward_magnetic(prisms, survey.stations, fields, forward);
  }
  if (mpi.active()) reduce_to_root(result, mpi);
  if (mpi.rank() != 0) return 0;  // rank 0 alone writes
  std::vector<geobem::prisms::GravityColumn> columns;
  for (std::size_t f = 0; f < result.fields.size(); ++f)
    columns.push_back({magnetic::field_name(result.fields[f]), "nT", std::move(result.values[f])});
  const auto written = geobem::survey::write_station_outputs(vm["out"].as<std::string>(), "magnetic", survey, columns);
  if (!quiet)
    for (const auto& path : written) std::fprintf(stderr, "geobem-magnetic: wrote %s\n", path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const geobem::cli::MpiSession mpi;
  return mpi.exit_status(geobem::cli::run_stage("geobem-magnetic", [&] { return run(argc, argv, mpi); }));
}
