#include "stages/survey/survey.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/input_error.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "mesh/terrain/dem_raster.hpp"
#include "mesh/terrain/draped_stations.hpp"
#include "stages/cli/number_list.hpp"

namespace geobem::survey {
namespace {

prisms::StationGrid station_grid(const StationOptions& o) {
  std::string missing;
  const std::pair<const char*, bool> parts[] = {{"--grid-west", o.grid_west.has_value()},
                                                {"--grid-east", o.grid_east.has_value()},
                                                {"--grid-south", o.grid_south.has_value()},
                                                {"--grid-north", o.grid_north.has_value()},
                                                {"--grid-shape", o.grid_shape.has_value()}};
  for (const auto& [name, given] : parts)
    if (!given) missing += std::string(missing.empty() ? "" : ", ") + name;
  if (!missing.empty())
    throw InputError::usage("stations: give --stations FILE.csv, --stations-on-dem FILE or a grid (missing " + missing +
                            ")");
  const auto shape = cli::parse_count_list("grid-shape", *o.grid_shape, 2, "NE,NN", 1e8);
  const prisms::StationGrid grid{*o.grid_west, *o.grid_east, *o.grid_south, *o.grid_north,
                                 shape[0],     shape[1],     o.grid_upward};
  with_origin(InputKind::usage, "", [&] { prisms::check_station_grid(grid); });
  return grid;
}

bool grid_given(const StationOptions& o) {
  return o.grid_west || o.grid_east || o.grid_south || o.grid_north || o.grid_shape;
}

terrain::DrapeOptions drape_options(const StationOptions& o) {
  if (!o.clearance) throw InputError::usage("--stations-on-dem needs --clearance H (m above the DEM)");
  terrain::DrapeOptions drape;
  drape.clearance = *o.clearance;
  if (o.station_step.has_value() == o.station_spacing.has_value() || (o.station_step && *o.station_step < 1) ||
      (o.station_spacing && !(*o.station_spacing > 0)))
    throw InputError::usage("--stations-on-dem needs either --station-step K (K >= 1) or --station-spacing S (m, > 0)");
  if (o.station_step) drape.step = *o.station_step;
  if (o.station_spacing) drape.spacing = *o.station_spacing;
  return drape;
}

terrain::NoData no_data(const StationOptions& o) {
  return with_origin(InputKind::usage, "--nodata", [&] { return terrain::parse_no_data(o.nodata); });
}

Survey draped(const StationOptions& o, const Model& model, const std::string& stage, bool quiet) {
  const std::string& path = *o.stations_on_dem;
  const terrain::DrapeOptions drape = drape_options(o);
  Survey survey;
  terrain::Dem dem;
  gravity::PrismLayer surface_layer;
  if (std::filesystem::path(path).extension() == ".vts") {
    if (o.crs)
      std::fprintf(stderr, "%s: warning: --crs is ignored: stations on a prism layer .vts are in its CRS\n",
                   stage.c_str());
    if (o.nodata != "refuse")
      std::fprintf(stderr, "%s: warning: --nodata is ignored: a prism layer .vts has a height at every node\n",
                   stage.c_str());
    terrain::LayerModel layer = terrain::read_layer_vts(path);
    dem = terrain::dem_of_layer(layer.layer);
    surface_layer = std::move(layer.layer);
    survey.crs_wkt = layer.crs_wkt;
  } else {
    terrain::DemOptions options;
    options.no_data = no_data(o);
    if (model.layer && !model.layer->crs_wkt.empty()) {
      if (o.crs) throw InputError::usage("--crs: the stations take the CRS of the layer model " + model.path);
      options.crs = model.layer->crs_wkt;
    } else if (o.crs) {
      options.crs = *o.crs;
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
  const terrain::DrapedStations stations =
      with_origin(InputKind::data, path, [&] { return terrain::drape_stations(dem, surface_layer, drape); });
  if (stations.below > 0)
    std::fprintf(stderr, "%s: warning: %zu of %zu draped station(s) lie below the topography (inside a prism)\n",
                 stage.c_str(), stations.below, stations.stations.size());
  if (stations.skipped > 0 && !quiet)
    std::fprintf(stderr, "%s: %zu station position(s) without a DEM height (no-data) left out\n", stage.c_str(),
                 stations.skipped);
  // A grid with a station at every position is written as a structured
  // grid (.vts), a surface ParaView can contour; one with gaps as points.
  if (stations.skipped == 0) survey.grid = prisms::StationGridShape{stations.shape_e, stations.shape_n};
  survey.stations = std::move(stations.stations);
  return survey;
}

}  // namespace

void add_model_options(cli::StageOptions& command, ModelOptions* o) {
  command.add()
    ("prisms", po::value(&o->prisms)->required(),
     "model: .csv (prism CSV), .vtr/.vti/.vtu (cell arrays), a UBC-GIF mesh file with --ubc-model, or a prism layer "
     ".vts (geobem-model --dem)")
    ("ubc-model", cli::optional_value(&o->ubc_model), "UBC-GIF model file of the --prisms mesh file");
  command.mark_path("prisms");
  command.mark_path("ubc-model");
}

void add_station_options(cli::StageOptions& command, StationOptions* o) {
  using cli::optional_value;
  command.add()
    ("stations", optional_value(&o->stations), "station CSV (easting,northing,upward in m)")
    ("grid-west", optional_value(&o->grid_west), "station grid: west edge (m)")
    ("grid-east", optional_value(&o->grid_east), "station grid: east edge (m)")
    ("grid-south", optional_value(&o->grid_south), "station grid: south edge (m)")
    ("grid-north", optional_value(&o->grid_north), "station grid: north edge (m)")
    ("grid-shape", optional_value(&o->grid_shape), "station grid: NE,NN stations (east-west, south-north)")
    ("grid-upward", po::value(&o->grid_upward)->default_value(o->grid_upward), "station grid: elevation (m, upward)")
    ("stations-on-dem", optional_value(&o->stations_on_dem),
     "stations draped over a DEM: a prism layer .vts or a DEM raster (projected as geobem-model --dem does)")
    ("clearance", optional_value(&o->clearance),
     "draped stations: height above the DEM (m); 0 puts them on the terrain, where the fields are the limits "
     "from above it")
    ("station-step", optional_value(&o->station_step), "draped stations: every K-th DEM node along each axis")
    ("station-spacing", optional_value(&o->station_spacing), "draped stations: a grid of this spacing (m), heights bilinear")
    ("crs", optional_value(&o->crs),
     "draped stations on a DEM raster: projected CRS, EPSG:NNNN or WKT text (default as geobem-model)")
    ("nodata", po::value(&o->nodata)->default_value(o->nodata),
     "draped stations on a DEM raster: refuse or skip no-data heights");
  command.mark_path("stations");
  command.mark_path("stations-on-dem");
}

Model read_model(const ModelOptions& o) {
  Model model;
  model.path = o.prisms;
  if (std::filesystem::path(model.path).extension() == ".vts") {
    if (o.ubc_model) throw InputError::usage("--ubc-model goes with a UBC-GIF mesh file, not a prism layer");
    model.layer = terrain::read_layer_vts(model.path);
  } else {
    model.prisms = prisms::read_prism_model(model.path, o.ubc_model.value_or(""));
  }
  return model;
}

void check_station_options(const StationOptions& o) {
  const int sources = (o.stations ? 1 : 0) + (o.stations_on_dem ? 1 : 0) + (grid_given(o) ? 1 : 0);
  if (sources > 1) throw InputError::usage("give one of --stations, --stations-on-dem and the --grid-* options");
  const std::pair<const char*, bool> draping[] = {{"clearance", o.clearance.has_value()},
                                                  {"station-step", o.station_step.has_value()},
                                                  {"station-spacing", o.station_spacing.has_value()},
                                                  {"crs", o.crs.has_value()}};
  for (const auto& [name, given] : draping)
    if (given && !o.stations_on_dem) throw InputError::usage(std::string("--") + name + " goes with --stations-on-dem");
  if (o.stations_on_dem) {
    drape_options(o);
    no_data(o);
  } else if (!o.stations) {
    station_grid(o);
  }
}

Survey read_survey(const StationOptions& o, const Model& model, const std::string& stage, bool quiet) {
  check_station_options(o);
  if (o.stations_on_dem) return draped(o, model, stage, quiet);
  Survey survey;
  if (model.layer) survey.crs_wkt = model.layer->crs_wkt;  // station coordinates are the model's
  if (o.stations) {
    survey.stations = prisms::read_station_csv(*o.stations);
  } else {
    const prisms::StationGrid grid = station_grid(o);
    survey.grid = prisms::StationGridShape{grid.shape_e, grid.shape_n};
    survey.stations = prisms::grid_stations(grid);
  }
  return survey;
}

void add_kernel_options(cli::StageOptions& command, KernelOptions* options) {
  command.add()
    ("precision", po::value(&options->precision)->default_value(options->precision),
     "double or single (kernel arithmetic). Every value carries an estimated rounding error (a bound); a warning "
     "counts the stations whose estimate misses 1e-6 (double) or 1e-3 (single), and single precision is refused "
     "where it misses 1e-3 at every station (docs/readers.md#accuracy-of-the-fields)")
    ("force", po::bool_switch(&options->force),
     "write single-precision fields even where no station's estimated rounding error is within 1e-3")
    ("device-memory-limit", po::value(&options->device_memory_limit)->default_value(options->device_memory_limit),
     "CUDA: device memory to use at most, MiB (0: 80% of the free memory); larger problems go in chunks");
}

void add_potential_field_options(cli::StageOptions& command, PotentialFieldOptions* options,
                                 const std::string& fields_help) {
  command.add_device(&options->device);
  add_model_options(command, &options->model);
  add_station_options(command, &options->stations);
  command.add()("fields", po::value(&options->fields)->default_value(options->fields), fields_help.c_str());
}

void apply_kernel_options(const KernelOptions& options, gravity::ForwardOptions& forward) {
  forward.precision = gravity::parse_precision(options.precision);
  forward.force = options.force;
  if (!(options.device_memory_limit >= 0.0) || options.device_memory_limit > 1e9)
    throw InputError::usage("--device-memory-limit " + std::to_string(options.device_memory_limit) +
                            ": expected MiB between 0 and 1e9");
  forward.device_memory_limit_bytes = static_cast<std::size_t>(options.device_memory_limit * 1024.0 * 1024.0);
}

void commit_station_outputs(OutputSet& outputs, const std::string& name, const Survey& survey,
                            const std::vector<prisms::GravityColumn>& columns, const cli::StageOptions& command,
                            ComputeDevice device, bool quiet) {
  const std::filesystem::path& directory = outputs.staging_folder();
  std::vector<std::filesystem::path> written{directory / (name + ".csv")};
  prisms::write_gravity_csv(written[0], survey.stations, columns);
  if (survey.grid) {
    written.push_back(directory / (name + ".vts"));
    prisms::write_gravity_vts(written.back(), survey.stations, *survey.grid, columns);
  } else {
    written.push_back(directory / (name + ".vtu"));
    prisms::write_gravity_vtu(written.back(), survey.stations, columns);
  }
  if (!survey.crs_wkt.empty()) {
    written.push_back(directory / (name + ".prj"));
    write_text_file_atomically(written.back(), [&](std::ostream& out) { out << survey.crs_wkt << '\n'; });
  }
  outputs.write_record(command.record(outputs.destination()) + "# computed on " + to_string(device) + "\n");
  outputs.commit();
  if (!quiet)
    for (const auto& file : written)
      std::fprintf(stderr, "%s: wrote %s\n", command.program().c_str(),
                   (outputs.destination() / file.filename()).c_str());
}

}  // namespace geobem::survey
