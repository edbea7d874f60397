// geobem-mesh: the surface mesh of the elastodynamic BEM. Generates a box
// (the rod), meshes a CAD shape or a .geo file through Gmsh, or converts a
// .msh/.vtu/.vtp/.stl file, assigns boundary groups,
// makes the normals point out of the solid, per closed surface from the
// domain it bounds (or only checks them), checks the mesh and writes
// it as .vtu (cell `group`, `normal`, `area`; field data `group_names`).
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mesh/surface/box_generator.hpp"
#include "mesh/surface/gmsh_geometry.hpp"
#include "mesh/surface/group_selection.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/mesh_geometry.hpp"
#include "mesh/surface/read_surface_mesh.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace geobem::surface;

namespace {

/// "a,b,c" as three finite numbers; a usage error naming the option otherwise.
std::array<double, 3> parse_triple(const std::string& text, const std::string& option) {
  const auto values = geobem::cli::parse_number_list(option, text, 3, "X,Y,Z");
  return {values[0], values[1], values[2]};
}

int run(int argc, char** argv) {
  po::options_description options("Options");
  geobem::cli::add_common_options(options);
  options.add_options()
    ("box-lengths", po::value<std::string>(), "generate a box: lengths LX,LY,LZ (m); the rod is 3,1,1")
    ("box-origin", po::value<std::string>()->default_value("0,0,0"), "box corner of smallest coordinates X,Y,Z (m)")
    ("shape", po::value<std::string>(), "mesh a closed CAD shape through Gmsh (OpenCASCADE) at --element-size: "
                                        "sphere:X,Y,Z,R (group wall) | box:X,Y,Z,LX,LY,LZ (groups x_min ... z_max) | "
                                        "cylinder:X,Y,Z,DX,DY,DZ,R (end centre, axis vector, radius; groups wall, "
                                        "end_0, end_1)")
    ("element-size", po::value<double>(), "box: target element size h (m), the longest triangle edge; "
                                          "rod: 0.25 gives 960 triangles, 0.24 gives 1008; --shape: Gmsh's target "
                                          "size; a .geo --input: caps the file's sizes")
    ("input", po::value<std::string>(), "mesh a .geo file through Gmsh (2D; its physical surfaces are the groups) "
                                        "or convert a mesh: .msh (Gmsh ASCII 2.2/4.1; physical surfaces are the groups), "
                                        ".vtu/.vtp (cell array 'group'), .stl")
    ("group", po::value<std::vector<std::string>>()->composing(),
     "for an --input without groups: NAME=x|y|z=VALUE[:TOL] (a plane) or "
     "NAME=box:XMIN,XMAX,YMIN,YMAX,ZMIN,ZMAX[:TOL]; triangles whose three nodes lie inside join group NAME; "
     "repeat for several (TOL in m, default 1e-6 x the bounding-box diagonal)")
    ("default-group", po::value<std::string>(), "group of the triangles in no group (without it they are an error)")
    ("domain", po::value<std::string>()->default_value("interior"),
     "where the elastic solid lies: interior (inside the outermost closed surfaces: a body, its inner surfaces "
     "cavities) or exterior (an unbounded solid outside them: cavities, tunnels); nested surfaces alternate")
    ("orientation", po::value<std::string>()->default_value("fix"),
     "fix: make the normals consistent and pointing out of the solid, per closed surface (flood fill, then the "
     "sign of its enclosed volume against its nesting and --domain); check: refuse a mesh whose normals are not")
    ("degenerate-tolerance", po::value<double>()->default_value(default_degenerate_tolerance),
     "a triangle is degenerate when its area < this x (longest edge)^2")
    ("out", po::value<std::string>(), "output surface mesh (.vtu)");
  const auto parsed = geobem::cli::parse_stage_options(
      argc, argv, "geobem-mesh",
      "Generate (--box-lengths or --shape, with --element-size), mesh a .geo file or convert a mesh file "
      "(--input): a closed triangle surface mesh with boundary groups, checked and written as .vtu.",
      options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const bool quiet = vm["quiet"].as<bool>();
  if (vm.count("box-lengths") + vm.count("shape") + vm.count("input") != 1)
    throw po::error("give exactly one of --box-lengths, --shape and --input");
  const bool geo_input = vm.count("input") && fs::path(vm["input"].as<std::string>()).extension() == ".geo";
  if ((vm.count("box-lengths") || vm.count("shape")) && !vm.count("element-size"))
    throw po::error(std::string(vm.count("shape") ? "--shape" : "--box-lengths") + " needs --element-size");
  if (vm.count("element-size") && vm.count("input") && !geo_input)
    throw po::error("--element-size goes with --box-lengths, --shape or a .geo --input");
  if (vm.count("group") && !vm.count("input")) throw po::error("--group goes with --input");
  if (!vm.count("out")) throw po::error("--out FILE.vtu is required");
  const fs::path out = vm["out"].as<std::string>();
  if (out.extension() != ".vtu") throw po::error("--out '" + out.string() + "': the output must be a .vtu file");
  const std::string orientation = vm["orientation"].as<std::string>();
  if (orientation != "fix" && orientation != "check")
    throw po::error("--orientation '" + orientation + "': expected fix or check");
  const std::string domain_name = vm["domain"].as<std::string>();
  if (domain_name != "interior" && domain_name != "exterior")
    throw po::error("--domain '" + domain_name + "': expected interior or exterior");
  const SolidDomain domain = domain_name == "interior" ? SolidDomain::interior : SolidDomain::exterior;
  const double tolerance = vm["degenerate-tolerance"].as<double>();
  if (!(tolerance >= 0) || !std::isfinite(tolerance))
    throw po::error("--degenerate-tolerance must be a finite number >= 0");

  // Everything is built and checked before anything is written.
  SurfaceMesh mesh;
  std::string source;
  if (vm.count("input")) {
    source = vm["input"].as<std::string>();
    std::vector<GroupSelection> selections;
    if (vm.count("group"))
      for (const auto& text : vm["group"].as<std::vector<std::string>>()) {
        try {
          selections.push_back(parse_group_selection(text));
        } catch (const std::invalid_argument& error) {
          throw po::error(std::string("--group: ") + error.what());
        }
      }
    mesh = geo_input ? mesh_geo_file(source, vm.count("element-size") ? std::optional<double>(vm["element-size"].as<double>())
                                                                      : std::nullopt)
                     : read_surface_mesh(source);
    const std::optional<std::string> default_group =
        vm.count("default-group") ? std::optional<std::string>(vm["default-group"].as<std::string>()) : std::nullopt;
    try {
      assign_groups(mesh, selections, default_group);
    } catch (const std::invalid_argument& error) {
      throw std::runtime_error(source + ": " + error.what());
    }
  } else if (vm.count("shape")) {
    CadShape shape;
    try {
      shape = parse_cad_shape(vm["shape"].as<std::string>());
    } catch (const std::invalid_argument& error) {
      throw po::error(std::string("--shape: ") + error.what());
    }
    const double element_size = vm["element-size"].as<double>();
    if (!(element_size > 0) || !std::isfinite(element_size)) throw po::error("--element-size must be a finite number > 0");
    mesh = mesh_cad_shape(shape, element_size);
    std::ostringstream name;
    name << vm["shape"].as<std::string>() << ", h = " << element_size << " m";
    source = name.str();
  } else {
    const auto lengths = parse_triple(vm["box-lengths"].as<std::string>(), "box-lengths");
    const auto origin = parse_triple(vm["box-origin"].as<std::string>(), "box-origin");
    try {
      mesh = generate_box_surface(lengths, origin, vm["element-size"].as<double>());
    } catch (const std::invalid_argument& error) {
      throw po::error(error.what());
    }
    std::ostringstream name;
    name << "box " << vm["box-lengths"].as<std::string>() << " m, h = " << vm["element-size"].as<double>() << " m";
    source = name.str();
  }

  int reversed = 0;
  if (orientation == "fix") {
    try {
      reversed = orient_outward(mesh, domain);
    } catch (const std::runtime_error&) {
      // An open or non-manifold surface: the full check below names every
      // problem; only a mesh that passes it would need this error itself.
      if (check_surface_mesh(mesh, tolerance, domain).ok()) throw;
    }
  }
  require_valid_surface_mesh(mesh, source, tolerance, domain);

  if (!out.parent_path().empty()) fs::create_directories(out.parent_path());
  write_surface_vtu(mesh, out);
  if (!quiet) {
    std::fprintf(stderr, "geobem-mesh: %s: %zu triangles, %zu nodes, area %.6g m^2, enclosed volume %.6g m^3%s\n",
                 source.c_str(), mesh.triangles.size(), mesh.nodes.size(), surface_area(mesh), enclosed_volume(mesh),
                 reversed ? (", " + std::to_string(reversed) + " triangles reversed to point out of the solid").c_str()
                          : "");
    const auto surfaces = closed_surfaces(mesh);
    if (surfaces.size() > 1 || domain == SolidDomain::exterior)
      for (std::size_t c = 0; c < surfaces.size(); ++c)
        std::fprintf(stderr, "geobem-mesh:   closed surface %zu: %zu triangles, encloses %.6g m^3, %s (%s domain)\n", c,
                     surfaces[c].triangles.size(), std::abs(surfaces[c].enclosed_volume),
                     solid_inside(domain, surfaces[c].depth) ? "solid inside" : "a cavity, solid outside",
                     solid_domain_name(domain));
    std::vector<std::size_t> count(mesh.group_names.size(), 0);
    std::vector<double> area(mesh.group_names.size(), 0.0);
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
      ++count[mesh.group_of_triangle[t]];
      area[mesh.group_of_triangle[t]] += triangle_area(mesh, static_cast<int>(t));
    }
    for (std::size_t g = 0; g < mesh.group_names.size(); ++g)
      std::fprintf(stderr, "geobem-mesh:   group %zu '%s': %zu triangles, area %.6g m^2\n", g,
                   mesh.group_names[g].c_str(), count[g], area[g]);
    std::fprintf(stderr, "geobem-mesh: wrote %s\n", out.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_stage("geobem-mesh", [&] { return run(argc, argv); });
}
