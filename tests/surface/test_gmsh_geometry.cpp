// Surfaces meshed through the Gmsh API: a sphere's area and volume against
// 4πa² and 4/3πa³ (an inscribed triangulation: errors of order h², below
// both), a box and a cylinder with their groups, and .geo files with and
// without physical groups, and a bad one. Gmsh runs in a child process:
// its endless loops and runaway meshes end at their CPU-time limits, a crash,
// an abort inside an OpenMP region or an exit end as errors of the caller's,
// and the child starts no program and writes no file.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "gpu/core/input_error.hpp"
#include "gpu/core/math_constants.hpp"
#include "mesh/surface/gmsh_geometry.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/mesh_geometry.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem::surface;
using geobem::test::error_of;
using geobem::test::scratch;
using geobem::test::write_text;

namespace {

/// Area (m²) of the triangles of group `name`.
double group_area(const SurfaceMesh& mesh, const std::string& name) {
  double area = 0;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    if (mesh.group_names[mesh.group_of_triangle[t]] == name) area += triangle_area(mesh, static_cast<int>(t));
  return area;
}

}  // namespace

TEST(GmshGeometry, SphereAreaAndVolumeConvergeAtSecondOrder) {
  const double a = 2.0;
  const double area = 4 * geobem::kPi * a * a, volume = 4 * geobem::kPi * a * a * a / 3;
  double previous_area_error = 0, previous_volume_error = 0;
  for (double h : {0.8, 0.4}) {
    auto mesh = mesh_cad_shape(parse_cad_shape("sphere:1,-2,3,2"), h);
    orient_outward(mesh);
    ASSERT_TRUE(check_surface_mesh(mesh).ok()) << check_surface_mesh(mesh).message();
    EXPECT_EQ(mesh.group_names, std::vector<std::string>{"wall"});
    const double area_error = (area - surface_area(mesh)) / area;
    const double volume_error = (volume - enclosed_volume(mesh)) / volume;
    // Inscribed: smaller than the sphere, by less than (h/a)²/2.
    EXPECT_GT(area_error, 0) << h;
    EXPECT_LT(area_error, 0.5 * (h / a) * (h / a)) << h;
    EXPECT_GT(volume_error, 0) << h;
    EXPECT_LT(volume_error, 0.5 * (h / a) * (h / a)) << h;
    if (previous_area_error > 0) {
      EXPECT_NEAR(previous_area_error / area_error, 4.0, 1.5);
      EXPECT_NEAR(previous_volume_error / volume_error, 4.0, 1.5);
    }
    previous_area_error = area_error;
    previous_volume_error = volume_error;
  }
}

TEST(GmshGeometry, BoxAndCylinderWithAGroupPerSurface) {
  auto box = mesh_cad_shape(parse_cad_shape("box:1,2,3,1,2,3"), 0.5);
  orient_outward(box);
  ASSERT_TRUE(check_surface_mesh(box).ok()) << check_surface_mesh(box).message();
  EXPECT_NEAR(enclosed_volume(box), 6.0, 1e-12);
  EXPECT_NEAR(group_area(box, "x_min"), 6.0, 1e-12);
  EXPECT_NEAR(group_area(box, "y_max"), 3.0, 1e-12);
  EXPECT_NEAR(group_area(box, "z_min"), 2.0, 1e-12);
  EXPECT_EQ(box.group_names.size(), 6u);

  // A tunnel section along y: radius 1, length 4.
  auto tunnel = mesh_cad_shape(parse_cad_shape("cylinder:0,0,0,0,4,0,1"), 0.25);
  orient_outward(tunnel);
  ASSERT_TRUE(check_surface_mesh(tunnel).ok()) << check_surface_mesh(tunnel).message();
  const double r = 1, length = 4;
  EXPECT_NEAR(group_area(tunnel, "wall"), 2 * geobem::kPi * r * length, 0.01 * 2 * geobem::kPi * r * length);
  EXPECT_NEAR(group_area(tunnel, "end_0"), geobem::kPi * r * r, 0.01 * geobem::kPi * r * r);
  EXPECT_NEAR(group_area(tunnel, "end_1"), geobem::kPi * r * r, 0.01 * geobem::kPi * r * r);
  EXPECT_NEAR(enclosed_volume(tunnel), geobem::kPi * r * r * length, 0.01 * geobem::kPi * r * r * length);
  // end_0 lies at y = 0.
  for (std::size_t t = 0; t < tunnel.triangles.size(); ++t)
    if (tunnel.group_names[tunnel.group_of_triangle[t]] == "end_0") {
      EXPECT_NEAR(triangle_centroid(tunnel, static_cast<int>(t))[1], 0.0, 1e-12);
    }
}

