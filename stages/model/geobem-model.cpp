// geobem-model: generate or convert a prism model, write it for ParaView
// (model.vtu, hexahedra with cell `density`) and for the gravity stage
// (prisms.csv; a grid model also as model.vtr, every cell, for the gravity
// stage's grid path). Zero-density prisms are left out of the first two.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/core/progress.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/prism_csv.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "mesh/prisms/vtk_model.hpp"
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
    ("out", po::value<std::string>()->default_value("."), "output folder for model.vtu, prisms.csv (and model.vtr)");
  const auto parsed = geobem::cli::parse_stage_options(
      argc, argv, "geobem-model",
      "Generate or convert a prism model; writes OUT/model.vtu and OUT/prisms.csv, and OUT/model.vtr when the model is a "
      "grid.",
      options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const bool quiet = vm["quiet"].as<bool>();
  if (vm.count("generate") == vm.count("input")) throw po::error("give exactly one of --generate and --input");
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
