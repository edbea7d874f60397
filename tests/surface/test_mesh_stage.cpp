// geobem-mesh run as a user would: exit codes, messages, the .vtu written
// (or not) and read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gpu/core/math_constants.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/mesh_geometry.hpp"
#include "mesh/surface/read_surface_mesh.hpp"
#include "tests/support/test_files.hpp"
#include "tests/surface/mesh_texts.hpp"

using namespace geobem::surface;
using namespace geobem::test;
namespace fs = std::filesystem;

namespace {

const std::string exe = GEOBEM_MESH_EXE;

StageRun mesh_stage(const std::string& arguments) { return run_command(exe + " " + arguments); }

bool has(const StageRun& run, const std::string& text) { return run.errors.find(text) != std::string::npos; }

/// A fresh output path (no file there yet).
fs::path output(const std::string& name) {
  const auto path = scratch(name);
  fs::remove(path);
  return path;
}

}  // namespace

TEST(MeshStage, GeneratesTheRod) {
  const auto out = output("rod.vtu");
  const auto run = mesh_stage("--box-lengths 3,1,1 --element-size 0.25 --output " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_TRUE(has(run, "960 triangles")) << run.errors;
  const SurfaceMesh rod = read_surface_mesh(out);
  EXPECT_EQ(rod.triangles.size(), 960u);
  EXPECT_EQ(rod.group_names, (std::vector<std::string>{"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"}));
  EXPECT_TRUE(check_surface_mesh(rod).ok());
  EXPECT_NEAR(enclosed_volume(rod), 3.0, 1e-12);
  EXPECT_NEAR(surface_area(rod), 14.0, 1e-12);
}

TEST(MeshStage, ReadsItsOptionsFromAnIniFile) {
  const auto out = output("ini.vtu");
  const auto ini = write_text("mesh.ini", "box-lengths = 2,1,1\nelement-size = 0.5\noutput = " + out.string() + "\n");
  const auto run = mesh_stage("--quiet --config " + ini.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_TRUE(run.errors.empty()) << run.errors;
  EXPECT_NEAR(enclosed_volume(read_surface_mesh(out)), 2.0, 1e-13);
}

TEST(MeshStage, ConvertsStlWithSelectionsAndFixesInwardNormals) {
  // The cube's STL turned inside out: every facet reversed.
  SurfaceMesh inside_out = cube();
  for (auto& tri : inside_out.triangles) std::swap(tri[1], tri[2]);
  const auto stl = write_text("inward.stl", ascii_stl(inside_out));
  const auto out = output("cube.vtu");
  const std::string groups = " --group fixed=x=0 --group loaded=box:0.9,1.1,-1,2,-1,2 --default-group free";

  const auto refused = mesh_stage("--orientation check --input " + stl.string() + groups + " --output " + out.string());
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_TRUE(has(refused, "invalid surface mesh:\nnormals into the solid: closed surface 0 (containing "
                           "triangle 0, an outermost surface) encloses volume -1 m^3"))
      << refused.errors;
  EXPECT_FALSE(fs::exists(out));

  const auto fixed = mesh_stage("--input " + stl.string() + groups + " --output " + out.string());
  ASSERT_EQ(fixed.exit_code, 0) << fixed.errors;
  EXPECT_TRUE(has(fixed, "12 triangles reversed to point out of the solid")) << fixed.errors;
  const SurfaceMesh mesh = read_surface_mesh(out);
  EXPECT_NEAR(enclosed_volume(mesh), 1.0, 1e-14);
  EXPECT_EQ(mesh.group_names, (std::vector<std::string>{"fixed", "loaded", "free"}));
  EXPECT_EQ(std::count(mesh.group_of_triangle.begin(), mesh.group_of_triangle.end(), 0), 2);
  EXPECT_EQ(std::count(mesh.group_of_triangle.begin(), mesh.group_of_triangle.end(), 1), 2);
  EXPECT_EQ(std::count(mesh.group_of_triangle.begin(), mesh.group_of_triangle.end(), 2), 8);
}

/// The unit cube with a 0.5 m cavity, its normals pointing into the cavity
/// (out of the solid) unless `reverse_cavity`.
namespace {
SurfaceMesh hollow_cube(bool reverse_cavity) {
  SurfaceMesh mesh = cube();
  const auto cavity = generate_box_surface({0.5, 0.5, 0.5}, {0.25, 0.25, 0.25}, 1.0);
  for (auto tri : cavity.triangles) {
    for (int& n : tri) n += 8;
    if (!reverse_cavity) std::swap(tri[1], tri[2]);
    mesh.triangles.push_back(tri);
    mesh.group_of_triangle.push_back(6);
  }
  mesh.nodes.insert(mesh.nodes.end(), cavity.nodes.begin(), cavity.nodes.end());
  mesh.group_names.push_back("cavity");
  return mesh;
}
}  // namespace

TEST(MeshStage, HollowSolidKeepsItsCavity) {
  const auto out = output("hollow.vtu");
  const auto valid = write_text("hollow.msh", msh22(hollow_cube(false)));
  for (const std::string orientation : {"check", "fix"}) {
    const auto run = mesh_stage("--orientation " + orientation + " --input " + valid.string() + " --output " + out.string());
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    EXPECT_FALSE(has(run, "reversed")) << run.errors;
    EXPECT_TRUE(has(run, "enclosed volume 0.875 m^3")) << run.errors;
    EXPECT_TRUE(has(run, "closed surface 1: 12 triangles, encloses 0.125 m^3, a cavity, solid outside")) << run.errors;
    EXPECT_NEAR(enclosed_volume(read_surface_mesh(out)), 0.875, 1e-14);
  }
  const auto reversed = write_text("reversed_cavity.msh", msh22(hollow_cube(true)));
  auto run = mesh_stage("--input " + reversed.string() + " --output " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_TRUE(has(run, "12 triangles reversed to point out of the solid")) << run.errors;
  EXPECT_NEAR(enclosed_volume(read_surface_mesh(out)), 0.875, 1e-14);
  fs::remove(out);
  run = mesh_stage("--orientation check --input " + reversed.string() + " --output " + out.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run, "it bounds a cavity, so its normals must point into the cavity")) << run.errors;
  EXPECT_FALSE(fs::exists(out));
}

TEST(MeshStage, ExteriorDomainPointsNormalsIntoTheCavity) {
  const auto out = output("cavity.vtu");
  const auto file = write_text("lone_cube.msh", msh22(cube()));
  auto run = mesh_stage("--domain exterior --orientation check --input " + file.string() + " --output " + out.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run, "exterior domain it bounds a cavity")) << run.errors;
  run = mesh_stage("--domain exterior --input " + file.string() + " --output " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_TRUE(has(run, "12 triangles reversed")) << run.errors;
  EXPECT_NEAR(enclosed_volume(read_surface_mesh(out)), -1.0, 1e-14);
  EXPECT_EQ(mesh_stage("--domain outside --input " + file.string() + " --output " + out.string()).exit_code, 2);
}

TEST(MeshStage, GmshShapesAndGeoFiles) {
  const auto out = output("sphere.vtu");
  // A spherical cavity of radius 1 m in an unbounded solid.
  auto run = mesh_stage("--shape sphere:0,0,0,1 --element-size 0.4 --domain exterior --output " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_TRUE(has(run, "a cavity, solid outside (exterior domain)")) << run.errors;
  const SurfaceMesh cavity = read_surface_mesh(out);
  EXPECT_EQ(cavity.group_names, std::vector<std::string>{"wall"});
  EXPECT_NEAR(enclosed_volume(cavity), -4 * geobem::kPi / 3, 0.08 * 4 * geobem::kPi / 3);

  const auto bad = write_text("stage_bad.geo", "Point(1) = {0, 0, 0};\nLine(1) = {1, 7};\n");
  const auto kept = output("kept.vtu");
  run = mesh_stage("--input " + bad.string() + " --output " + kept.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run, "stage_bad.geo: Gmsh: Error: Unknown control point 7")) << run.errors;
  EXPECT_FALSE(fs::exists(kept));
  EXPECT_EQ(mesh_stage("--shape sphere:0,0,0,1 --output " + kept.string()).exit_code, 2);
  run = mesh_stage("--shape ball:0,0,0,1 --element-size 1 --output " + kept.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(has(run, "--shape: shape 'ball:0,0,0,1': unknown")) << run.errors;
  EXPECT_FALSE(fs::exists(kept));
}

// A .geo file whose points carry their own mesh size (0.25 m): Gmsh meshes
// with the smaller of that and --element-size, so --element-size 1 leaves
// the triangles at about 0.25 m. The stage says so, naming both sizes, even
// with --quiet; at --element-size 0.2 the option decides and nothing is said.
TEST(MeshStage, GeoFileSizesSmallerThanTheElementSizeAreNamed) {
  const auto geo = write_text("sized_box.geo",
                              "lc = 0.25;\n"
                              "Point(1) = {0, 0, 0, lc};\nPoint(2) = {2, 0, 0, lc};\n"
                              "Point(3) = {2, 2, 0, lc};\nPoint(4) = {0, 2, 0, lc};\n"
                              "Line(1) = {1, 2};\nLine(2) = {2, 3};\nLine(3) = {3, 4};\nLine(4) = {4, 1};\n"
                              "Curve Loop(1) = {1, 2, 3, 4};\nPlane Surface(1) = {1};\n"
                              "Extrude {0, 0, 2} { Surface{1}; }\n");
  const auto out = output("sized_box.vtu");
  auto run = mesh_stage("--quiet --element-size 1 --input " + geo.string() + " --output " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_TRUE(has(run, "geobem-mesh: warning: " + geo.string() + ": the file's mesh sizes win over --element-size "
                       "1 m: the longest triangle edge is 0.")) << run.errors;
  const SurfaceMesh fine = read_surface_mesh(out);
  EXPECT_NEAR(enclosed_volume(fine), 8.0, 1e-9);
  EXPECT_GT(fine.triangles.size(), 6u * 2 * 8 * 8 * 3 / 4);  // six faces of 2 m at about 0.25 m
  run = mesh_stage("--quiet --element-size 0.2 --input " + geo.string() + " --output " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_FALSE(has(run, "warning")) << run.errors;
}

TEST(MeshStage, BrokenMeshesWriteNothing) {
  const auto out = output("broken.vtu");
  SurfaceMesh open = cube();
  open.triangles.pop_back();
  open.group_of_triangle.pop_back();
  auto run = mesh_stage("--input " + write_text("open.msh", msh22(open)).string() + " --output " + out.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run, "open.msh: invalid surface mesh:\nopen surface: edge")) << run.errors;

  SurfaceMesh degenerate = cube();
  degenerate.nodes[7] = degenerate.nodes[6];  // two corners at one point
  run = mesh_stage("--input " + write_text("degenerate.msh", msh22(degenerate)).string() + " --output " + out.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run, "degenerate triangle")) << run.errors;

  // Unassigned STL triangles without --default-group.
  run = mesh_stage("--input " + write_text("plain.stl", ascii_stl(cube())).string() +
                   " --group fixed=x=0 --output " + out.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(has(run, "10 of 12 triangles are in no boundary group")) << run.errors;
  EXPECT_FALSE(fs::exists(out));
}

TEST(MeshStage, UsageErrors) {
  const auto out = output("usage.vtu");
  EXPECT_EQ(mesh_stage("--box-lengths 3,1,1 --input a.stl --element-size 1 --output " + out.string()).exit_code, 2);
  auto run = mesh_stage("--box-lengths 3,1 --element-size 1 --output " + out.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(has(run, "--box-lengths '3,1': expected 3 values X,Y,Z")) << run.errors;
  run = mesh_stage("--box-lengths 3,1,1 --element-size 1 --output " + scratch("rod.vtk").string());
  EXPECT_EQ(run.exit_code, 2);
  run = mesh_stage("--input x.stl --group nothing --output " + out.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(has(run, "--group: group selection 'nothing': no group name")) << run.errors;
  EXPECT_FALSE(fs::exists(out));
}
