#pragma once
// What geobem-gravity and geobem-magnetic share: the model file (a prism list,
// a voxel grid or a prism layer), the stations (a grid at one height, a CSV,
// or draped over a DEM) with their options, and the station outputs with the
// CRS they are in.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "mesh/prisms/gravity_output.hpp"
#include "mesh/prisms/prism_model.hpp"
#include "mesh/prisms/stations.hpp"
#include "mesh/terrain/layer_file.hpp"

namespace geobem::survey {

namespace po = boost::program_options;

/// Adds --prisms, --ubc-model, --stations, --grid-*, --stations-on-dem,
/// --clearance, --station-step, --station-spacing, --crs, --nodata.
void add_model_and_station_options(po::options_description& options);

/// The model named by --prisms: a prism layer (.vts written by geobem-model
/// --dem) or a prism model (read_prism_model: CSV, VTK grid, UBC-GIF).
struct Model {
  std::optional<terrain::LayerModel> layer;
  prisms::PrismModel prisms;  ///< empty when `layer` is set
  std::string path;
};
Model read_model(const po::variables_map& vm);

/// Stations from the options: exactly one of --stations, the --grid-* set and
/// --stations-on-dem. A DEM raster for draping is projected to the layer's
/// CRS when the model is a layer (else to --crs or the default rule of
/// terrain::read_dem); a layer .vts is used as it is. Warns on stderr (even
/// when quiet) about stations below the topography and positions without a
/// height. Throws po::error for conflicting or missing options.
struct Survey {
  std::vector<prisms::Station> stations;
  std::optional<prisms::StationGrid> grid;  ///< set for --grid-* stations
  std::string crs_wkt;                      ///< CRS of station coordinates, empty if unknown
};
Survey read_survey(const po::variables_map& vm, const Model& model, const std::string& stage, bool quiet);

/// Writes DIR/NAME.csv and DIR/NAME.vts (grid stations) or DIR/NAME.vtu, and
/// DIR/NAME.prj (the CRS as WKT, the GIS sidecar convention) when the CRS is
/// known (a stale NAME.prj is removed otherwise). Returns the paths written.
std::vector<std::filesystem::path> write_station_outputs(const std::filesystem::path& directory,
                                                         const std::string& name, const Survey& survey,
                                                         const std::vector<prisms::GravityColumn>& columns);

}  // namespace geobem::survey
