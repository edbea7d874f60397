// geobem-magnetic: magnetic field (b_e, b_n, b_u, nT) and total-field anomaly
// of magnetized prisms (a prism CSV, a UBC-GIF susceptibility model, a VTK
// voxel model with cell array `susceptibility`, a prism layer) on a station
// grid, scattered stations or stations draped over a DEM. Parse -> read and
// check every input -> compute -> write the output set
// (docs/stage_contract.md): bad input writes nothing, and the set in OUT is
// replaced whole. Started by mpirun, every rank reads the inputs and
// evaluates its share of the prisms or layer cells (gravity's rank split);
// the fields are summed on rank 0, which alone writes.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/gravity/forward_mpi.hpp"
#include "gpu/magnetic/magnetic.hpp"
#include "gpu/magnetic/magnetic_mpi.hpp"
#include "mesh/io/output_set.hpp"
#include "stages/cli/mpi_session.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/magnetic/magnetic_model.hpp"
#include "stages/survey/survey.hpp"

namespace po = boost::program_options;
namespace magnetic = geobem::magnetic;
using geobem::InputError;

namespace {

/// What geobem-magnetic does, the head of its --help.
const char* const kSummary =
    "Magnetic field b_e, b_n, b_u (nT, b_u upward) and total-field anomaly of magnetized prisms on stations. "
    "Prism CSV: magnetization_e/_n/_u (A/m) or susceptibility columns; UBC-GIF mesh with --ubc-model: "
    "susceptibilities; VTK voxel model (.vtr, .vti, .vtu): cell array susceptibility (SI); prism layer .vts: "
    "--susceptibility or --magnetization. Stations on the model: the limit from the side the survey sees, NaN "
    "where a component has none, as geobem-gravity. mu0/4pi = 1.00000000055e-7 H/m (CODATA 2018).";

struct MagneticOptions : geobem::survey::PotentialFieldOptions {
  std::optional<double> field_intensity, inclination, declination;  // the site's: no default
  std::optional<double> susceptibility, susceptibility_below;
  std::optional<std::string> magnetization;
};

bool has_extension(const std::string& path, std::initializer_list<const char*> extensions) {
  const std::string extension = std::filesystem::path(path).extension().string();
  for (const char* e : extensions)
    if (extension == e) return true;
  return false;
}

/// The uniform magnetization options, checked.
geobem::magnetic_stage::UniformMagnetization uniform_of(const MagneticOptions& o) {
  geobem::magnetic_stage::UniformMagnetization uniform;
  uniform.field_intensity = o.field_intensity;
  uniform.inclination = o.inclination;
  uniform.declination = o.declination;
  for (const auto& v : {o.field_intensity, o.inclination, o.declination})
    if (v && !std::isfinite(*v))
      throw InputError::usage("--field-intensity, --inclination and --declination must be finite");
  if (o.inclination && (*o.inclination < -90.0 || *o.inclination > 90.0))
    throw InputError::usage("--inclination " + std::to_string(*o.inclination) + ": expected -90 to 90 degrees");
  if (o.susceptibility && o.magnetization)
    throw InputError::usage("give --susceptibility or --magnetization, not both");
  uniform.susceptibility = o.susceptibility;
  uniform.susceptibility_below = o.susceptibility_below;
  if (o.magnetization) {
    const auto m = geobem::cli::parse_number_list("magnetization", *o.magnetization, 3, "ME,MN,MU");
    uniform.magnetization = std::array<double, 3>{m[0], m[1], m[2]};
  }
  return uniform;
}

/// Warns (on stderr, quiet or not) about options the model makes useless and
/// susceptibilities that look like another unit.
void warn_about_inputs(const geobem::cli::StageOptions& command,
                       const geobem::magnetic_stage::MagnetizedPrisms& magnetized, const std::string& model_path,
                       bool layer, bool tfa) {
  const auto ignored = [&](const char* option, const std::string& why) { command.warn_ignored(option, why); };
  if (!magnetized.own_values.empty()) {
    const std::string why = model_path + " has its own " + magnetized.own_values;
    ignored("susceptibility", why);
    ignored("magnetization", why);
  }
  if (!layer) ignored("susceptibility-below", "it magnetizes the cells of a prism layer below its reference");
  if (!magnetized.induced) {
    ignored("field-intensity", "no prism is magnetized by induction");
    if (!tfa) {
      ignored("inclination", "no prism is magnetized by induction and tfa is not among --fields");
      ignored("declination", "no prism is magnetized by induction and tfa is not among --fields");
    }
  }
  if (magnetized.largest_susceptibility > geobem::magnetic_stage::largest_plausible_susceptibility)
    std::fprintf(stderr,
                 "geobem-magnetic: warning: susceptibilities up to %g SI: above %g SI, rare in rock (massive "
                 "magnetite), and where induced magnetization without self-demagnetization is wrong; given in "
                 "1e-3 SI or 1e-6 SI?\n",
                 magnetized.largest_susceptibility, geobem::magnetic_stage::largest_plausible_susceptibility);
}

/// The command line of geobem-magnetic, bound to `o`.
void declare_options(geobem::cli::StageOptions& command, MagneticOptions& o) {
  geobem::survey::add_potential_field_options(command, &o, "all, or a comma-separated list of b_e,b_n,b_u,tfa");
  command.add()
    ("field-intensity", geobem::cli::optional_value(&o.field_intensity),
     "inducing (main) field intensity at the site (nT, e.g. from the IGRF): required for induced magnetization "
     "(susceptibilities)")
    ("inclination", geobem::cli::optional_value(&o.inclination),
     "main field inclination (degrees, positive downward): required for induced magnetization and the TFA")
    ("declination", geobem::cli::optional_value(&o.declination),
     "main field declination (degrees, east of north): required for induced magnetization and the TFA")
    ("susceptibility", geobem::cli::optional_value(&o.susceptibility),
     "SI susceptibility of prisms without their own (CSV without magnetization or susceptibility columns) and of a "
     "layer's cells above its reference")
    ("susceptibility-below", geobem::cli::optional_value(&o.susceptibility_below),
     "SI susceptibility of a layer's cells below its reference (default 0)")
    ("magnetization", geobem::cli::optional_value(&o.magnetization),
     "ME,MN,MU (A/m): magnetization instead of --susceptibility for the same prisms");
  geobem::survey::add_kernel_options(command, &o.kernel);
  command.add_out_folder(&o.out,
                         "magnetic.csv, magnetic.vts (grid stations) or magnetic.vtu, magnetic.prj (the CRS, when "
                         "known), geobem-magnetic.ini");
}

/// --fields as fields; a usage error naming the option otherwise.
std::vector<magnetic::Field> option_fields(const std::string& text) {
  return geobem::with_origin(geobem::InputKind::usage, "--fields", [&] { return magnetic::parse_fields(text); });
}

/// The usage errors of the model: a layer needs a uniform magnetization, a
/// model file one of the formats read here, the TFA the main field's
/// direction.
void check_model_options(const MagneticOptions& o, const geobem::magnetic_stage::UniformMagnetization& uniform,
                         bool layer_model, bool tfa) {
  const std::string& model_path = o.model.prisms;
  if (layer_model && !uniform.susceptibility && !uniform.magnetization)
    throw InputError::usage("a prism layer is magnetized by --susceptibility (induced) or --magnetization: give one");
  if (!o.model.ubc_model && !layer_model && !has_extension(model_path, {".csv", ".vtr", ".vti", ".vtu"}))
    throw InputError::usage("--prisms " + model_path + ": geobem-magnetic reads a prism CSV, a UBC-GIF mesh with "
                            "--ubc-model (susceptibilities), a VTK voxel model (.vtr, .vti, .vtu with cell array "
                            "'susceptibility') or a prism layer .vts");
  if (tfa && !(o.inclination && o.declination))
    throw InputError::usage("the total-field anomaly (tfa) is along the main field at the site: give --inclination and "
                            "--declination (degrees; e.g. from the IGRF), or leave tfa out of --fields");
}

/// The model with its magnetization: a prism layer magnetized uniformly, or
/// prisms (UBC-GIF, VTK voxels or CSV) with their own or the uniform one.
struct MagnetizedModel {
  geobem::survey::Model model;
  geobem::magnetic_stage::MagnetizedPrisms magnetized;
  std::optional<magnetic::MagneticLayer> layer;
};

/// read_model reads a layer (and refuses --ubc-model with one); the prism
/// models are read here with their magnetization instead of a density.
MagnetizedModel read_magnetized_model(const MagneticOptions& o, bool layer_model,
                                      const geobem::magnetic_stage::UniformMagnetization& uniform) {
  const std::string& model_path = o.model.prisms;
  MagnetizedModel m;
  if (layer_model)
    m.model = geobem::survey::read_model(o.model);
  else
    m.model.path = model_path;
  if (m.model.layer) {
    m.layer = geobem::magnetic_stage::magnetized_layer(*m.model.layer, uniform);
    m.magnetized.induced = uniform.susceptibility || uniform.susceptibility_below;
    m.magnetized.largest_susceptibility =
        std::max(std::abs(uniform.susceptibility.value_or(0.0)), std::abs(uniform.susceptibility_below.value_or(0.0)));
  } else if (o.model.ubc_model) {
    m.magnetized = geobem::magnetic_stage::induced_prisms(model_path, *o.model.ubc_model, uniform);
  } else if (has_extension(model_path, {".vtr", ".vti", ".vtu"})) {
    m.magnetized = geobem::magnetic_stage::induced_vtk_prisms(model_path, uniform);
  } else {
    m.magnetized = geobem::magnetic_stage::read_magnetized_csv(model_path, uniform);
  }
  return m;
}

/// This rank's share of the fields of the model at the survey's stations,
/// announced on stderr unless quiet.
magnetic::Result rank_fields(const MagnetizedModel& m, const std::string& model_path,
                             const geobem::survey::Survey& survey, const std::vector<magnetic::Field>& fields,
                             const magnetic::Options& forward, bool quiet, int ranks) {
  if (m.layer) {
    if (!quiet)
      std::fprintf(stderr, "geobem-magnetic: prism layer %s, %lld x %lld cells (%s), %zu stations, %s, %d rank(s)\n",
                   model_path.c_str(), static_cast<long long>(m.layer->layer.geometry.shape_e),
                   static_cast<long long>(m.layer->layer.geometry.shape_n),
                   m.model.layer->crs.empty() ? "CRS unknown" : m.model.layer->crs.c_str(), survey.stations.size(),
                   geobem::to_string(forward.forward.device).c_str(), ranks);
    return magnetic::forward_magnetic_layer(*m.layer, survey.stations, fields, forward);
  }
  if (!quiet)
    std::fprintf(stderr, "geobem-magnetic: %zu magnetized prisms from %s, %zu stations, %s, %d rank(s)\n",
                 m.magnetized.prisms.size(), model_path.c_str(), survey.stations.size(),
                 geobem::to_string(forward.forward.device).c_str(), ranks);
  return magnetic::forward_magnetic(m.magnetized.prisms, survey.stations, fields, forward);
}

int run(const MagneticOptions& o, const geobem::cli::StageOptions& command, const geobem::cli::MpiSession& mpi) {
  const bool quiet = command.quiet() || mpi.rank() != 0;

  // Check every option and read every input before computing or writing.
  magnetic::Options forward;
  forward.forward.quiet = quiet;
  const std::vector<magnetic::Field> fields = option_fields(o.fields);
  geobem::survey::apply_kernel_options(o.kernel, forward.forward);
  const geobem::magnetic_stage::UniformMagnetization uniform = uniform_of(o);
  forward.tfa_inclination_deg = o.inclination.value_or(0.0);
  forward.tfa_declination_deg = o.declination.value_or(0.0);
  const std::string& model_path = o.model.prisms;
  const bool layer_model = has_extension(model_path, {".vts"});
  const bool tfa = std::find(fields.begin(), fields.end(), magnetic::Field::tfa) != fields.end();
  check_model_options(o, uniform, layer_model, tfa);
  geobem::survey::check_station_options(o.stations);
  forward.forward.device = geobem::resolve_device(geobem::parse_device_choice(o.device));
  // Rank 0 alone writes: it alone takes the output folder, before the work.
  std::unique_ptr<geobem::OutputSet> outputs;
  if (mpi.rank() == 0) outputs = std::make_unique<geobem::OutputSet>(o.out, "geobem-magnetic");

  const MagnetizedModel magnetized = read_magnetized_model(o, layer_model, uniform);
  if (mpi.rank() == 0)
    warn_about_inputs(command, magnetized.magnetized, model_path, magnetized.layer.has_value(), tfa);
  const geobem::survey::Survey survey =
      geobem::survey::read_survey(o.stations, magnetized.model, "geobem-magnetic", quiet);
  forward.forward = geobem::gravity::rank_options(forward.forward, mpi.rank(), mpi.size());

  magnetic::Result result = rank_fields(magnetized, model_path, survey, fields, forward, quiet, mpi.size());
  if (mpi.active()) magnetic::reduce_to_root(result, MPI_COMM_WORLD);
  if (!outputs) return 0;

  std::vector<geobem::prisms::GravityColumn> columns;
  for (std::size_t f = 0; f < result.fields.size(); ++f)
    columns.push_back({magnetic::field_name(result.fields[f]), "nT", std::move(result.values[f])});
  geobem::survey::commit_station_outputs(*outputs, "magnetic", survey, columns, command, forward.forward.device,
                                         quiet);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_mpi_stage("geobem-magnetic", kSummary, declare_options, argc, argv, run);
}
