#pragma once
// What geobem-gravity and geobem-magnetic share: the model file (a prism list,
// a voxel grid or a prism layer), the stations (a grid at one height, a CSV,
// or draped over a DEM) with their options, the kernel options, and the
// station outputs with the CRS they are in. The options bind to the structs below through
// cli::StageOptions (docs/stage_contract.md).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "gpu/core/device.hpp"
#include "gpu/gravity/gravity.hpp"
#include "mesh/io/output_set.hpp"
#include "mesh/prisms/gravity_output.hpp"
#include "mesh/prisms/prism_model.hpp"
#include "mesh/prisms/stations.hpp"
#include "mesh/terrain/layer_file.hpp"
#include "stages/cli/stage_options.hpp"

namespace geobem::survey {

namespace po = boost::program_options;

/// --prisms FILE and --ubc-model FILE.
struct ModelOptions {
  std::string prisms;
  std::optional<std::string> ubc_model;
};
/// Binds --prisms (required) and --ubc-model to `options`.
void add_model_options(cli::StageOptions& command, ModelOptions* options);

/// The station options: exactly one of --stations, the --grid-* set and
/// --stations-on-dem (with --clearance, one of --station-step and
/// --station-spacing, and for a DEM raster --crs and --nodata).
struct StationOptions {
  std::optional<std::string> stations;
  std::optional<double> grid_west, grid_east, grid_south, grid_north;
  std::optional<std::string> grid_shape;
  double grid_upward = 0.0;
  std::optional<std::string> stations_on_dem;
  std::optional<double> clearance;
  std::optional<long long> station_step;
  std::optional<double> station_spacing;
  std::optional<std::string> crs;
  std::string nodata = "refuse";
};
/// Binds the station options to `options`.
void add_station_options(cli::StageOptions& command, StationOptions* options);

/// The model named by --prisms: a prism layer (.vts written by geobem-model
/// --dem) or a prism model (read_prism_model: CSV, VTK grid, UBC-GIF).
struct Model {
  std::optional<terrain::LayerModel> layer;
  prisms::PrismModel prisms;  ///< empty when `layer` is set
  std::string path;
};
/// Reads and checks the model. Throws InputError::usage for --ubc-model with
/// a layer, std::runtime_error naming the file and line for bad data.
Model read_model(const ModelOptions& options);

/// The stations, the grid they form (--grid-* stations, and draped stations
/// with a height at every position) and the CRS of their coordinates (empty
/// if unknown).
struct Survey {
  std::vector<prisms::Station> stations;
  std::optional<prisms::StationGridShape> grid;  ///< set when the stations form a grid, in its order
  std::string crs_wkt;                           ///< CRS of station coordinates, empty if unknown
};
/// Stations from the options. A DEM raster for draping is projected to the
/// layer's CRS when the model is a layer (else to --crs or the default rule
/// of terrain::read_dem); a layer .vts is used as it is. Warns on stderr
/// (even when quiet) about stations below the topography; reports positions
/// without a height unless quiet. Throws InputError::usage for conflicting
/// or missing options, std::runtime_error naming the file for bad data.
Survey read_survey(const StationOptions& options, const Model& model, const std::string& stage, bool quiet);

/// Checks the station options alone (which source, the grid's values) before
/// any file is read; read_survey checks the same again. Throws
/// InputError::usage.
void check_station_options(const StationOptions& options);

/// --precision double|single (the kernels' arithmetic), --force (single
/// precision where no station meets gravity::single_precision_floor) and
/// --device-memory-limit MiB (0: the default budget), as both stages take them.
struct KernelOptions {
  std::string precision = "double";
  bool force = false;
  double device_memory_limit = 0.0;
};
/// Binds the kernel options to `options`.
void add_kernel_options(cli::StageOptions& command, KernelOptions* options);
/// Checks the kernel options and sets them in `forward`. Throws
/// InputError::usage naming the option and the value.
void apply_kernel_options(const KernelOptions& options, gravity::ForwardOptions& forward);

/// The options every potential-field stage (geobem-gravity, geobem-magnetic)
/// takes besides its own; a stage's options struct derives from it.
struct PotentialFieldOptions {
  std::string device = "auto";
  ModelOptions model;
  StationOptions stations;
  std::string fields = "all";
  KernelOptions kernel;
  std::string out;
};
/// Declares how a potential-field stage's command line opens: --device, the
/// model's and the stations' options, and --fields (`fields_help`: the field
/// names the stage computes). The stage's own options follow, then
/// add_kernel_options and --out.
void add_potential_field_options(cli::StageOptions& command, PotentialFieldOptions* options,
                                 const std::string& fields_help);

/// Writes NAME.csv and NAME.vts (stations that form a grid) or NAME.vtu, and NAME.prj
/// (the CRS as WKT, the GIS sidecar convention) when the CRS is known, into
/// the staging folder of `outputs`; writes the run's options record
/// (command.record(), paths relative to the set, then "# computed on DEVICE") and commits the set.
/// Unless quiet, names every file written on stderr.
void commit_station_outputs(OutputSet& outputs, const std::string& name, const Survey& survey,
                            const std::vector<prisms::GravityColumn>& columns, const cli::StageOptions& command,
                            ComputeDevice device, bool quiet);

}  // namespace geobem::survey
