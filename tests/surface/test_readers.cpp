// The readers on a unit cube written by hand in each format (Gmsh 2.2 and
// 4.1 text, VTK .vtp through VTK's writer, ASCII STL with selections): all
// must give the cube the generator makes, with the same groups; bad files.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPolyDataWriter.h>

#include "mesh/surface/box_generator.hpp"
#include "mesh/surface/group_selection.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/mesh_geometry.hpp"
#include "mesh/surface/read_surface_mesh.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "tests/surface/mesh_texts.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem::surface;
using namespace geobem::test;

namespace {

/// Node-numbering-free description: per triangle its group name and its
/// corner coordinates, cycled to start at the smallest (keeps orientation).
std::vector<std::string> canonical(const SurfaceMesh& mesh) {
  std::vector<std::string> keys;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    std::array<std::array<double, 3>, 3> corners;
    for (int c = 0; c < 3; ++c) corners[c] = mesh.nodes[mesh.triangles[t][c]];
    std::rotate(corners.begin(), std::min_element(corners.begin(), corners.end()), corners.end());
    std::ostringstream key;
    key << mesh.group_names.at(mesh.group_of_triangle.at(t));
    for (const auto& x : corners) key << " " << x[0] << "," << x[1] << "," << x[2];
    keys.push_back(key.str());
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::filesystem::path write_vtp(const SurfaceMesh& mesh, const std::string& name) {
  auto data = vtkSmartPointer<vtkPolyData>::New();
  auto points = vtkSmartPointer<vtkPoints>::New();
  for (const auto& x : mesh.nodes) points->InsertNextPoint(x.data());
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  auto group = vtkSmartPointer<vtkIntArray>::New();
  group->SetName("group");
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const vtkIdType ids[3] = {mesh.triangles[t][0], mesh.triangles[t][1], mesh.triangles[t][2]};
    polys->InsertNextCell(3, ids);
    group->InsertNextValue(mesh.group_of_triangle[t]);
  }
  data->SetPoints(points);
  data->SetPolys(polys);
  data->GetCellData()->AddArray(group);
  auto names = vtkSmartPointer<vtkStringArray>::New();
  names->SetName("group_names");
  for (const auto& n : mesh.group_names) names->InsertNextValue(n);
  data->GetFieldData()->AddArray(names);
  const auto path = geobem::test::scratch(name);
  auto writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  writer->SetFileName(path.c_str());
  writer->SetInputData(data);
  EXPECT_EQ(writer->Write(), 1);
  return path;
}

std::vector<GroupSelection> cube_face_selections() {
  std::vector<GroupSelection> selections;
  for (const char* text : {"x_min=x=0", "x_max=x=1", "y_min=y=0", "y_max=y=1", "z_min=z=0", "z_max=z=1"})
    selections.push_back(parse_group_selection(text));
  return selections;
}

}  // namespace

TEST(SurfaceReaders, AllFormatsGiveTheSameCube) {
  const SurfaceMesh expected = cube();
  const auto reference = canonical(expected);
  ASSERT_EQ(reference.size(), 12u);

  SurfaceMesh from_msh22 = read_surface_mesh(write_text("cube22.msh", msh22(expected)));
  SurfaceMesh from_msh41 = read_surface_mesh(write_text("cube41.msh", msh41(expected)));
  SurfaceMesh from_vtp = read_surface_mesh(write_vtp(expected, "cube.vtp"));
  SurfaceMesh from_stl = read_surface_mesh(write_text("cube.stl", ascii_stl(expected)));
  EXPECT_TRUE(from_stl.group_names.empty());
  assign_groups(from_stl, cube_face_selections(), std::nullopt);

  for (const auto* mesh : {&from_msh22, &from_msh41, &from_vtp, &from_stl}) {
    EXPECT_EQ(mesh->nodes.size(), 8u);
    EXPECT_EQ(mesh->group_names, expected.group_names);
    EXPECT_EQ(canonical(*mesh), reference);
    EXPECT_TRUE(check_surface_mesh(*mesh).ok()) << check_surface_mesh(*mesh).message();
    EXPECT_NEAR(enclosed_volume(*mesh), 1.0, 1e-14);
  }
}

TEST(SurfaceReaders, VtuRoundTripKeepsGroupsAndWritesNormals) {
  const SurfaceMesh rod = generate_box_surface({3, 1, 1}, {0, 0, 0}, 0.5);
  const auto path = geobem::test::scratch("rod.vtu");
  write_surface_vtu(rod, path);
  const SurfaceMesh back = read_surface_mesh(path);
  EXPECT_EQ(back.nodes, rod.nodes);
  EXPECT_EQ(back.triangles, rod.triangles);
  EXPECT_EQ(back.group_of_triangle, rod.group_of_triangle);
  EXPECT_EQ(back.group_names, rod.group_names);
  const auto grid = surface_to_vtk(rod);
  auto* normal = grid->GetCellData()->GetArray("normal");
  ASSERT_NE(normal, nullptr);
  // The first triangle lies on x_min: normal −x.
  EXPECT_EQ(rod.group_of_triangle[0], 0);
  EXPECT_DOUBLE_EQ(normal->GetComponent(0, 0), -1.0);
}

