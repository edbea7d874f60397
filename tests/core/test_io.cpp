#include <gtest/gtest.h>

#include <vtkDoubleArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLStructuredGridWriter.h>

#include <cmath>
#include <filesystem>
#include <iterator>
#include <string>
#include <fstream>

#include "gpu/core/atomic_file.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/vtk_output.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using geobem::test::read_text;
using geobem::test::scratch;

namespace {

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

TEST(AtomicFile, FailedWriteKeepsOldFileAndLeavesNoTemporary) {
  const auto path = scratch("keep.txt");
  write(path, "old");
  EXPECT_THROW(geobem::write_text_file_atomically(path, [](std::ostream& out) {
                 out << "half";
                 throw std::runtime_error("interrupted");
               }),
               std::runtime_error);
  EXPECT_EQ(read_text(path), "old");
  for (const auto& entry : fs::directory_iterator(path.parent_path()))
    EXPECT_EQ(entry.path().filename().string().find(".partial-"), std::string::npos) << entry.path();
  geobem::write_text_file_atomically(path, [](std::ostream& out) { out << "new"; });
  EXPECT_EQ(read_text(path), "new");
}

TEST(AtomicFile, StreamErrorNamesTheFinalPathAndKeepsOldFile) {
  // A write that fails as a full disk does (the stream's badbit): the message
  // names the file the user asked for, not its temporary.
  const auto path = scratch("named.txt");
  write(path, "old");
  try {
    geobem::write_text_file_atomically(path, [](std::ostream& out) {
      out << "half";
      out.setstate(std::ios::badbit);
    });
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("error while writing '" + path.string() + "'"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(read_text(path), "old");
  for (const auto& entry : fs::directory_iterator(path.parent_path()))
    EXPECT_EQ(entry.path().filename().string().find(".partial-"), std::string::npos) << entry.path();
}

TEST(CsvTable, ReadsHeaderCommentsAndRows) {
  const auto path = scratch("ok.csv");
  write(path, "# comment\na, b ,c\n1,2.5,-3e2\n\n  # another\n4,5,6\n");
  const auto table = geobem::read_csv_table(path.string());
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.column("b"), 1u);
  EXPECT_DOUBLE_EQ(table.rows[0][2], -300.0);
  EXPECT_EQ(table.line_numbers[1], 6u);
  EXPECT_EQ(table.where(1), path.string() + ":6");
}

void expect_error_containing(const fs::path& path, const std::string& text, const std::string& expected) {
  write(path, text);
  try {
    geobem::read_csv_table(path.string());
    FAIL() << "no error for " << text;
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
  }
}

TEST(CsvTable, BrokenFilesNameFileAndLine) {
  const auto path = scratch("bad.csv");
  expect_error_containing(path, "a,b\n1,2\n3\n", ":3: expected 2 fields");
  expect_error_containing(path, "a,b\n1,x\n", ":2: column 'b': 'x' is not a number");
  expect_error_containing(path, "a,b\n1,\n", ":2: column 'b'");
  expect_error_containing(path, "a,b\n1,nan\n", ":2: column 'b': 'nan' is not a number");
  expect_error_containing(path, "a,b\n1,1e999\n", ":2: column 'b': value '1e999' is not finite");
  expect_error_containing(path, "# only a comment\n", "empty file");
  EXPECT_THROW(geobem::read_csv_table(scratch("missing.csv").string()), std::runtime_error);
  write(path, "a,b\n1,2\n");
  EXPECT_THROW(geobem::read_csv_table(path.string()).column("c"), std::runtime_error);
}

TEST(VtkOutput, StructuredGridRoundTripWithUnits) {
  auto grid = vtkSmartPointer<vtkStructuredGrid>::New();
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto values = vtkSmartPointer<vtkDoubleArray>::New();
  values->SetName("g_z");
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) {
      points->InsertNextPoint(i, j, 0.0);
      values->InsertNextValue(i + 10.0 * j);
    }
  grid->SetDimensions(3, 2, 1);
  grid->SetPoints(points);
  grid->GetPointData()->AddArray(values);
  geobem::add_units_field_data(grid, {{"g_z", "mGal"}});
  const auto path = scratch("grid.vts");
  geobem::write_vtk_xml(grid, path);
  const auto data = geobem::read_vtk_xml(path);
  auto* back = vtkStructuredGrid::SafeDownCast(data);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->GetNumberOfPoints(), 6);
  EXPECT_DOUBLE_EQ(back->GetPointData()->GetArray("g_z")->GetTuple1(5), 12.0);
  const auto units = geobem::read_units_field_data(back);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].second, "mGal");
  EXPECT_THROW(geobem::write_vtk_xml(grid, scratch("grid.vtu")), std::runtime_error);
  EXPECT_THROW(geobem::read_vtk_xml(scratch("absent.vts")), std::runtime_error);
}