TEST(GmshGeometry, GeoFileKeepsItsPhysicalGroups) {
  const auto grouped = write_text("grouped.geo",
                                  "SetFactory(\"OpenCASCADE\");\nBox(1) = {0, 0, 0, 1, 1, 1};\n"
                                  "Physical Surface(\"floor\") = {5};\nPhysical Surface(\"sides\") = {1, 2, 3, 4, 6};\n"
                                  "Mesh.MeshSizeMin = 0.5;\nMesh.MeshSizeMax = 0.5;\n");
  const auto mesh = mesh_geo_file(grouped.string());
  EXPECT_EQ(mesh.group_names, (std::vector<std::string>{"floor", "sides"}));
  EXPECT_NEAR(group_area(mesh, "floor"), 1.0, 1e-12);
  EXPECT_NEAR(group_area(mesh, "sides"), 5.0, 1e-12);
  const auto finer = mesh_geo_file(grouped.string(), 0.2);
  EXPECT_GT(finer.triangles.size(), 2 * mesh.triangles.size());

  const auto plain = write_text("plain.geo", "SetFactory(\"OpenCASCADE\");\nSphere(1) = {0, 0, 0, 1};\n");
  EXPECT_EQ(mesh_geo_file(plain.string(), 0.5).group_names, std::vector<std::string>{"surface_1"});
}

/// The longest triangle edge of `mesh` (m).
double longest_edge(const SurfaceMesh& mesh) {
  double longest = 0;
  for (const auto& triangle : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const auto& a = mesh.nodes[triangle[k]];
      const auto& b = mesh.nodes[triangle[(k + 1) % 3]];
      longest = std::max(longest, std::hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]));
    }
  return longest;
}

// Gmsh meshes a .geo file with the smallest size given: its points' own
// sizes win over a larger element size, and so does Gmsh's default for a
// point without one (a tenth of the model's diagonal, 0.57 m for a 4 m
// square); mesh_geo_file reports the longest edge then. An element size
// below the file's, or a surface too small for the element size, reports
// nothing.
TEST(GmshGeometry, GeoFileSizesThatWinOverTheElementSizeAreReported) {
  const auto square = [](const std::string& name, const std::string& size) {
    return write_text(name, "Point(1) = {0, 0, 0" + size + "};\nPoint(2) = {4, 0, 0" + size +
                                "};\nPoint(3) = {4, 4, 0" + size + "};\nPoint(4) = {0, 4, 0" + size +
                                "};\nLine(1) = {1, 2};\nLine(2) = {2, 3};\nLine(3) = {3, 4};\nLine(4) = {4, 1};\n"
                                "Curve Loop(1) = {1, 2, 3, 4};\nPlane Surface(1) = {1};\n");
  };
  const auto sized = square("sized.geo", ", 0.2"), bare = square("bare.geo", "");
  std::optional<double> finer;
  const SurfaceMesh fine = mesh_geo_file(sized.string(), 1.0, &finer);
  ASSERT_TRUE(finer.has_value());
  EXPECT_EQ(*finer, longest_edge(fine));
  EXPECT_GT(*finer, 0.15);
  EXPECT_LT(*finer, 0.4);
  const SurfaceMesh fine_by_default = mesh_geo_file(bare.string(), 2.0, &finer);
  ASSERT_TRUE(finer.has_value());
  EXPECT_EQ(*finer, longest_edge(fine_by_default));
  EXPECT_LT(*finer, 1.0);
  const SurfaceMesh at_element_size = mesh_geo_file(bare.string(), 0.4, &finer);
  EXPECT_FALSE(finer.has_value());
  EXPECT_GT(longest_edge(at_element_size), 0.3);
  EXPECT_LT(longest_edge(at_element_size), 0.6);
  mesh_geo_file(sized.string(), 0.15, &finer);  // the element size is the smaller: it decides
  EXPECT_FALSE(finer.has_value());
  mesh_geo_file(sized.string(), 3.0, &finer);  // a 4 m square is not twice as wide as 3 m triangles
  EXPECT_FALSE(finer.has_value());
  mesh_geo_file(sized.string(), std::nullopt, &finer);  // no element size: the file's sizes are the only ones
  EXPECT_FALSE(finer.has_value());
}