TEST(SurfaceReaders, UntaggedGmshSurfaceNeedsGroups) {
  // A 2.2 file without physical groups: elementary tags only.
  SurfaceMesh read = read_surface_mesh(write_text("untagged.msh", msh22(cube(), false)));
  EXPECT_TRUE(read.group_names.empty());
  // Triangle 0 is the generator's first on x_min: (0,0,0), (0,0,1), (0,1,1).
  const std::string message = error_of([&] { assign_groups(read, {}, std::nullopt); });
  EXPECT_EQ(message.rfind("12 of 12 triangles are in no boundary group, e.g. triangle 0 (centroid (0, 0.333333, 0.666667)), ", 0), 0u)
      << message;
  EXPECT_NE(message.find("; select them with --group or name a --default-group"), std::string::npos);
  assign_groups(read, {parse_group_selection("fixed=x=0")}, std::string("free"));
  EXPECT_EQ(read.group_names, (std::vector<std::string>{"fixed", "free"}));
  EXPECT_EQ(std::count(read.group_of_triangle.begin(), read.group_of_triangle.end(), 0), 2);
  EXPECT_TRUE(check_surface_mesh(read).ok());
}

TEST(SurfaceReaders, BadFilesNameTheFile) {
  const auto garbage = write_text("garbage.msh", "this is not a mesh\n");
  EXPECT_EQ(error_of([&] { read_surface_mesh(garbage); }),
            garbage.string() + ":1: expected a section such as $Nodes, found 'this'");
  EXPECT_EQ(error_of([&] { read_surface_mesh("/nonexistent/cube.msh"); }),
            "/nonexistent/cube.msh: no such file");
  EXPECT_EQ(error_of([&] { read_surface_mesh("/nonexistent/cube.stl"); }),
            "/nonexistent/cube.stl: no such file");
  const auto bad_stl = write_text("garbage.stl", "garbage\n");
  const std::string stl_error = error_of([&] { read_surface_mesh(bad_stl); });
  EXPECT_EQ(stl_error.rfind(bad_stl.string() + ": VTK cannot read it as STL: ", 0), 0u) << stl_error;
  EXPECT_NE(stl_error.find("Expecting 'solid' found 'garbage'"), std::string::npos) << stl_error;
  // Formats by content: text named otherwise is a .geo script, which only
  // geobem-mesh meshes; a .msh renamed .geo is still read as .msh.
  const auto obj = write_text("cube.obj", "v 0 0 0\n");
  EXPECT_EQ(error_of([&] { read_surface_mesh(obj); }),
            obj.string() + ": not a mesh (.msh, .vtu, .vtp or .stl) but text, read as a Gmsh .geo script only by "
                           "geobem-mesh --input");
  const auto renamed = write_text("renamed.geo", msh22(cube(), true));
  EXPECT_EQ(detect_mesh_format(renamed), MeshFileFormat::GmshMsh);
  EXPECT_EQ(read_surface_mesh(renamed).triangles.size(), 12u);

  // A quadrangle face (Gmsh type 3) is refused with the element's tag.
  const std::string quad =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n"
      "$Elements\n1\n7 3 2 1 1 1 2 3 4\n$EndElements\n";
  const auto quad_path = write_text("quad.msh", quad);
  EXPECT_NE(error_of([&] { read_surface_mesh(quad_path); })
                .find(quad_path.string() + ":13: element 7 of surface entity 1 is a 4-node quadrangle (Gmsh type 3); "
                                           "only 3-node triangles are supported"),
            std::string::npos)
      << error_of([&] { read_surface_mesh(quad_path); });
}

TEST(GroupSelections, ParseAndRefuse) {
  const auto plane = parse_group_selection("load=x=3:0.01");
  EXPECT_EQ(plane.name, "load");
  EXPECT_EQ(plane.axis, 0);
  EXPECT_DOUBLE_EQ(plane.value, 3);
  EXPECT_DOUBLE_EQ(*plane.tolerance, 0.01);
  const auto box = parse_group_selection("end=box:2.9,3.1,-1,2,-1,2");
  EXPECT_EQ(box.axis, -1);
  EXPECT_FALSE(box.tolerance.has_value());
  EXPECT_DOUBLE_EQ(box.high[0], 3.1);
  EXPECT_NE(error_of([] { parse_group_selection("x=0"); }).find("unknown region '0'"), std::string::npos);
  EXPECT_NE(error_of([] { parse_group_selection("a=w=0"); }).find("unknown region 'w=0'"), std::string::npos);
  EXPECT_NE(error_of([] { parse_group_selection("a=box:1,0,0,1,0,1"); }).find("box minimum above maximum along x"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_group_selection("a=z=abc"); }).find("'abc' is not a finite number"),
            std::string::npos);

  SurfaceMesh mesh = generate_box_surface({3, 1, 1}, {0, 0, 0}, 0.5);
  mesh.group_names.clear();
  // The box selects the whole end face x = 3 and the strips of the sides
  // next to it, which the plane x = 3 does not; a side strip triangle lies
  // in both the box and the plane y = 0 → overlap.
  EXPECT_NE(error_of([&] {
              auto copy = mesh;
              assign_groups(copy, {parse_group_selection("end=box:2.5,3,0,1,0,1"), parse_group_selection("side=y=0")},
                            std::string("rest"));
            }).find("is inside both --group 'end=box:2.5,3,0,1,0,1' and --group 'side=y=0'"),
            std::string::npos);
  EXPECT_EQ(error_of([&] {
              auto copy = mesh;
              assign_groups(copy, {parse_group_selection("end=x=3.5")}, std::string("rest"));
            }),
            "--group 'end=x=3.5' selects no triangle");
  SurfaceMesh tagged = generate_box_surface({1, 1, 1}, {0, 0, 0}, 2.0);
  EXPECT_EQ(error_of([&] { assign_groups(tagged, {parse_group_selection("a=x=0")}, std::nullopt); }),
            "the mesh has its own boundary groups; --group selections are for files without");
}
