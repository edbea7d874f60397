// Text model files from other editors and hostile values: a UTF-8
// byte-order mark and CRLF line ends are read like plain files; UBC-GIF's
// no-data value never becomes a density; bounds that overflow the kernels'
// arithmetic and grids larger than the memory are refused with the value.
#include <gtest/gtest.h>

#include <string>

#include "mesh/prisms/prism_csv.hpp"
#include "mesh/prisms/stations.hpp"
#include "mesh/prisms/ubc_model.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem::prisms;
using geobem::test::error_of;
using geobem::test::write_text;

namespace {
std::string windows(const std::string& text) {
  std::string result = "\xEF\xBB\xBF";
  for (char c : text) {
    if (c == '\n') result += '\r';
    result += c;
  }
  return result;
}
}  // namespace

TEST(HostileText, BomAndCrlfInCsvAndUbcFiles) {
  const auto prisms = read_prism_csv(
      write_text("bom.csv", windows("west,east,south,north,bottom,top,density\n0,1,0,2,-3,0,2500\n")).string());
  ASSERT_EQ(prisms.prisms.size(), 1u);
  EXPECT_EQ(prisms.prisms[0].north, 2.0);
  EXPECT_EQ(prisms.prisms[0].density, 2500.0);
  const auto stations =
      read_station_csv(write_text("bom_stations.csv", windows("easting,northing,upward\n1,2,3\n")).string());
  ASSERT_EQ(stations.size(), 1u);
  EXPECT_EQ(stations[0].upward, 3.0);
  const auto mesh = write_text("bom.msh", windows("1 1 1\n0 0 0\n10\n20\n5\n"));
  const auto model = write_text("bom.den", windows("2670\n"));
  const auto grid = read_ubc_model(mesh.string(), model.string());
  ASSERT_EQ(grid.prisms.size(), 1u);
  EXPECT_EQ(grid.prisms[0].density, 2670.0);
  EXPECT_EQ(grid.prisms[0].bottom, -5.0);
}

TEST(HostileText, UbcNoDataCellsCarryNoMass) {
  const auto mesh = write_text("nodata.msh", "2 1 2\n0 0 0\n2*10\n10\n2*5\n");
  const auto model = write_text("nodata.den", "-99999\n2000\n-99999\n-99999\n");
  const auto grid = read_ubc_model(mesh.string(), model.string());
  EXPECT_EQ(grid.no_data_cells, 3u);
  ASSERT_EQ(grid.prisms.size(), 1u);
  EXPECT_EQ(grid.prisms[0].density, 2000.0);
  EXPECT_EQ(grid.prisms[0].top, -5.0);  // the second value: easting 0, lower cell
  for (double density : grid.grid->density) EXPECT_NE(density, -99999.0);
}

TEST(HostileText, OverflowingBoundsAndHugeGridsAreRefused) {
  const std::string huge = error_of([] {
    read_prism_csv(write_text("huge.csv", "west,east,south,north,bottom,top,density\n-1e308,1e308,0,1,0,1,1\n").string());
  });
  EXPECT_NE(huge.find("huge.csv:2: west = -1e+308, east = 1e+308: coordinates are limited to +-1e+150 m"),
            std::string::npos)
      << huge;
  const auto mesh = write_text("big.msh", "100000000 100000000 100000000\n0 0 0\n100000000*1\n100000000*1\n100000000*1\n");
  const auto model = write_text("big.den", "1\n");
  const std::string memory = error_of([&] { read_ubc_model(mesh.string(), model.string()); });
  EXPECT_NE(memory.find("big.msh: a grid of 100000000x100000000x100000000 cells (densities and prisms) needs"), std::string::npos) << memory;
  const std::string stations = error_of([] {
    StationGrid grid{0, 1, 0, 1, 400000, 400000, 0};
    grid_stations(grid);
  });
  EXPECT_NE(stations.find("station grid 400000,400000 needs 3840000000000 bytes (3.49 TiB)"), std::string::npos)
      << stations;
}