// A .pvd as ParaView reads it: the DataSet elements' attributes through
// VTK's XML parser; the part names (ParaView's block names) written, the
// times as their shortest round-trip text, and characters XML reserves
// escaped, so that they read back as written.
TEST(VtkOutput, PvdCollectionNamesItsParts) {
  const auto path = scratch("series.pvd");
  geobem::write_pvd_collection(path, {{0.0, "solution/step_00000.vtu", 0, "surface"},
                                      {0.0, "receivers/step_00000.vtp", 1, "receivers"},
                                      {0.1, "solution/step_00001.vtu", 0, "surface"},
                                      {0.1, "receivers/step_00001.vtp", 1, "receivers"},
                                      {0.30000000000000004, "solution/step_00002.vtu", 0, ""}});
  auto parser = vtkSmartPointer<vtkXMLDataParser>::New();
  parser->SetFileName(path.c_str());
  ASSERT_EQ(parser->Parse(), 1);
  vtkXMLDataElement* collection = parser->GetRootElement()->FindNestedElementWithName("Collection");
  ASSERT_NE(collection, nullptr);
  ASSERT_EQ(collection->GetNumberOfNestedElements(), 5);
  const char* expected[][4] = {{"0", "0", "surface", "solution/step_00000.vtu"},
                               {"0", "1", "receivers", "receivers/step_00000.vtp"},
                               {"0.1", "0", "surface", "solution/step_00001.vtu"},
                               {"0.1", "1", "receivers", "receivers/step_00001.vtp"}};
  for (int k = 0; k < 4; ++k) {
    vtkXMLDataElement* data_set = collection->GetNestedElement(k);
    EXPECT_STREQ(data_set->GetName(), "DataSet");
    EXPECT_STREQ(data_set->GetAttribute("timestep"), expected[k][0]);
    EXPECT_STREQ(data_set->GetAttribute("part"), expected[k][1]);
    EXPECT_STREQ(data_set->GetAttribute("name"), expected[k][2]);
    EXPECT_STREQ(data_set->GetAttribute("file"), expected[k][3]);
  }
  // No name: no attribute (ParaView then says Block0); a computed time keeps its digits.
  EXPECT_EQ(collection->GetNestedElement(4)->GetAttribute("name"), nullptr);
  EXPECT_STREQ(collection->GetNestedElement(4)->GetAttribute("timestep"), "0.30000000000000004");

  const auto odd = scratch("odd.pvd");
  geobem::write_pvd_collection(odd, {{0.0, "a&b <1>.vtu", 0, "wall \"A\" & 'B'"}});
  auto odd_parser = vtkSmartPointer<vtkXMLDataParser>::New();
  odd_parser->SetFileName(odd.c_str());
  ASSERT_EQ(odd_parser->Parse(), 1);
  vtkXMLDataElement* odd_set = odd_parser->GetRootElement()->FindNestedElementWithName("Collection")->GetNestedElement(0);
  EXPECT_STREQ(odd_set->GetAttribute("name"), "wall \"A\" & 'B'");
  EXPECT_STREQ(odd_set->GetAttribute("file"), "a&b <1>.vtu");
}

// write_vtk_xml builds the file in memory and writes it at once; the bytes
// must be those of VTK's own writer writing the file itself (appended,
// zlib), over several compression blocks (80 kB of values, blocks of 32 kB).
TEST(VtkOutput, SameBytesAsVtkWritingTheFileItself) {
  // A fresh grid for each writer: a writer caches ranges in the arrays it
  // writes, and the next writer of the same grid writes that cache too.
  const auto make_grid = [] {
    auto grid = vtkSmartPointer<vtkStructuredGrid>::New();
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto values = vtkSmartPointer<vtkDoubleArray>::New();
    values->SetName("g_z");
    for (int j = 0; j < 100; ++j)
      for (int i = 0; i < 100; ++i) {
        points->InsertNextPoint(i, j, 0.0);
        values->InsertNextValue(std::sin(0.37 * i) * std::cos(0.11 * j));
      }
    grid->SetDimensions(100, 100, 1);
    grid->SetPoints(points);
    grid->GetPointData()->AddArray(values);
    return grid;
  };
  const auto ours = scratch("ours.vts"), theirs = scratch("theirs.vts");
  geobem::write_vtk_xml(make_grid(), ours);
  auto writer = vtkSmartPointer<vtkXMLStructuredGridWriter>::New();
  writer->SetInputData(make_grid());
  writer->SetFileName(theirs.c_str());
  writer->SetDataModeToAppended();
  writer->SetCompressorTypeToZLib();
  ASSERT_EQ(writer->Write(), 1);
  const auto bytes = [](const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string a = bytes(ours), b = bytes(theirs);
  EXPECT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == b) << a.size() << " bytes against VTK's " << b.size();
}

}  // namespace
