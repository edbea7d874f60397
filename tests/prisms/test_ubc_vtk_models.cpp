// UBC-GIF and VTK model readers against the prism CSV of the same model, and
// their bad-input messages.
#include <gtest/gtest.h>

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkImageData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkRectilinearGrid.h>
#include <vtkUnstructuredGrid.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "mesh/io/vtk_output.hpp"
#include "mesh/prisms/prism_csv.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "mesh/prisms/vtk_model.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem::prisms;
using geobem::test::error_of;
using geobem::test::scratch;
using geobem::test::write_text;

namespace {

// The reference grid: 2 x 3 x 2 cells of unequal widths, one zero cell.
const std::vector<double> edges_e{100, 150, 250}, edges_n{-20, 0, 30, 60}, edges_u{-300, -100, 0};

double reference_density(int i_e, int i_n, int i_u) {
  if (i_e == 1 && i_n == 2 && i_u == 0) return 0.0;
  return 1000 + 100 * i_e + 10 * i_n + i_u;
}

/// The reference grid as prism CSV text, written cell by cell here.
std::string reference_csv() {
  std::ostringstream csv;
  csv << "west,east,south,north,bottom,top,density\n";
  for (int i_u = 0; i_u < 2; ++i_u)
    for (int i_n = 0; i_n < 3; ++i_n)
      for (int i_e = 0; i_e < 2; ++i_e)
        csv << edges_e[i_e] << ',' << edges_e[i_e + 1] << ',' << edges_n[i_n] << ',' << edges_n[i_n + 1] << ','
            << edges_u[i_u] << ',' << edges_u[i_u + 1] << ',' << reference_density(i_e, i_n, i_u) << '\n';
  return csv.str();
}

std::vector<Prism> sorted_non_zero(std::vector<Prism> prisms) {
  prisms.erase(std::remove_if(prisms.begin(), prisms.end(), [](const Prism& p) { return p.density == 0; }),
               prisms.end());
  std::sort(prisms.begin(), prisms.end(), [](const Prism& a, const Prism& b) {
    return std::tie(a.bottom, a.south, a.west) < std::tie(b.bottom, b.south, b.west);
  });
  return prisms;
}

void expect_same_prisms(const std::vector<Prism>& actual, const std::vector<Prism>& expected) {
  const auto a = sorted_non_zero(actual), e = sorted_non_zero(expected);
  ASSERT_EQ(a.size(), e.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_DOUBLE_EQ(a[i].west, e[i].west) << i;
    EXPECT_DOUBLE_EQ(a[i].east, e[i].east) << i;
    EXPECT_DOUBLE_EQ(a[i].south, e[i].south) << i;
    EXPECT_DOUBLE_EQ(a[i].north, e[i].north) << i;
    EXPECT_DOUBLE_EQ(a[i].bottom, e[i].bottom) << i;
    EXPECT_DOUBLE_EQ(a[i].top, e[i].top) << i;
    EXPECT_EQ(a[i].density, e[i].density) << i;
  }
}

std::vector<Prism> reference_prisms() {
  return read_prism_model(write_text("reference.csv", reference_csv()).string()).prisms;
}

/// UBC files of the reference grid: widths top-down, model values with the
/// vertical index fastest from the top, then easting, then northing.
std::pair<std::string, std::string> reference_ubc(const std::string& name) {
  const auto mesh = write_text(name + ".msh",
                               "! UBC mesh of the reference grid\n"
                               "2 3 2\n"
                               "100 -20 0\n"
                               "50 100\n"
                               "20 2*30\n"
                               "100 200\n");
  std::ostringstream model;
  model << "! densities\n";
  for (int i_n = 0; i_n < 3; ++i_n)
    for (int i_e = 0; i_e < 2; ++i_e)
      for (int k_top = 0; k_top < 2; ++k_top) model << reference_density(i_e, i_n, 1 - k_top) << '\n';
  return {mesh.string(), write_text(name + ".den", model.str()).string()};
}

vtkSmartPointer<vtkDoubleArray> array_of(const char* name, const std::vector<double>& values) {
  auto array = vtkSmartPointer<vtkDoubleArray>::New();
  array->SetName(name);
  for (double v : values) array->InsertNextValue(v);
  return array;
}

vtkSmartPointer<vtkRectilinearGrid> reference_rectilinear() {
  auto grid = vtkSmartPointer<vtkRectilinearGrid>::New();
  grid->SetDimensions(3, 4, 3);
  grid->SetXCoordinates(array_of("x", edges_e));
  grid->SetYCoordinates(array_of("y", edges_n));
  grid->SetZCoordinates(array_of("z", edges_u));
  std::vector<double> density;
  for (int i_u = 0; i_u < 2; ++i_u)
    for (int i_n = 0; i_n < 3; ++i_n)
      for (int i_e = 0; i_e < 2; ++i_e) density.push_back(reference_density(i_e, i_n, i_u));
  grid->GetCellData()->AddArray(array_of("density", density));
  return grid;
}

TEST(UbcModel, MatchesCsvOfTheSameModel) {
  const auto [mesh, model_file] = reference_ubc("ubc");
  const PrismModel model = read_prism_model(mesh, model_file);
  ASSERT_TRUE(model.grid.has_value());
  EXPECT_EQ(model.grid->upward_edges, edges_u);
  EXPECT_EQ(model.grid->northing_edges, edges_n);
  EXPECT_EQ(model.zero_density_dropped, 1u);
  expect_same_prisms(model.prisms, reference_prisms());
}

TEST(UbcModel, BadFilesNameFileAndLine) {
  const auto [mesh, model_file] = reference_ubc("ubc_bad");
  const auto short_model = write_text("short.den", "1\n2\n3\n");
  EXPECT_NE(error_of([&] { read_prism_model(mesh, short_model.string()); }).find("3 values, but the mesh"),
            std::string::npos);
  const auto text_model = write_text("text.den", "1\n2\nrock\n");
  EXPECT_NE(error_of([&] { read_prism_model(mesh, text_model.string()); }).find(text_model.string() + ":3: density 'rock'"),
            std::string::npos);
  const auto nan_model = write_text("nan.den", "1\nnan\n");
  EXPECT_NE(error_of([&] { read_prism_model(mesh, nan_model.string()); }).find("cell (0, 0, 1)"), std::string::npos);
  const auto wide = write_text("wide.msh", "2 3 2\n100 -20 0\n3*50\n20 2*30\n100 200\n");
  EXPECT_NE(error_of([&] { read_prism_model(wide.string(), model_file); }).find(wide.string() + ":3: '3*50' gives more"),
            std::string::npos);
  const auto negative = write_text("negative.msh", "2 3 2\n100 -20 0\n50 100\n20 2*30\n100 -200\n");
  EXPECT_NE(error_of([&] { read_prism_model(negative.string(), model_file); }).find(":5: vertical cell width '-200' must be positive"),
            std::string::npos);
  const std::string missing = scratch("missing.den").string();
  EXPECT_NE(error_of([&] { read_prism_model(mesh, missing); }).find(missing + ": no such file"), std::string::npos);
}

TEST(VtkModel, RectilinearGridMatchesCsv) {
  const auto path = scratch("reference.vtr");
  geobem::write_vtk_xml(reference_rectilinear(), path);
  const PrismModel model = read_prism_model(path.string());
  ASSERT_TRUE(model.grid.has_value());
  EXPECT_EQ(model.grid->cell_count(), 12u);
  expect_same_prisms(model.prisms, reference_prisms());
}

TEST(VtkModel, ImageDataMatchesCsv) {
  auto image = vtkSmartPointer<vtkImageData>::New();
  image->SetDimensions(4, 3, 2);  // 3 x 2 x 1 cells
  image->SetOrigin(10, 20, -30);
  image->SetSpacing(5, 4, 3);
  image->GetCellData()->AddArray(array_of("density", {1, 2, 3, 4, 5, 6}));
  const auto path = scratch("image.vti");
  geobem::write_vtk_xml(image, path);
  const auto csv = write_text("image.csv",
                              "west,east,south,north,bottom,top,density\n"
                              "10,15,20,24,-30,-27,1\n15,20,20,24,-30,-27,2\n20,25,20,24,-30,-27,3\n"
                              "10,15,24,28,-30,-27,4\n15,20,24,28,-30,-27,5\n20,25,24,28,-30,-27,6\n");
  expect_same_prisms(read_prism_model(path.string()).prisms, read_prism_model(csv.string()).prisms);
}

TEST(VtkModel, HexahedraAndVoxelsMatchCsv) {
  // Two cells sharing a face: a hexahedron and a voxel (VTK's other point order).
  auto points = vtkSmartPointer<vtkPoints>::New();
  for (double z : {-2.0, 0.0})
    for (double y : {0.0, 3.0})
      for (double x : {0.0, 1.0, 5.0}) points->InsertNextPoint(x, y, z);
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(points);
  const vtkIdType hexahedron[8] = {0, 1, 4, 3, 6, 7, 10, 9};
  const vtkIdType voxel[8] = {1, 2, 4, 5, 7, 8, 10, 11};
  grid->InsertNextCell(VTK_HEXAHEDRON, 8, hexahedron);
  grid->InsertNextCell(VTK_VOXEL, 8, voxel);
  grid->GetCellData()->AddArray(array_of("density", {-250, 300}));
  const auto path = scratch("cells.vtu");
  geobem::write_vtk_xml(grid, path);
  const auto csv = write_text("cells.csv",
                              "west,east,south,north,bottom,top,density\n0,1,0,3,-2,0,-250\n1,5,0,3,-2,0,300\n");
  expect_same_prisms(read_prism_model(path.string()).prisms, read_prism_model(csv.string()).prisms);
}

TEST(VtkModel, PrismVtuWriterRoundTripsTheCsvModel) {
  const auto reference = reference_prisms();
  const auto path = scratch("written.vtu");
  write_prism_vtu(path, reference);
  expect_same_prisms(read_prism_model(path.string()).prisms, reference);
  const auto data = geobem::read_vtk_xml(path);
  const auto units = geobem::read_units_field_data(data);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0], std::make_pair(std::string("density"), std::string("kg/m^3")));
}

