// Station grids and CSV, and the gravity result files read back with VTK.
#include <gtest/gtest.h>

#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkStructuredGrid.h>
#include <vtkUnstructuredGrid.h>

#include "mesh/io/csv_table.hpp"
#include "mesh/io/vtk_output.hpp"
#include "mesh/prisms/gravity_output.hpp"
#include "tests/support/test_files.hpp"
#include "tests/support/structured_grid_file.hpp"

using namespace geobem::prisms;
using geobem::test::error_of;
using geobem::test::scratch;
using geobem::test::write_text;

namespace {

TEST(StationGrid, EndsIncludedEastingFastest) {
  const StationGrid grid{0, 22000, -100, 100, 3, 2, 100};
  check_station_grid(grid);
  const auto stations = grid_stations(grid);
  ASSERT_EQ(stations.size(), 6u);
  EXPECT_EQ(stations[1].easting, 11000);
  EXPECT_EQ(stations[2].easting, 22000);
  EXPECT_EQ(stations[2].northing, -100);
  EXPECT_EQ(stations[3].easting, 0);
  EXPECT_EQ(stations[3].northing, 100);
  EXPECT_EQ(stations[5].upward, 100);
}

TEST(StationGrid, ZeroSizeAndInvertedGridsAreErrors) {
  EXPECT_NE(error_of([] { check_station_grid({0, 1, 0, 1, 0, 10, 0}); }).find("shape 0,10 has no stations"),
            std::string::npos);
  EXPECT_NE(error_of([] { check_station_grid({5, 1, 0, 1, 2, 2, 0}); }).find("west = 5, east = 1"),
            std::string::npos);
  EXPECT_EQ(error_of([] { check_station_grid({5, 5, 0, 1, 1, 2, 0}); }), "");  // one column at west
}

TEST(StationCsv, ReadsAndRejectsBadRows) {
  const auto good = write_text("stations.csv", "# stations\nupward,easting,northing\n100,-40,0\n100,40,0\n");
  const auto stations = read_station_csv(good.string());
  ASSERT_EQ(stations.size(), 2u);
  EXPECT_EQ(stations[1].easting, 40);
  EXPECT_EQ(stations[1].upward, 100);
  const auto bad = write_text("stations_bad.csv", "easting,northing,upward\n1,2,3\n1,2\n");
  EXPECT_NE(error_of([&] { read_station_csv(bad.string()); }).find(bad.string() + ":3"), std::string::npos);
  const auto empty = write_text("stations_empty.csv", "easting,northing,upward\n");
  EXPECT_NE(error_of([&] { read_station_csv(empty.string()); }).find("no stations"), std::string::npos);
}

std::vector<GravityColumn> columns_for(std::size_t count) {
  GravityColumn g_z{"g_z", "mGal", {}}, g_zz{"g_zz", "Eotvos", {}};
  for (std::size_t s = 0; s < count; ++s) {
    g_z.values.push_back(0.5 + s);
    g_zz.values.push_back(-1.0 / (1.0 + s));
  }
  return {g_z, g_zz};
}

TEST(GravityOutput, GridWritesConsistentCsvAndVts) {
  const StationGrid grid{0, 30, 0, 10, 4, 3, 100};
  const auto stations = grid_stations(grid);
  const auto columns = columns_for(stations.size());
  const auto dir = scratch("grid_out");
  const auto written = write_gravity_outputs(dir, stations, StationGridShape{grid.shape_e, grid.shape_n}, columns);
  ASSERT_EQ(written.size(), 2u);
  EXPECT_EQ(written[1].filename(), "gravity.vts");

  const geobem::CsvTable table = geobem::read_csv_table((dir / "gravity.csv").string());
  EXPECT_EQ(table.columns, (std::vector<std::string>{"easting", "northing", "upward", "g_z", "g_zz"}));
  ASSERT_EQ(table.rows.size(), 12u);

  const auto vts_file = geobem::test::read_structured_grid(dir / "gravity.vts");
  vtkStructuredGrid* vts = vts_file.grid;
  ASSERT_NE(vts, nullptr);
  EXPECT_EQ(vts_file.dims, (std::array<int, 3>{4, 3, 1}));
  vtkDataArray* g_zz = vts->GetPointData()->GetArray("g_zz");
  ASSERT_NE(g_zz, nullptr);
  for (vtkIdType s = 0; s < 12; ++s) {
    double point[3];
    vts->GetPoint(s, point);
    EXPECT_EQ(point[0], table.rows[s][0]);
    EXPECT_EQ(point[1], table.rows[s][1]);
    EXPECT_EQ(point[2], 100);
    EXPECT_EQ(g_zz->GetComponent(s, 0), table.rows[s][4]);
    EXPECT_EQ(table.rows[s][3], 0.5 + s);
  }
  const auto units = geobem::read_units_field_data(vts_file.data);
  EXPECT_NE(std::find(units.begin(), units.end(), std::make_pair(std::string("g_zz"), std::string("Eotvos"))),
            units.end());
}

TEST(GravityOutput, ScatteredStationsWriteVertexVtu) {
  const std::vector<Station> stations{{1, 2, 3}, {4, 5, 6}, {-7, 8, 9}};
  const auto dir = scratch("scattered_out");
  write_gravity_outputs(dir, stations, std::nullopt, columns_for(3));
  auto data = geobem::read_vtk_xml(dir / "gravity.vtu");
  auto* vtu = vtkUnstructuredGrid::SafeDownCast(data);
  ASSERT_NE(vtu, nullptr);
  ASSERT_EQ(vtu->GetNumberOfCells(), 3);
  EXPECT_EQ(vtu->GetCellType(2), VTK_VERTEX);
  double point[3];
  vtu->GetPoint(2, point);
  EXPECT_EQ(point[0], -7);
  EXPECT_EQ(vtu->GetPointData()->GetArray("g_z")->GetComponent(2, 0), 2.5);
  EXPECT_FALSE(std::filesystem::exists(dir / "gravity.vts"));
}

TEST(GravityOutput, ColumnLengthMismatchWritesNothing) {
  const auto dir = scratch("mismatch_out");
  const std::vector<Station> stations{{0, 0, 0}, {1, 0, 0}};
  EXPECT_THROW(write_gravity_outputs(dir, stations, std::nullopt, columns_for(3)), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(dir / "gravity.csv"));
}

}  // namespace
