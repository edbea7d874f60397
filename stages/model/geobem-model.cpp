// geobem-model: generate or convert a prism model, write it for ParaView
// (model.vtu, hexahedra with cell `density`) and for the gravity stage
// (prisms.csv; a grid model also as model.vtr, every cell, for the gravity
// stage's grid path). Zero-density prisms are left out of the first two.
// A DEM (--dem, through GDAL) becomes a prism layer, written as layer.vts
// alone: the gravity stages evaluate it from its surface grid.
// Parse -> read or generate and check -> write the output set
// (docs/stage_contract.md): the set in OUT is replaced whole, so the files of
// an earlier model that this one does not write (a model.vtr of a grid model,
// the prism files beside a layer) are gone with it.
#include <cmath>
#include <cstdio>
#include <utility>
#include <optional>
#include <string>
#include <vector>

#include "gpu/core/input_error.hpp"
#include "gpu/core/progress.hpp"
#include "mesh/io/output_set.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/prism_csv.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "mesh/prisms/vtk_model.hpp"
#include "mesh/terrain/dem_raster.hpp"
#include "mesh/terrain/layer_file.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
using geobem::InputError;
using geobem::InputKind;
using geobem::cli::optional_value;
using namespace geobem::prisms;

namespace {

/// What geobem-model does, the head of its --help.
const char* const kSummary =
    "Generate or convert a prism model; writes OUT/model.vtu and OUT/prisms.csv, and OUT/model.vtr when the model is a "
    "grid; or turn a DEM into a prism layer, OUT/layer.vts.";

struct ModelOptions {
  std::optional<std::string> generate, input, ubc_model, dem, crs;
  std::string cells = "700,700,50";
  std::vector<std::string> blocks;
  std::string nodata = "refuse";
  double reference = 0.0, density_above = 2670.0, density_below = -1630.0;
  std::string out;
};

GridSpec parse_cells(const std::string& text) {
  const auto cells = geobem::cli::parse_count_list("cells", text, 3, "NE,NN,NZ", 1e5);
  for (std::size_t count : cells)
    if (count == 0) throw InputError::usage("--cells '" + text + "': cell counts must be positive integers");
  return couder_grid(cells[0], cells[1], cells[2]);
}

std::vector<Prism> parse_blocks(const std::vector<std::string>& texts) {
  std::vector<Prism> boxes;
  for (const auto& text : texts) {
    const auto v = geobem::cli::parse_number_list("block", text, 7, "WEST,EAST,SOUTH,NORTH,BOTTOM,TOP,DENSITY");
    boxes.push_back(Prism{v[0], v[1], v[2], v[3], v[4], v[5], v[6]});
  }
  return boxes;
}

/// The options that contradict each other or name nothing, before any file
/// is touched.
void check_options(const ModelOptions& o) {
  if (o.generate.has_value() + o.input.has_value() + o.dem.has_value() != 1)
    throw InputError::usage("give exactly one of --generate, --input and --dem");
  if (o.crs && !o.dem) throw InputError::usage("--crs goes with --dem");
  if (o.ubc_model && !o.input) throw InputError::usage("--ubc-model goes with --input MESH_FILE");
  if (o.generate && *o.generate != "spheres" && *o.generate != "blocks")
    throw InputError::usage("--generate '" + *o.generate + "': expected spheres or blocks");
  if (!o.blocks.empty() && o.generate != "blocks") throw InputError::usage("--block goes with --generate blocks");
  if (o.generate == "blocks" && o.blocks.empty())
    throw InputError::usage("--generate blocks needs at least one --block");
}

/// The DEM (projected if geographic) as a prism layer.
geobem::terrain::LayerModel dem_layer(const ModelOptions& o, bool quiet) {
  geobem::terrain::DemOptions dem_options;
  if (o.crs) dem_options.crs = *o.crs;
  dem_options.no_data = geobem::with_origin(InputKind::usage, "--nodata",
                                            [&] { return geobem::terrain::parse_no_data(o.nodata); });
  const std::string& path = *o.dem;
  const geobem::terrain::Dem dem = geobem::terrain::read_dem(path, dem_options);
  geobem::terrain::LayerModel model;
  model.crs = dem.crs;
  model.crs_wkt = dem.crs_wkt;
  model.layer.geometry = {dem.shape_e,   dem.shape_n, dem.west_centre,   dem.south_centre, dem.spacing_e,
                          dem.spacing_n, o.reference, o.density_above, o.density_below};
  model.layer.surface = dem.heights;
  // The layer's reference and densities are options.
  geobem::with_origin(InputKind::usage, "", [&] { geobem::gravity::check_prism_layer(model.layer); });
  const std::pair<double, const char*> layer_densities[] = {
      {o.density_above, "the layer above its reference (--density-above)"},
      {o.density_below, "the layer below its reference (--density-below)"}};
  for (const auto& [density, what] : layer_densities) {
    const std::string warning = density_unit_warning(std::abs(density), what);
    if (!warning.empty()) std::fprintf(stderr, "geobem-model: warning: %s\n", warning.c_str());
  }
  if (!quiet) {
    std::fprintf(stderr, "geobem-model: %s: %lld x %lld cells of %.4g m x %.4g m in %s%s; %zu with mass\n",
                 path.c_str(), static_cast<long long>(dem.shape_e), static_cast<long long>(dem.shape_n), dem.spacing_e,
                 dem.spacing_n, dem.crs.c_str(), dem.projected_here ? " (projected here, bilinear)" : "",
                 geobem::gravity::massive_cell_count(model.layer));
    if (dem.no_data_cells > 0)
      std::fprintf(stderr, "geobem-model: %zu no-data cell(s) of the DEM skipped\n", dem.no_data_cells);
    if (dem.outside_cells > 0)
      std::fprintf(stderr, "geobem-model: %zu cell(s) of the projected grid have no height (outside the DEM or next "
                           "to skipped cells) and are left out\n", dem.outside_cells);
  }
  return model;
}

/// The generated or converted prism model, zero-density prisms left out.
PrismModel prism_model(const ModelOptions& o, bool quiet) {
  PrismModel model;
  if (o.input)
    model = read_prism_model(*o.input, o.ubc_model.value_or(""));
  else if (*o.generate == "spheres")
    model = model_from_grid(sphere_grid(parse_cells(o.cells), couder_spheres()), "seven spheres");
  else
    model = block_model(parse_blocks(o.blocks));
  drop_zero_density(model);
  const std::string warning = density_unit_warning(largest_density_magnitude(model.prisms), model.source);
  if (!warning.empty()) std::fprintf(stderr, "geobem-model: warning: %s\n", warning.c_str());
  if (model.no_data_cells > 0)
    std::fprintf(stderr, "geobem-model: %s: %zu cells hold the UBC no-data value -99999 and are left out\n",
                 model.source.c_str(), model.no_data_cells);
  if (!quiet)
    std::fprintf(stderr, "geobem-model: %s: %zu prisms (%zu of zero density left out), volume %.6g m^3\n",
                 model.source.c_str(), model.prisms.size(), model.zero_density_dropped, total_volume(model.prisms));
  return model;
}

/// The command line of geobem-model, bound to `o`.
void declare_options(geobem::cli::StageOptions& command, ModelOptions& o) {
  command.add()
    ("generate", optional_value(&o.generate),
     "generate a model: spheres (the seven spheres of the Couder-Castaneda et al. 2013 grid) or blocks (the --block "
     "boxes)")
    ("input", optional_value(&o.input),
     "convert a model file: .csv (prism CSV), .vtr/.vti/.vtu (cell 'density'), or a UBC-GIF mesh file with --ubc-model")
    ("ubc-model", optional_value(&o.ubc_model), "UBC-GIF model file (densities, kg/m^3) of the --input mesh file")
    ("cells", po::value(&o.cells)->default_value(o.cells),
     "spheres: cells NE,NN,NZ over 22 km x 22 km x 8 km (the paper: 700,700,50)")
    ("block", po::value(&o.blocks)->composing(),
     "blocks: one box WEST,EAST,SOUTH,NORTH,BOTTOM,TOP,DENSITY (m, kg/m^3); repeat for several")
    ("dem", optional_value(&o.dem),
     "a DEM (a local GeoTIFF, ESRI ASCII grid, SRTM .hgt, USGS DEM or .bil/.hdr file; heights in m) "
     "to turn into a prism layer, written as OUT/layer.vts")
    ("crs", optional_value(&o.crs),
     "dem: projected CRS of the layer, EPSG:NNNN or WKT text (e.g. EPSG:32616); default: the DEM's own if projected, "
     "else the UTM zone of its centre")
    ("nodata", po::value(&o.nodata)->default_value(o.nodata),
     "dem: refuse or skip no-data/NaN heights (skip leaves those cells out, with a count)")
    ("reference", po::value(&o.reference)->default_value(o.reference), "dem: reference height of the layer's prisms (m)")
    ("density-above", po::value(&o.density_above)->default_value(o.density_above),
     "dem: density of prisms above the reference (kg/m^3)")
    ("density-below", po::value(&o.density_below)->default_value(o.density_below),
     "dem: density of prisms below the reference (kg/m^3; default sea water 1040 minus crust 2670)");
  command.add_out_folder(&o.out, "model.vtu, prisms.csv (and model.vtr), or layer.vts; and geobem-model.ini");
  for (const char* path : {"input", "ubc-model", "dem"}) command.mark_path(path);
}

int run(const ModelOptions& o, const geobem::cli::StageOptions& command) {
  const bool quiet = command.quiet();
  check_options(o);
  if (o.generate != "spheres") command.warn_ignored("cells", "it sizes the grid of --generate spheres");
  if (!o.dem)
    for (const char* option : {"reference", "density-above", "density-below", "nodata"})
      command.warn_ignored(option, "it goes with --dem");
  geobem::OutputSet outputs(o.out, "geobem-model");  // lock, checks, staging folder

  // Everything is read, generated and checked before anything is written.
  geobem::ProgressReporter timer("geobem-model", 1, o.dem ? "DEM" : "model", quiet);
  std::vector<std::string> written;
  if (o.dem) {
    const geobem::terrain::LayerModel layer = dem_layer(o, quiet);
    geobem::terrain::write_layer_vts(outputs.path("layer.vts"), layer);
    written = {"layer.vts"};
  } else {
    const PrismModel model = prism_model(o, quiet);
    write_prism_csv(outputs.path("prisms.csv"), model.prisms);
    write_prism_vtu(outputs.path("model.vtu"), model.prisms);
    written = {"prisms.csv", "model.vtu"};
    // A grid model also travels as its grid, which geobem-gravity evaluates on grid nodes.
    if (model.grid) {
      write_grid_vtr(outputs.path("model.vtr"), *model.grid);
      written.push_back("model.vtr");
    }
  }
  outputs.write_record(command.record(outputs.destination()));
  outputs.commit();
  timer.advance(1);
  if (!quiet)
    for (const auto& name : written)
      std::fprintf(stderr, "geobem-model: wrote %s\n", (outputs.destination() / name).c_str());
  timer.finish();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_stage("geobem-model", kSummary, declare_options, argc, argv, run);
}