TEST(GmshGeometry, BadInputNamesTheFileWithGmshsMessage) {
  const auto bad = write_text("bad.geo", "Point(1) = {0, 0, 0};\nLine(1) = {1, 7};\n");
  EXPECT_NE(error_of([&] { mesh_geo_file(bad.string()); }).find("bad.geo: Gmsh: Error: Unknown control point 7"),
            std::string::npos)
      << error_of([&] { mesh_geo_file(bad.string()); });
  EXPECT_EQ(error_of([] { mesh_geo_file("/nonexistent/model.geo"); }),
            "/nonexistent/model.geo: no such file");
  const auto curves = write_text("curves.geo", "Point(1) = {0, 0, 0};\nPoint(2) = {1, 0, 0};\nLine(1) = {1, 2};\n");
  EXPECT_NE(error_of([&] { mesh_geo_file(curves.string()); }).find("Gmsh made no surface triangles"), std::string::npos);
  EXPECT_EQ(error_of([] { parse_cad_shape("sphere:0,0,0"); }), "shape 'sphere:0,0,0': expected sphere:X,Y,Z,R");
  EXPECT_EQ(error_of([] { parse_cad_shape("sphere:0,0,0,-1"); }), "shape 'sphere:0,0,0,-1': the radius must be > 0");
  EXPECT_EQ(error_of([] { parse_cad_shape("cone:0,0,0,1"); }).substr(0, 31), "shape 'cone:0,0,0,1': unknown; ");
  EXPECT_EQ(error_of([] { parse_cad_shape("box:0,0,0,1,x,1"); }), "shape 'box:0,0,0,1,x,1': 'x' is not a finite number");
}

TEST(GmshGeometry, ShapesThatWouldNeedTooManyTrianglesAreRefusedBeforeMeshing) {
  // The sphere of the report: 4π 1000² m² at 0.01 m, some 2.9e11 triangles.
  const std::string message = error_of([] { mesh_cad_shape(parse_cad_shape("sphere:0,0,0,1000"), 0.01); });
  EXPECT_EQ(message, "sphere at element size 0.01 m: about 2.9e+11 triangles, more than the 2000000 geobem-mesh "
                     "makes; give an element size of at least 3.81 m");
  EXPECT_THROW(mesh_cad_shape(parse_cad_shape("box:0,0,0,1,1,1"), 0.0005), geobem::InputError);
  // The estimate against what Gmsh makes: within a quarter.
  for (const char* text : {"sphere:0,0,0,1", "box:0,0,0,1,2,3", "cylinder:0,0,0,0,0,2,0.5"}) {
    const double made = static_cast<double>(mesh_cad_shape(parse_cad_shape(text), 0.1).triangles.size());
    EXPECT_NEAR(estimated_triangles(parse_cad_shape(text), 0.1) / made, 1.0, 0.25) << text << ": " << made;
  }
}

