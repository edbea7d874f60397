// VTK model files that crashed, ran away or leaked in VTK 9.1's readers (an
// ASCII `nan`, arrays shorter or longer than their piece, a negative extent,
// an unknown type name, point ids beyond the points, an edited compression
// header, a component count of 2^31 − 1, an array without a format, a cell
// array given twice): each must end in an error naming the file and the
// array, cell or value. And
// every encoding VTK's own writers produce must pass the check and read back
// exactly.
#include <gtest/gtest.h>

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <fstream>
#include <string>

#include "mesh/io/vtk_xml_check.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "mesh/prisms/vtk_model.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem::prisms;
using geobem::test::error_of;
using geobem::test::read_text;
using geobem::test::scratch;
using geobem::test::write_text;

namespace {

/// One unit cube as an ASCII .vtu: DENSITY, POINTS (NumberOfPoints), CELLS
/// (NumberOfCells) and the connectivity text are the parts the cases edit.
std::string cube_vtu(const std::string& density, const std::string& points, const std::string& cells,
                     const std::string& connectivity) {
  return "<?xml version=\"1.0\"?>\n"
         "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
         "<UnstructuredGrid><Piece NumberOfPoints=\"" + points + "\" NumberOfCells=\"" + cells + "\">\n"
         "<CellData><DataArray type=\"Float64\" Name=\"density\" format=\"ascii\">" + density + "</DataArray></CellData>\n"
         "<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n"
         "0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1</DataArray></Points>\n"
         "<Cells><DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">" + connectivity + "</DataArray>\n"
         "<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">8</DataArray>\n"
         "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">12</DataArray></Cells>\n"
         "</Piece></UnstructuredGrid></VTKFile>\n";
}

const std::string all_corners = "0 1 2 3 4 5 6 7";

std::string model_error(const std::string& name, const std::string& text) {
  const auto path = write_text(name, text);
  return error_of([&] { read_prism_model(path.string()); });
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// A 2 x 1 x 1 grid model written by write_grid_vtr (compressed, appended base64).
std::string grid_vtr_text() {
  PrismGrid grid;
  grid.easting_edges = {0, 10, 20};
  grid.northing_edges = {0, 10};
  grid.upward_edges = {-10, 0};
  grid.density = {1000, 2000};
  const auto path = scratch("grid.vtr");
  write_grid_vtr(path, grid);
  return read_text(path);
}

}  // namespace

TEST(HostileVtk, AsciiCubeReadsBack) {
  const auto path = write_text("cube.vtu", cube_vtu("1000", "8", "1", all_corners));
  const PrismModel model = read_prism_model(path.string());
  ASSERT_EQ(model.prisms.size(), 1u);
  EXPECT_EQ(model.prisms[0].east, 1.0);
  EXPECT_EQ(model.prisms[0].density, 1000.0);
}

TEST(HostileVtk, NanDensityNamesTheArrayAndValue) {
  const std::string error = model_error("nan.vtu", cube_vtu("nan", "8", "1", all_corners));
  EXPECT_NE(error.find("nan.vtu: line 4: CellData array 'density'"), std::string::npos) << error;
  EXPECT_NE(error.find("value 0 'nan' is not a finite decimal number"), std::string::npos) << error;
}

TEST(HostileVtk, CountsThatDisagreeWithTheData) {
  // NumberOfCells 2 with one cell's data; NumberOfPoints 1 with 8 points.
  EXPECT_NE(model_error("cells.vtu", cube_vtu("1000", "8", "2", all_corners)).find("1 values for 2 tuples"),
            std::string::npos);
  EXPECT_NE(model_error("points.vtu", cube_vtu("1000", "1", "1", all_corners)).find("more than the 3 values expected"),
            std::string::npos);
}

TEST(HostileVtk, PointIdsBeyondThePointsAndRepeatedCorners) {
  const std::string beyond = model_error("ids.vtu", cube_vtu("1000", "8", "1", "0 1 2 3 4 5 6 100000000"));
  EXPECT_NE(beyond.find("connectivity names point 100000000, but the piece has 8 points"), std::string::npos)
      << beyond;
  const std::string two = model_error("two.vtu", cube_vtu("1000", "8", "1", "0 6 0 6 0 6 0 6"));
  EXPECT_NE(two.find("cell 0: its 8 points are not the 8 distinct corners of a box"), std::string::npos) << two;
}

TEST(HostileVtk, CellArrayGivenTwiceIsRefused) {
  // VTK 9.1 read the second and leaked the first (found by fuzz_vtk_model).
  const std::string twice = "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">12</DataArray>";
  const std::string error =
      model_error("twice.vtu", replaced(cube_vtu("1000", "8", "1", all_corners), twice, twice + "\n" + twice));
  EXPECT_NE(error.find("twice.vtu: line 10: array 'types' appears twice in <Cells>"), std::string::npos) << error;
}

TEST(HostileVtk, ImageWithTooFewValuesOrHugeComponentCount) {
  const auto vti = [](const std::string& components, const std::string& values) {
    return "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
           "<ImageData WholeExtent=\"0 2 0 2 0 1\" Origin=\"0 0 0\" Spacing=\"10 10 10\">"
           "<Piece Extent=\"0 2 0 2 0 1\"><CellData>\n<DataArray type=\"Float64\" Name=\"density\" "
           "NumberOfComponents=\"" + components + "\" format=\"ascii\">" + values +
           "</DataArray></CellData></Piece></ImageData></VTKFile>\n";
  };
  EXPECT_EQ(read_prism_model(write_text("ok.vti", vti("1", "1 2 3 4")).string()).prisms.size(), 4u);
  EXPECT_NE(model_error("few.vti", vti("1", "1 2 3")).find("3 values for 4 tuples"), std::string::npos);
  const std::string origin = model_error("origin.vti", replaced(vti("1", "1 2 3 4"), "Origin=\"0 0 0\"", "Origin=\"inf 0 0\""));
  EXPECT_NE(origin.find("Origin 'inf 0 0': 'inf' is not a finite number"), std::string::npos) << origin;
  const std::string huge = model_error("huge.vti", vti("2147483647", "1 2 3 4"));
  EXPECT_NE(huge.find("needs 68719476704 bytes"), std::string::npos) << huge;
  // Found by fuzzing: VTK 9.1 dereferences a missing format attribute.
  const std::string formatless = model_error("formatless.vti", replaced(vti("1", "1 2 3 4"), "format=\"ascii\"", "offset=\"ascii\""));
  EXPECT_NE(formatless.find("CellData array 'density' (piece 0): no format attribute"), std::string::npos) << formatless;
}

TEST(HostileVtk, ExtentsBeyondTheDataOrRunningBackwards) {
  const std::string vtr = grid_vtr_text();
  EXPECT_EQ(read_prism_model(write_text("ok.vtr", vtr).string()).prisms.size(), 2u);
  const std::string larger = replaced(replaced(vtr, "Piece Extent=\"0 2 0 1 0 1\"", "Piece Extent=\"0 3 0 1 0 1\""),
                                      "WholeExtent=\"0 2 0 1 0 1\"", "WholeExtent=\"0 3 0 1 0 1\"");
  const std::string larger_error = model_error("larger.vtr", larger);
  EXPECT_NE(larger_error.find("'density' (piece 0): its header declares 16 bytes, the piece needs 24"),
            std::string::npos)
      << larger_error;
  const std::string negative = model_error("negative.vtr", replaced(vtr, "Piece Extent=\"0 2", "Piece Extent=\"0 -2"));
  EXPECT_NE(negative.find("axis 0 runs from 0 down to -2"), std::string::npos) << negative;
  const std::string outside = model_error("outside.vtr", replaced(vtr, "Piece Extent=\"0 2", "Piece Extent=\"1 3"));
  EXPECT_NE(outside.find("lies outside the WholeExtent"), std::string::npos) << outside;
}

TEST(HostileVtk, UnknownTypeNameAndEditedCompressionHeader) {
  const std::string vtr = grid_vtr_text();
  const std::string type = model_error("type.vtr", replaced(vtr, "type=\"String\"", "type=\"Striwg\""));
  EXPECT_NE(type.find("FieldData array 'units': type 'Striwg'"), std::string::npos) << type;
  // The density header (base64 of 1 block of 32768 bytes, 16 in the last):
  // the last block made 2^31 − 16 bytes, as a one-word edit of the header does.
  const auto marker = vtr.find('_', vtr.find("<AppendedData"));
  const auto density_offset = vtr.find("offset=\"", vtr.find("Name=\"density\"")) + 8;
  const std::size_t offset = std::stoul(vtr.substr(density_offset));
  std::string edited = vtr;
  edited.replace(marker + 1 + offset, 16, "AQAAAACAAADw//9/");  // 1, 32768, 0x7ffffff0
  const std::string header = model_error("header.vtr", edited);
  EXPECT_NE(header.find("'density' (piece 0)"), std::string::npos) << header;
  EXPECT_NE(header.find("compression header"), std::string::npos) << header;
}

TEST(HostileVtk, EveryEncodingOfVtksWriterPasses) {
  // Two boxes written by VTK's own writer in each data mode, compression and
  // header width; the check (our decoder) must accept each and the model
  // must read back the same.
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto density = vtkSmartPointer<vtkDoubleArray>::New();
  density->SetName("density");
  for (int c = 0; c < 2; ++c) {
    vtkIdType ids[8];
    for (int k = 0; k < 8; ++k)
      ids[k] = points->InsertNextPoint(10.0 * c + ((k == 1 || k == 2 || k == 5 || k == 6) ? 5 : 0),
                                       (k == 2 || k == 3 || k == 6 || k == 7) ? 4 : 0, k >= 4 ? 0 : -3);
    grid->InsertNextCell(VTK_HEXAHEDRON, 8, ids);
    density->InsertNextValue(1500.0 + c);
  }
  grid->SetPoints(points);
  grid->GetCellData()->AddArray(density);
  int variant = 0;
  for (int mode : {0, 1, 2})  // ascii, binary (inline base64), appended
    for (bool compress : {false, true})
      for (bool raw : {false, true})
        for (bool wide_header : {false, true}) {
          if ((mode != 2 && raw) || (mode == 0 && compress)) continue;
          const auto path = scratch("variant" + std::to_string(variant++) + ".vtu");
          auto writer = vtkSmartPointer<vtkXMLUnstructuredGridWriter>::New();
          writer->SetInputData(grid);
          writer->SetFileName(path.c_str());
          writer->SetDataMode(mode);
          writer->SetEncodeAppendedData(!raw);
          writer->SetHeaderType(wide_header ? 64 : 32);
          if (compress)
            writer->SetCompressorTypeToZLib();
          else
            writer->SetCompressorTypeToNone();
          writer->SetBlockSize(16);  // several compression blocks per array
          ASSERT_EQ(writer->Write(), 1);
          const std::string what = "mode " + std::to_string(mode) + (compress ? " zlib" : "") + (raw ? " raw" : "") +
                                   (wide_header ? " UInt64" : " UInt32");
          EXPECT_EQ(error_of([&] { geobem::check_vtk_xml_file(path); }), "") << what;
          const PrismModel model = read_prism_model(path.string());
          ASSERT_EQ(model.prisms.size(), 2u) << what;
          EXPECT_EQ(model.prisms[1].west, 10.0) << what;
          EXPECT_EQ(model.prisms[1].north, 4.0) << what;
          EXPECT_EQ(model.prisms[1].bottom, -3.0) << what;
          EXPECT_EQ(model.prisms[1].density, 1501.0) << what;
        }
  EXPECT_EQ(variant, 14);
}

TEST(HostileVtk, MemoryBudgetAndTruncation) {
  const std::string vtr = grid_vtr_text();
  const std::string budget = error_of([&] { geobem::check_vtk_xml(vtr, "small.vtr", 8); });
  EXPECT_NE(budget.find("more than the 8 bytes of memory available"), std::string::npos) << budget;
  for (std::size_t length : {std::size_t{0}, std::size_t{40}, vtr.size() / 2, vtr.size() - 40}) {
    const std::string error = error_of([&] { geobem::check_vtk_xml(vtr.substr(0, length), "cut.vtr", 1 << 20); });
    EXPECT_NE(error.find("cut.vtr: "), std::string::npos) << length << ": " << error;
  }
}
