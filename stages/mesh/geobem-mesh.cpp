// geobem-mesh: the surface mesh of the elastodynamic BEM. Generates a box
// (the rod), meshes a CAD shape or a checked .geo file through Gmsh (in a
// confined child process), or converts a .msh/.vtu/.vtp/.stl file (told by
// content), assigns boundary groups,
// makes the normals point out of the solid, per closed surface from the
// domain it bounds (or only checks them), checks the mesh and writes
// it as .vtu (cell `group`, `normal`, `area`; field data `group_names`),
// with its effective options beside it (OUT.vtu.ini).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/core/input_error.hpp"
#include "mesh/io/number_text.hpp"
#include "mesh/io/output_set.hpp"
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
using geobem::InputError;

namespace {

/// What geobem-mesh does, the head of its --help.
const char* const kSummary =
    "Generate (--box-lengths or --shape, with --element-size), mesh a .geo file or convert a mesh file "
    "(--input): a closed triangle surface mesh with boundary groups, checked and written as .vtu.";

struct MeshOptions {
  std::optional<std::string> box_lengths, shape, input, default_group;
  std::string box_origin = "0,0,0", domain = "interior", orientation = "fix", out;
  std::optional<double> element_size;
  std::vector<std::string> groups;
  double degenerate_tolerance = default_degenerate_tolerance;
  double gmsh_cpu_limit = GmshLimits{}.total_cpu_seconds;
};

/// "a,b,c" as three finite numbers; a usage error naming the option otherwise.
std::array<double, 3> parse_triple(const std::string& text, const std::string& option) {
  const auto values = geobem::cli::parse_number_list(option, text, 3, "X,Y,Z");
  return {values[0], values[1], values[2]};
}

std::vector<GroupSelection> parse_groups(const std::vector<std::string>& texts) {
  std::vector<GroupSelection> selections;
  for (const auto& text : texts)
    selections.push_back(geobem::with_origin(geobem::InputKind::usage, "--group",
                                             [&] { return parse_group_selection(text); }));
  return selections;
}

/// The command line of geobem-mesh, bound to `o`.
void declare_options(geobem::cli::StageOptions& command, MeshOptions& o) {
  using geobem::cli::optional_value;
  command.add()
    ("box-lengths", optional_value(&o.box_lengths), "generate a box: lengths LX,LY,LZ (m); the rod is 3,1,1")
    ("box-origin", po::value(&o.box_origin)->default_value(o.box_origin), "box corner of smallest coordinates X,Y,Z (m)")
    ("shape", optional_value(&o.shape), "mesh a closed CAD shape through Gmsh (OpenCASCADE) at --element-size: "
                                        "sphere:X,Y,Z,R (group wall) | box:X,Y,Z,LX,LY,LZ (groups x_min ... z_max) | "
                                        "cylinder:X,Y,Z,DX,DY,DZ,R (end centre, axis vector, radius; groups wall, "
                                        "end_0, end_1)")
    ("element-size", optional_value(&o.element_size), "box: target element size h (m), the longest triangle edge; "
                                                       "rod: 0.25 gives 960 triangles, 0.24 gives 1008; --shape: "
                                                       "Gmsh's target size; a .geo --input: caps the file's sizes")
    ("input", optional_value(&o.input), "mesh a .geo file through Gmsh (2D; its physical surfaces are the groups; "
                                        "geometry commands only, see docs/readers.md) or convert a mesh: .msh (Gmsh "
                                        "ASCII 2.2/4.1; physical surfaces are the groups), .vtu/.vtp (cell array "
                                        "'group'), .stl; the format is told by the file's content, not its name")
    ("group", po::value(&o.groups)->composing(),
     "for an --input without groups: NAME=x|y|z=VALUE[:TOL] (a plane) or "
     "NAME=box:XMIN,XMAX,YMIN,YMAX,ZMIN,ZMAX[:TOL]; triangles whose three nodes lie inside join group NAME; "
     "repeat for several (TOL in m, default 1e-6 x the bounding-box diagonal)")
    ("default-group", optional_value(&o.default_group),
     "group of the triangles in no group (without it they are an error)")
    ("domain", po::value(&o.domain)->default_value(o.domain),
     "where the elastic solid lies: interior (inside the outermost closed surfaces: a body, its inner surfaces "
     "cavities) or exterior (an unbounded solid outside them: cavities, tunnels); nested surfaces alternate")
    ("orientation", po::value(&o.orientation)->default_value(o.orientation),
     "fix: make the normals consistent and pointing out of the solid, per closed surface (flood fill, then the "
     "sign of its enclosed volume against its nesting and --domain); check: refuse a mesh whose normals are not")
    ("degenerate-tolerance", po::value(&o.degenerate_tolerance)->default_value(o.degenerate_tolerance),
     "a triangle is degenerate when its area < this x (longest edge)^2")
    ("gmsh-cpu-limit", po::value(&o.gmsh_cpu_limit)->default_value(o.gmsh_cpu_limit),
     "--shape and .geo --input: CPU seconds Gmsh may take in all (it runs in a process of its own; a .geo script's "
     "own statements get at most 10 of them, or all if fewer)");
  command.add_output_file(&o.out, "the surface mesh (.vtu)");
  command.mark_path("input");
}

/// Whether --input is a .geo script, by content; a file that cannot be read
/// is taken by its name here and left to its reader's message, after the
/// usage errors.
bool is_geo_input(const MeshOptions& o) {
  if (!o.input) return false;
  try {
    return detect_mesh_format(*o.input) == MeshFileFormat::GeoScript;
  } catch (const std::runtime_error&) {
    return fs::path(*o.input).extension() == ".geo";
  }
}

/// The usage errors of the options that go with the mesh's source (one of
/// --box-lengths, --shape and --input); warns of the options it ignores.
void check_source_options(const MeshOptions& o, const geobem::cli::StageOptions& command, bool geo_input) {
  if ((o.box_lengths || o.shape) && !o.element_size)
    throw InputError::usage(std::string(o.shape ? "--shape" : "--box-lengths") + " needs --element-size");
  if (o.element_size && o.input && !geo_input)
    throw InputError::usage("--element-size goes with --box-lengths, --shape or a .geo --input");
  if (!o.groups.empty() && !o.input) throw InputError::usage("--group goes with --input");
  if (!o.box_lengths) command.warn_ignored("box-origin", "it places the box of --box-lengths");
  if (!o.shape && !geo_input)
    command.warn_ignored("gmsh-cpu-limit", "it bounds Gmsh, which meshes --shape and .geo files");
}

/// The usage errors of the output, the orientation, the domain and the
/// limits; Gmsh's limits from --gmsh-cpu-limit.
GmshLimits check_mesh_options(const MeshOptions& o) {
  const fs::path out = o.out;
  if (out.extension() != ".vtu")
    throw InputError::usage("--output '" + out.string() + "': the output must be a .vtu file");
  if (o.orientation != "fix" && o.orientation != "check")
    throw InputError::usage("--orientation '" + o.orientation + "': expected fix or check");
  if (o.domain != "interior" && o.domain != "exterior")
    throw InputError::usage("--domain '" + o.domain + "': expected interior or exterior");
  if (!(o.degenerate_tolerance >= 0) || !std::isfinite(o.degenerate_tolerance))
    throw InputError::usage("--degenerate-tolerance must be a finite number >= 0");
  if (!(o.gmsh_cpu_limit >= 1 && o.gmsh_cpu_limit <= 1e6))
    throw InputError::usage("--gmsh-cpu-limit must be between 1 and 1e6 s");
  GmshLimits gmsh_limits;
  gmsh_limits.total_cpu_seconds = o.gmsh_cpu_limit;
  gmsh_limits.script_cpu_seconds = std::min(gmsh_limits.script_cpu_seconds, o.gmsh_cpu_limit);
  return gmsh_limits;
}

/// The mesh of --input: a .geo script meshed by Gmsh or a mesh file read,
/// its triangles assigned to the groups.
SurfaceMesh input_mesh(const MeshOptions& o, bool geo_input, const std::vector<GroupSelection>& selections,
                       const GmshLimits& gmsh_limits) {
  const std::string& source = *o.input;
  std::optional<double> finer_edge;
  SurfaceMesh mesh = geo_input ? mesh_geo_file(source, o.element_size, &finer_edge, gmsh_limits)
                               : read_surface_mesh(source);
  if (finer_edge)  // a warning, so printed even with --quiet
    std::fprintf(stderr,
                 "geobem-mesh: warning: %s: the file's mesh sizes win over --element-size %s m: the longest "
                 "triangle edge is %.3g m (Gmsh meshes with the smallest size given: the sizes of the file's points, "
                 "a tenth of the model's size for a point without one, its size fields and Mesh.MeshSizeFactor, "
                 "and --element-size, which only caps them); give the points larger sizes in the file (the fourth "
                 "number of a Point) for a coarser mesh\n",
                 source.c_str(), geobem::shortest_text(*o.element_size).c_str(), *finer_edge);
  // A property of this file: exit 1.
  geobem::with_origin(geobem::InputKind::data, source, [&] { assign_groups(mesh, selections, o.default_group); });
  return mesh;
}

/// The mesh of --shape, meshed by Gmsh at --element-size.
SurfaceMesh shape_mesh(const MeshOptions& o, const GmshLimits& gmsh_limits) {
  using geobem::InputKind;
  using geobem::with_origin;
  const CadShape shape = with_origin(InputKind::usage, "--shape", [&] { return parse_cad_shape(*o.shape); });
  if (!(*o.element_size > 0) || !std::isfinite(*o.element_size))
    throw InputError::usage("--element-size must be a finite number > 0");
  return with_origin(InputKind::usage, "--shape with --element-size",
                     [&] { return mesh_cad_shape(shape, *o.element_size, gmsh_limits); });
}

/// The mesh from its source (--input, --shape or --box-lengths) and the
/// source's name for the messages.
SurfaceMesh source_mesh(const MeshOptions& o, bool geo_input, const std::vector<GroupSelection>& selections,
                        const GmshLimits& gmsh_limits, std::string* source) {
  std::ostringstream name;
  if (o.input) {
    *source = *o.input;
    return input_mesh(o, geo_input, selections, gmsh_limits);
  }
  if (o.shape) {
    SurfaceMesh mesh = shape_mesh(o, gmsh_limits);
    name << *o.shape << ", h = " << *o.element_size << " m";
    *source = name.str();
    return mesh;
  }
  SurfaceMesh mesh = generate_box_surface(parse_triple(*o.box_lengths, "box-lengths"),
                                          parse_triple(o.box_origin, "box-origin"), *o.element_size);
  name << "box " << *o.box_lengths << " m, h = " << *o.element_size << " m";
  *source = name.str();
  return mesh;
}

/// --orientation fix: the normals made to point out of the solid; returns the
/// number of triangles reversed. An open or non-manifold surface is left to
/// the full check that follows, which names every problem; only a mesh that
/// passes it would need this error itself.
int orient_mesh(SurfaceMesh& mesh, const MeshOptions& o, SolidDomain domain) {
  if (o.orientation != "fix") return 0;
  try {
    return orient_outward(mesh, domain);
  } catch (const std::runtime_error&) {
    if (check_surface_mesh(mesh, o.degenerate_tolerance, domain).ok()) throw;
  }
  return 0;
}

/// The summary on stderr: the mesh, its closed surfaces (where more than one
/// or an exterior domain), its groups.
void report_mesh(const SurfaceMesh& mesh, const std::string& source, int reversed, SolidDomain domain,
                 const fs::path& out) {
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

int run(const MeshOptions& o, const geobem::cli::StageOptions& command) {
  if (o.box_lengths.has_value() + o.shape.has_value() + o.input.has_value() != 1)
    throw geobem::InputError::usage("give exactly one of --box-lengths, --shape and --input");
  const bool geo_input = is_geo_input(o);
  check_source_options(o, command, geo_input);
  const GmshLimits gmsh_limits = check_mesh_options(o);
  const SolidDomain domain = o.domain == "interior" ? SolidDomain::interior : SolidDomain::exterior;
  const std::vector<GroupSelection> selections = parse_groups(o.groups);
  const fs::path out = o.out;
  geobem::OutputFile output(out);  // the folder is checked before the work

  // Everything is built and checked before anything is written.
  std::string source;
  SurfaceMesh mesh = source_mesh(o, geo_input, selections, gmsh_limits, &source);
  const int reversed = orient_mesh(mesh, o, domain);
  require_valid_surface_mesh(mesh, source, o.degenerate_tolerance, domain);

  write_surface_vtu(mesh, output.temporary_path());
  output.write_record(command.record(output.final_path().parent_path()));
  output.commit();
  if (!command.quiet()) report_mesh(mesh, source, reversed, domain, out);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_stage("geobem-mesh", kSummary, declare_options, argc, argv, run);
}