TEST(GmshGeometry, AnEndlessScriptEndsAtItsCpuLimit) {
  const auto endless = write_text("endless.geo", "x = 0;\nFor i In {1:1e15}\n  x = x + 1;\nEndFor\n");
  const auto start = std::chrono::steady_clock::now();
  const std::string message = error_of([&] { mesh_geo_file(endless.string(), std::nullopt, nullptr, {1.0, 30.0}); });
  EXPECT_EQ(message, endless.string() + ": the script used more than 1 s of CPU time while Gmsh read it (a loop "
                                        "that does not end, or one too long for a geometry)");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20.0);
}

TEST(GmshGeometry, ARunawayMeshEndsAtTheCpuLimit) {
  // About a million triangles (within the bound): far more than 1 s of meshing.
  const std::string message = error_of([] { mesh_cad_shape(parse_cad_shape("sphere:0,0,0,1"), 0.004, {1.0, 1.0}); });
  EXPECT_EQ(message, "sphere: Gmsh used more than 1 s of CPU time meshing (is the element size too small for the "
                     "geometry? --gmsh-cpu-limit raises the limit)");
}

namespace {

/// What a work in the Gmsh child saw when it tried to write `file` and to run a program touching `ran`.
std::string try_to_reach_out(const std::filesystem::path& file, const std::filesystem::path& ran) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int status = std::system(("touch " + ran.string()).c_str());
  return std::string(fd >= 0 ? "opened" : "refused") + " " + std::to_string(status);
}

}  // namespace

TEST(GmshProcess, TheChildStartsNoProgramAndWritesNoFile) {
  const auto file = scratch("written.txt"), ran = scratch("ran.txt");
  const std::string confined =
      run_gmsh_process("test", {}, true, [&](GmshChannel&) { return try_to_reach_out(file, ran); });
  EXPECT_EQ(confined.substr(0, 8), "refused ");
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_FALSE(std::filesystem::exists(ran));
  // The same steps outside the child reach both: the test sees a write when there is one.
  EXPECT_EQ(try_to_reach_out(file, ran), "opened 0");
  EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_TRUE(std::filesystem::exists(ran));
}

TEST(GmshProcess, CrashesAbortsAndExitsOfTheChildAreErrors) {
  // Gmsh 4.8 throws inside OpenMP regions: std::terminate, SIGABRT.
  const std::string aborted = error_of([] {
    run_gmsh_process("parallel", {}, false, [](GmshChannel&) -> std::string {
#pragma omp parallel num_threads(1)
      { throw std::runtime_error("Error   : inside a parallel region"); }
      return "";
    });
  });
  EXPECT_EQ(aborted.rfind("parallel: Gmsh stopped with SIGABRT (an error inside one of its parallel regions, or "
                          "memory exhausted):", 0), 0u) << aborted;
  EXPECT_NE(aborted.find("terminate called after throwing an instance of 'std::runtime_error'"), std::string::npos)
      << aborted;
  EXPECT_NE(aborted.find("inside a parallel region"), std::string::npos) << aborted;
  const std::string crashed = error_of([] {
    run_gmsh_process("crash", {}, false, [](GmshChannel&) -> std::string {
      std::raise(SIGSEGV);
      return "";
    });
  });
  EXPECT_EQ(crashed, "crash: Gmsh stopped with SIGSEGV");
  const std::string exited = error_of([] {
    run_gmsh_process("exit", {}, false, [](GmshChannel&) -> std::string { std::exit(0); });
  });
  EXPECT_EQ(exited, "exit: Gmsh ended the process (exit status 0) without a result");
  // A work's own exception comes back as its message; its result as its bytes.
  EXPECT_EQ(error_of([] {
              run_gmsh_process("thrown", {}, false, [](GmshChannel&) -> std::string {
                throw std::runtime_error("thrown: a message");
              });
            }),
            "thrown: a message");
  EXPECT_EQ(run_gmsh_process("bytes", {}, true, [](GmshChannel&) { return std::string("a\0b", 3); }),
            std::string("a\0b", 3));
}
