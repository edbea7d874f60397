// geobem-model: generate or convert a prism model, write it for ParaView
// (model.vtu, hexahedra with cell `density`) and for the gravity stage
// (prisms.csv; a grid model also as model.vtr, every cell, for the gravity
// stage's grid path). Zero-density prisms are left out of the first two.
// A DEM (--dem, through GDAL) becomes a prism layer, written as layer.vts
// alone: the gravity stages evaluate it from its surface grid.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/core/progress.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/prism_csv.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "mesh/prisms/vtk_model.hpp"
#include "mesh/terrain/dem_raster.hpp"
#include "mesh/terrain/layer_file.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace geobem::prisms;

namespace {

GridSpec parse_cells(const std::string& text) {
  const auto cells = geobem::cli::parse_count_list("cells", text, 3, "NE,NN,NZ", 1e5);
  for (std::size_t count : cells)
    if (count == 0) throw po::error("--cells '" + text + "': cell counts must be positive integers");
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

/// --dem: the DEM (projected if geographic) as a prism layer in OUT/layer.vts;
/// prism files of an earlier model in OUT would be stale and are removed.
int write_dem_layer(const po::variables_map& vm, bool quiet) {
  geobem::ProgressReporter timer("geobem-model", 1, "DEM", quiet);
  geobem::terrain::DemOptions dem_options;
  if (vm.count("crs")) dem_options.crs = vm["crs"].as<std::string>();
  try {
    dem_options.no_data = geobem::terrain::parse_no_data(vm["nodata"].as<std::string>());
  } catch (const std::invalid_argument& error) {
    throw po::error(std::string("--nodata: ") + error.what());
  }
  const std::string path = vm["dem"].as<std::string>();
  const geobem::terrain::Dem dem = geobem::terrain::read_dem(path, dem_options);
  geobem::terrain::LayerModel model;
  model.crs = dem.crs;
  model.crs_wkt = dem.crs_wkt;
  model.layer.geometry = {dem.shape_e,   dem.shape_n,   dem.west_centre,
                          dem.south_centre, dem.spacing_e, dem.spacing_n,
                          vm["reference"].as<double>(), vm["density-above"].as<double>(),
                          vm["density-below"].as<double>()};
  model.layer.surface = dem.heights;
  try {
    geobem::gravity::check_prism_layer(model.layer);
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
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
  const fs::path out = vm["out"].as<std::string>();
  fs::create_directories(out);
  geobem::terrain::write_layer_vts(out / "layer.vts", model);
  for (const char* stale : {"prisms.csv", "model.vtu", "model.vtr"}) fs::remove(out / stale);
  timer.advance(1);
  if (!quiet) std::fprintf(stderr, "geobem-model: wrote %s\n", (out / "layer.vts").c_str());
  timer.finish();
  return 0;
}

int run(int argc, char** argv) {
  po::options_description options("Options");
  geobem::cli::add_common_options(options);
  options.add_options()
    ("generate", po::value<std::string>(), "generate a model: spheres (the seven spheres of the Couder-Castaneda "
                                           "et al. 2013 grid) or blocks (the --block boxes)")
    ("input", po::value<std::string>(), "convert a model file: .csv (prism CSV), .vtr/.vti/.vtu (cell 'density'), "
                                        "or a UBC-GIF mesh file with --ubc-model")
    ("ubc-model", po::value<std::string>(), "UBC-GIF model file (densities, kg/m^3) of the --input mesh file")
    ("cells", po::value<std::string>()->default_value("700,700,50"),
     "spheres: cells NE,NN,NZ over 22 km x 22 km x 8 km (the paper: 700,700,50)")
    ("block", po::value<std::vector<std::string>>()->composing(),
     "blocks: one box WEST,EAST,SOUTH,NORTH,BOTTOM,TOP,DENSITY (m, kg/m^3); repeat for several")
    ("dem", po::value<std::string>(), "a DEM (any raster GDAL reads, heights in m) to turn into a prism layer, "
                                      "written as OUT/layer.vts")
    ("crs", po::value<std::string>(), "dem: projected CRS of the layer (e.g. EPSG:32616); default: the DEM's own if "
                                      "projected, else the UTM zone of its centre")
    ("nodata", po::value<std::string>()->default_value("refuse"),
     "dem: refuse or skip no-data/NaN heights (skip leaves those cells out, with a count)")
    ("reference", po::value<double>()->default_value(0.0), "dem: reference height of the layer's prisms (m)")
    ("density-above", po::value<double>()->default_value(2670.0),
     "dem: density of prisms above the reference (kg/m^3)")
    ("density-below", po::value<double>()->default_value(-1630.0),
     "dem: density of prisms below the reference (kg/m^3; default sea water 1040 minus crust 2670)")
    ("out", po::value<std::string>()->default_value("."), "output folder for model.vtu, prisms.csv (and model.vtr)");
  const auto parsed = geobem::cli::parse_stage_options(
      argc, argv, "geobem-model",
      "Generate or convert a prism model; writes OUT/model.vtu and OUT/prisms.csv, and OUT/model.vtr when the model is a "
      "grid; or turn a DEM into a prism layer, OUT/layer.vts.",
      options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const bool quiet = vm["quiet"].as<bool>();
  if (vm.count("generate") + vm.count("input") + vm.count("dem") != 1)
    throw po::error("give exactly one of --generate, --input and --dem");
  if (vm.count("crs") && !vm.count("dem")) throw po::error("--crs goes with --dem");
  if (vm.count("dem")) return write_dem_layer(vm, quiet);
  if (vm.count("ubc-model") && !vm.count("input")) throw po::error("--ubc-model goes with --input MESH_FILE");
  if (vm.count("block") && !(vm.count("generate") && vm["generate"].as<std::string>() == "blocks"))
    throw po::error("--block goes with --generate blocks");

  // Everything is read, generated and checked before anything is written.
  geobem::ProgressReporter timer("geobem-model", 1, "model", quiet);
  PrismModel model;
  if (vm.count("input")) {
    model = read_prism_model(vm["input"].as<std::string>(),
                             vm.count("ubc-model") ? vm["ubc-model"].as<std::string>() : "");
  } else {
    const std::string kind = vm["generate"].as<std::string>();
    if (kind == "spheres") {
      model = model_from_grid(sphere_grid(parse_cells(vm["cells"].as<std::string>()), couder_spheres()),
                              "seven spheres");
    } else if (kind == "blocks") {
      if (!vm.count("block")) throw po::error("--generate blocks needs at least one --block");
      model = block_model(parse_blocks(vm["block"].as<std::vector<std::string>>()));
    } else {
      throw po::error("--generate '" + kind + "': expected spheres or blocks");
    }
  }
  drop_zero_density(model);
  if (model.no_data_cells > 0)
    std::fprintf(stderr, "geobem-model: %s: %zu cells hold the UBC no-data value -99999 and are left out\n",
                 model.source.c_str(), model.no_data_cells);
  if (!quiet)
    std::fprintf(stderr, "geobem-model: %s: %zu prisms (%zu of zero density left out), volume %.6g m^3\n",
                 model.source.c_str(), model.prisms.size(), model.zero_density_dropped, total_volume(model.prisms));

  const fs::path out = vm["out"].as<std::string>();
  fs::create_directories(out);
  write_prism_csv(out / "prisms.csv", model.prisms);
  write_prism_vtu(out / "model.vtu", model.prisms);
  // A grid model also travels as its grid, which geobem-gravity evaluates on
  // grid nodes; a model.vtr left by an earlier grid model would be stale.
  const fs::path grid_file = out / "model.vtr";
  if (model.grid)
    write_grid_vtr(grid_file, *model.grid);
  else
    fs::remove(grid_file);
  timer.advance(1);
  if (!quiet)
    std::fprintf(stderr, "geobem-model: wrote %s, %s%s%s\n", (out / "prisms.csv").c_str(), (out / "model.vtu").c_str(),
                 model.grid ? " and " : "", model.grid ? grid_file.c_str() : "");
  timer.finish();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_stage("geobem-model", [&] { return run(argc, argv); });
}