TEST(VtkModel, GridVtrWriterRoundTripsTheUbcGrid) {
  // The UBC reader builds the grid independently of VTK; written as .vtr and
  // read back, it must give the same edges, densities (zero cell included) and prisms.
  const auto [mesh, model_file] = reference_ubc("ubc_to_vtr");
  const PrismModel ubc = read_prism_model(mesh, model_file);
  ASSERT_TRUE(ubc.grid.has_value());
  const auto path = scratch("written_grid.vtr");
  write_grid_vtr(path, *ubc.grid);
  const PrismModel back = read_prism_model(path.string());
  ASSERT_TRUE(back.grid.has_value());
  EXPECT_EQ(back.grid->easting_edges, edges_e);
  EXPECT_EQ(back.grid->northing_edges, edges_n);
  EXPECT_EQ(back.grid->upward_edges, edges_u);
  EXPECT_EQ(back.grid->density, ubc.grid->density);
  EXPECT_EQ(back.zero_density_dropped, 1u);
  expect_same_prisms(back.prisms, reference_prisms());
  const auto units = geobem::read_units_field_data(geobem::read_vtk_xml(path));
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0], std::make_pair(std::string("density"), std::string("kg/m^3")));
}

TEST(VtkModel, BadFilesAreNamed) {
  // The reader's message for `data` written as the scratch file `name`.
  auto refusal = [](vtkDataObject* data, const std::string& name) {
    const auto path = scratch(name);
    geobem::write_vtk_xml(data, path);
    return error_of([&] { read_prism_model(path.string()); });
  };

  auto no_density = reference_rectilinear();
  no_density->GetCellData()->RemoveArray("density");
  no_density->GetCellData()->AddArray(array_of("rho", std::vector<double>(12, 1.0)));
  EXPECT_NE(refusal(no_density, "no_density.vtr").find("no one-component cell array 'density' (cell arrays: rho)"),
            std::string::npos);

  auto nan_density = reference_rectilinear();
  vtkDoubleArray::SafeDownCast(nan_density->GetCellData()->GetArray("density"))->SetValue(7, std::nan(""));
  // Cell 7 in VTK order (easting fastest): i_e = 1, i_n = 0, i_u = 1.
  EXPECT_NE(refusal(nan_density, "nan.vtr").find("cell (1, 0, 1)"), std::string::npos);

  // One cell of `type` on the first `count` corners of a sheared box, density 1.
  auto points = vtkSmartPointer<vtkPoints>::New();
  const double corners[8][3] = {{0, 0, 0}, {1, 0, 0}, {1.5, 1, 0}, {0.5, 1, 0},
                                {0, 0, 1}, {1, 0, 1}, {1.5, 1, 1}, {0.5, 1, 1}};
  for (const auto& c : corners) points->InsertNextPoint(c);
  auto one_cell = [&](VTKCellType type, vtkIdType count) {
    const vtkIdType ids[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
    grid->SetPoints(points);
    grid->InsertNextCell(type, count, ids);
    grid->GetCellData()->AddArray(array_of("density", {1}));
    return grid;
  };
  EXPECT_NE(refusal(one_cell(VTK_HEXAHEDRON, 8), "skewed.vtu").find("cell 0: not an axis-aligned box"),
            std::string::npos);
  EXPECT_NE(refusal(one_cell(VTK_TETRA, 4), "tetra.vtu").find("is not a hexahedron or voxel"), std::string::npos);

  const std::string missing = scratch("missing.vtr").string();
  EXPECT_NE(error_of([&] { read_prism_model(missing); }).find(missing + ": no such file"), std::string::npos);
  const auto garbage = write_text("garbage.vtu", "not xml at all\n");
  EXPECT_NE(error_of([&] { read_prism_model(garbage.string()); }).find(garbage.string()), std::string::npos);
}

}  // namespace
