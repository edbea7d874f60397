#include "stages/survey/survey.hpp"

#include <cmath>
#include <cstdio>

#include "mesh/io/atomic_file.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "mesh/terrain/dem_raster.hpp"
#include "mesh/terrain/draped_stations.hpp"
#include "stages/cli/number_list.hpp"

namespace geobem::survey {
namespace {

const char* const grid_options[] = {"grid-west", "grid-east", "grid-south", "grid-north", "grid-shape"};

prisms::StationGrid station_grid(const po::variables_map& vm) {
  std::size_t given = 0;
  for (const char* name : grid_options) given += vm.count(name);
  if (given < std::size(grid_options)) {
    std::string missing;
    for (const char* name : grid_options)
      if (!vm.count(name)) missing += std::string(missing.empty() ? "" : ", ") + "--" + name;
    throw po::error("stations: give --stations FILE.csv, --stations-on-dem FILE or a grid (missing " + missing + ")");
  }
  const auto shape = cli::parse_count_list("grid-shape", vm["grid-shape"].as<std::string>(), 2, "NE,NN", 1e8);
  prisms::StationGrid grid{vm["grid-west"].as<double>(), vm["grid-east"].as<double>(), vm["grid-south"].as<double>(),
                           vm["grid-north"].as<double>(), shape[0], shape[1], vm["grid-upward"].as<double>()};
  try {
    prisms::check_station_grid(grid);
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  return grid;
}

Survey draped(const po::variables_map& vm, const Model& model, const std::string& stage, bool quiet) {
  const std::string path = vm["stations-on-dem"].as<std::string>();
  if (!vm.count("clearance")) throw po::error("--stations-on-dem needs --clearance H (m above the DEM)");
  terrain::DrapeOptions drape;
  drape.clearance = vm["clearance"].as<double>();
  if (vm.count("station-step")) drape.step = vm["station-step"].as<long long>();
  if (vm.count("station-spacing")) drape.spacing = vm["station-spacing"].as<double>();
  if (vm.count("station-step") == vm.count("station-spacing") || (vm.count("station-step") && drape.step < 1) ||
      (vm.count("station-spacing") && !(drape.spacing > 0)))
    throw po::error("--stations-on-dem needs either --station-step K (K >= 1) or --station-spacing S (m, > 0)");

  Survey survey;
  terrain::Dem dem;
  gravity::PrismLayer surface_layer;
  if (std::filesystem::path(path).extension() == ".vts") {
    terrain::LayerModel layer = terrain::read_layer_vts(path);
    dem = terrain::dem_of_layer(layer.layer);
    surface_layer = std::move(layer.layer);
    survey.crs_wkt = layer.crs_wkt;
  } else {
    terrain::DemOptions options;
    options.no_data = terrain::parse_no_data(vm["nodata"].as<std::string>());
    if (model.layer && !model.layer->crs_wkt.empty()) {
      if (vm.count("crs")) throw po::error("--crs: the stations take the CRS of the layer model " + model.path);
      options.crs = model.layer->crs_wkt;
    } else if (vm.count("crs")) {
      options.crs = vm["crs"].as<std::string>();
    }
    dem = terrain::read_dem(path, options);
    survey.crs_wkt = dem.crs_wkt;
    surface_layer.geometry = {dem.shape_e, dem.shape_n, dem.west_centre, dem.south_centre, dem.spacing_e,
                              dem.spacing_n, 0.0, 1.0, 1.0};
    surface_layer.surface = dem.heights;
  }
  // "Below the topography": under the top of the prism that holds the
  // station, the layer of the DEM itself with every cell full down to the
  // lowest height (so cells below a reference count too).
  double lowest = 0.0;
  for (double h : surface_layer.surface)
    if (!std::isnan(h)) lowest = std::min(lowest, h);
  surface_layer.geometry.reference = lowest - 1.0;
  surface_layer.geometry.density_above = 1.0;
  terrain::DrapedStations stations;
  try {
    stations = terrain::drape_stations(dem, surface_layer, drape);
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(path + ": " + error.what());
  }
  if (stations.below > 0)
    std::fprintf(stderr, "%s: warning: %zu of %zu draped station(s) lie below the topography (inside a prism)\n",
                 stage.c_str(), stations.below, stations.stations.size());
  if (stations.skipped > 0 && !quiet)
    std::fprintf(stderr, "%s: %zu station position(s) without a DEM height (no-data) left out\n", stage.c_str(),
                 stations.skipped);
  survey.stations = std::move(stations.stations);
  return survey;
}

}  // namespace

void add_model_and_station_options(po::options_description& options) {
  options.add_options()
    ("prisms", po::value<std::string>()->required(),
     "model: .csv (prism CSV), .vtr/.vti/.vtu (cell arrays), a UBC-GIF mesh file with --ubc-model, or a prism layer "
     ".vts (geobem-model --dem)")
    ("ubc-model", po::value<std::string>(), "UBC-GIF model file of the --prisms mesh file")
    ("stations", po::value<std::string>(), "station CSV (easting,northing,upward in m)")
    ("grid-west", po::value<double>(), "station grid: west edge (m)")
    ("grid-east", po::value<double>(), "station grid: east edge (m)")
    ("grid-south", po::value<double>(), "station grid: south edge (m)")
    ("grid-north", po::value<double>(), "station grid: north edge (m)")
    ("grid-shape", po::value<std::string>(), "station grid: NE,NN stations (east-west, south-north)")
    ("grid-upward", po::value<double>()->default_value(0.0), "station grid: elevation (m, upward)")
    ("stations-on-dem", po::value<std::string>(),
     "stations draped over a DEM: a prism layer .vts or a DEM raster (projected as geobem-model --dem does)")
    ("clearance", po::value<double>(), "draped stations: height above the DEM (m)")
    ("station-step", po::value<long long>(), "draped stations: every K-th DEM node along each axis")
    ("station-spacing", po::value<double>(), "draped stations: a grid of this spacing (m), heights bilinear")
    ("crs", po::value<std::string>(), "draped stations on a DEM raster: projected CRS (default as geobem-model)")
    ("nodata", po::value<std::string>()->default_value("refuse"),
     "draped stations on a DEM raster: refuse or skip no-data heights");
}

Model read_model(const po::variables_map& vm) {
  Model model;
  model.path = vm["prisms"].as<std::string>();
  if (std::filesystem::path(model.path).extension() == ".vts") {
    if (vm.count("ubc-model")) throw po::error("--ubc-model goes with a UBC-GIF mesh file, not a prism layer");
    model.layer = terrain::read_layer_vts(model.path);
  } else {
    model.prisms = prisms::read_prism_model(model.path, vm.count("ubc-model") ? vm["ubc-model"].as<std::string>() : "");
  }
  return model;
}

Survey read_survey(const po::variables_map& vm, const Model& model, const std::string& stage, bool quiet) {
  std::size_t grid_given = 0;
  for (const char* name : grid_options) grid_given += vm.count(name);
  const int sources = (vm.count("stations") ? 1 : 0) + (vm.count("stations-on-dem") ? 1 : 0) + (grid_given ? 1 : 0);
  if (sources > 1) throw po::error("give one of --stations, --stations-on-dem and the --grid-* options");
  for (const char* name : {"clearance", "station-step", "station-spacing", "crs"})
    if (vm.count(name) && !vm.count("stations-on-dem")) throw po::error(std::string("--") + name + " goes with --stations-on-dem");
  if (vm.count("stations-on-dem")) return draped(vm, model, stage, quiet);
  Survey survey;
  if (model.layer) survey.crs_wkt = model.layer->crs_wkt;  // station coordinates are the model's
  if (vm.count("stations")) {
    survey.stations = prisms::read_station_csv(vm["stations"].as<std::string>());
  } else {
    survey.grid = station_grid(vm);
    survey.stations = prisms::grid_stations(*survey.grid);
  }
  return survey;
}

std::vector<std::filesystem::path> write_station_outputs(const std::filesystem::path& directory,
                                                         const std::string& name, const Survey& survey,
                                                         const std::vector<prisms::GravityColumn>& columns) {
  std::filesystem::create_directories(directory);
  std::vector<std::filesystem::path> written{directory / (name + ".csv")};
  prisms::write_gravity_csv(written[0], survey.stations, columns);
  if (survey.grid) {
    written.push_back(directory / (name + ".vts"));
    prisms::write_gravity_vts(written.back(), *survey.grid, columns);
  } else {
    written.push_back(directory / (name + ".vtu"));
    prisms::write_gravity_vtu(written.back(), survey.stations, columns);
  }
  const auto prj = directory / (name + ".prj");
  if (survey.crs_wkt.empty()) {
    std::filesystem::remove(prj);
  } else {
    write_text_file_atomically(prj, [&](std::ostream& out) { out << survey.crs_wkt << '\n'; });
    written.push_back(prj);
  }
  return written;
}

}  // namespace geobem::survey
