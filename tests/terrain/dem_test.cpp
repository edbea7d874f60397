// DEMs through GDAL: a projected DEM read as it is (rows flipped south first,
// nodes at cell centres), a geographic DEM projected to the UTM zone of its
// centre and checked point by point against PROJ's inverse transform of a
// plane in longitude/latitude (bilinear resampling reproduces it), no-data
// refused or skipped with a count, the bad inputs (not a raster, no
// georeferencing, a CRS PROJ cannot use or not projected), bilinear heights
// exact on a plane, and draped stations with their count below the topography.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>

#include "../support/test_files.hpp"
#include "dem_test_support.hpp"
#include "mesh/terrain/dem_raster.hpp"
#include "mesh/terrain/draped_stations.hpp"

namespace geobem::terrain {
namespace {

using test::error_of;
using test::scratch;
using test::write_geotiff;

TEST(Dem, ProjectedDemIsReadAsItIs) {
  const double gt[6] = {500000.0, 30.0, 0.0, 4000000.0, 0.0, -25.0};  // north-up
  const auto path = scratch("utm.tif");
  write_geotiff(path, 5, 4, gt, "EPSG:32616", [](int c, int r) { return 100.0 * r + c; });
  const Dem dem = read_dem(path.string(), {});
  EXPECT_EQ(dem.shape_e, 5);
  EXPECT_EQ(dem.shape_n, 4);
  EXPECT_EQ(dem.crs, "EPSG:32616");
  EXPECT_FALSE(dem.projected_here);
  EXPECT_DOUBLE_EQ(dem.west_centre, 500015.0);
  EXPECT_DOUBLE_EQ(dem.south_centre, 4000000.0 - 4 * 25.0 + 12.5);
  EXPECT_DOUBLE_EQ(dem.spacing_n, 25.0);
  EXPECT_EQ(dem.heights[0], 300.0 + 0);   // south-west: the last stored row
  EXPECT_EQ(dem.heights[4 + 5 * 3], 4.0);  // north-east: the first stored row
}

TEST(Dem, GeographicDemGoesToTheUtmZoneOfItsCentre) {
  const double gt[6] = {-84.30, 1.0 / 1200, 0.0, 36.65, 0.0, -1.0 / 1200};  // 3 arc-seconds
  const auto plane = [](double lon, double lat) { return 500.0 + 4000.0 * (lon + 84.3) - 2500.0 * (lat - 36.6); };
  const auto path = scratch("geographic.tif");
  write_geotiff(path, 40, 30, gt, "EPSG:4326",
                [&](int c, int r) { return plane(gt[0] + (c + 0.5) * gt[1], gt[3] + (r + 0.5) * gt[5]); });
  const Dem dem = read_dem(path.string(), {});
  EXPECT_EQ(dem.crs, "EPSG:32616");
  EXPECT_TRUE(dem.projected_here);
  EXPECT_EQ(dem.shape_e, 40);
  EXPECT_EQ(dem.shape_n, 30);
  OGRSpatialReference utm, geographic;
  utm.importFromEPSG(32616);
  geographic.importFromEPSG(4326);
  utm.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  geographic.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  std::unique_ptr<OGRCoordinateTransformation> inverse(OGRCreateCoordinateTransformation(&utm, &geographic));
  int compared = 0;
  for (std::int64_t j = 0; j < dem.shape_n; ++j)
    for (std::int64_t i = 0; i < dem.shape_e; ++i) {
      const double h = dem.heights[i + dem.shape_e * j];
      double x = dem.west_centre + i * dem.spacing_e, y = dem.south_centre + j * dem.spacing_n;
      ASSERT_TRUE(inverse->Transform(1, &x, &y));
      // Every projected node lies inside the source's cell centres (the
      // footprint's inscribed rectangle), where bilinear resampling of a
      // plane is the plane.
      EXPECT_TRUE(x >= gt[0] + 0.5 * gt[1] && x <= gt[0] + 39.5 * gt[1] && y <= gt[3] + 0.5 * gt[5] &&
                  y >= gt[3] + 29.5 * gt[5])
          << i << "," << j;
      EXPECT_NEAR(h, plane(x, y), 1e-6) << i << "," << j;
      ++compared;
    }
  EXPECT_EQ(compared, 40 * 30);
  EXPECT_EQ(dem.outside_cells, 0u);  // one height per DEM node
  // The rectangle sits inside the footprint: the meridian convergence of
  // about 1.6 degrees here costs a little of each side, never a whole cell
  // of the 40 x 30 (2.97 km x 2.78 km).
  EXPECT_GT(dem.spacing_e * 39, 2.97e3 - 2.0 * 78.0);
  EXPECT_LT(dem.spacing_e * 39, 2.97e3);
}

TEST(Dem, NoDataIsRefusedOrSkippedWithACount) {
  const double gt[6] = {500000.0, 10.0, 0.0, 4000000.0, 0.0, -10.0}, no_data = -9999.0;
  const auto path = scratch("holes.tif");
  write_geotiff(path, 6, 5, gt, "EPSG:32616",
                [](int c, int r) { return (c + r) % 4 == 0 && c > 0 ? -9999.0 : 10.0 * c; }, &no_data);
  const std::string refused = error_of([&] { read_dem(path.string(), {}); });
  EXPECT_NE(refused.find("6 no-data"), std::string::npos) << refused;
  EXPECT_NE(refused.find("--nodata skip"), std::string::npos) << refused;
  DemOptions skip;
  skip.no_data = NoData::Skip;
  const Dem dem = read_dem(path.string(), skip);
  EXPECT_EQ(dem.no_data_cells, 6u);
  std::size_t nan = 0;
  for (double h : dem.heights) nan += std::isnan(h);
  EXPECT_EQ(nan, 6u);
  // NaN heights without a no-data value count the same way.
  const auto nan_path = scratch("nan.tif");
  write_geotiff(nan_path, 3, 3, gt, "EPSG:32616",
                [](int c, int r) { return c == 1 && r == 2 ? std::numeric_limits<double>::quiet_NaN() : 5.0; });
  EXPECT_NE(error_of([&] { read_dem(nan_path.string(), {}); }).find("row 2, column 1"), std::string::npos);
}

TEST(Dem, BadInputsSayWhatIsWrong) {
  const auto text = test::write_text("not_a_raster.tif", "easting,northing\n1,2\n");
  const std::string not_raster = error_of([&] { read_dem(text.string(), {}); });
  EXPECT_NE(not_raster.find("not a raster GDAL can read"), std::string::npos) << not_raster;
  EXPECT_NE(not_raster.find(text.string()), std::string::npos);

  const auto bare = scratch("bare.tif");
  write_geotiff(bare, 3, 3, nullptr, "", [](int, int) { return 1.0; });
  EXPECT_NE(error_of([&] { read_dem(bare.string(), {}); }).find("not georeferenced"), std::string::npos);

  const double gt[6] = {-84.3, 0.001, 0.0, 36.6, 0.0, -0.001};
  const auto geographic = scratch("g.tif");
  write_geotiff(geographic, 3, 3, gt, "EPSG:4326", [](int, int) { return 1.0; });
  DemOptions bad;
  bad.crs = "EPSG:999999";
  EXPECT_NE(error_of([&] { read_dem(geographic.string(), bad); }).find("PROJ cannot use"), std::string::npos);
  bad.crs = "EPSG:4326";
  EXPECT_NE(error_of([&] { read_dem(geographic.string(), bad); }).find("not a projected CRS"), std::string::npos);
}

Dem plane_dem() {
  Dem dem;
  dem.shape_e = 6;
  dem.shape_n = 5;
  dem.west_centre = 100.0;
  dem.south_centre = 200.0;
  dem.spacing_e = 10.0;
  dem.spacing_n = 20.0;
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 6; ++i) dem.heights.push_back(3.0 + 0.5 * (100.0 + 10.0 * i) - 0.25 * (200.0 + 20.0 * j));
  return dem;
}

TEST(Dem, BilinearHeightsAreExactOnAPlane) {
  const Dem dem = plane_dem();
  for (double e : {100.0, 113.7, 149.99, 150.0})
    for (double n : {200.0, 231.2, 280.0})
      EXPECT_NEAR(bilinear_height(dem, e, n), 3.0 + 0.5 * e - 0.25 * n, 1e-12);
  EXPECT_TRUE(std::isnan(bilinear_height(dem, 99.0, 250.0)));
  EXPECT_TRUE(std::isnan(bilinear_height(dem, 120.0, 281.0)));
}

TEST(DrapedStations, NodesSpacingAndStationsBelowTheTopography) {
  const Dem dem = plane_dem();
  gravity::PrismLayer layer;
  layer.geometry = {6, 5, 100.0, 200.0, 10.0, 20.0, -1000.0, 1.0, 1.0};
  layer.surface = dem.heights;
  DrapeOptions nodes;
  nodes.clearance = 50.0;
  nodes.step = 2;
  const auto on_nodes = drape_stations(dem, layer, nodes);
  ASSERT_EQ(on_nodes.stations.size(), 9u);  // 3 x 3 nodes
  EXPECT_EQ(on_nodes.below, 0u);
  // They form a 3 x 3 grid, easting fastest: what the stages write as a .vts.
  EXPECT_EQ(on_nodes.shape_e, 3u);
  EXPECT_EQ(on_nodes.shape_n, 3u);
  for (std::size_t s = 0; s < 9; ++s) {
    EXPECT_DOUBLE_EQ(on_nodes.stations[s].easting, dem.west_centre + 2.0 * (s % 3) * dem.spacing_e);
    EXPECT_DOUBLE_EQ(on_nodes.stations[s].northing, dem.south_centre + 2.0 * (s / 3) * dem.spacing_n);
  }
  EXPECT_DOUBLE_EQ(on_nodes.stations[4].upward, dem.heights[2 + 6 * 2] + 50.0);
  nodes.clearance = -1.0;
  EXPECT_EQ(drape_stations(dem, layer, nodes).below, 9u);
  DrapeOptions spaced;
  spaced.clearance = 0.0;
  spaced.spacing = 15.0;
  const auto grid = drape_stations(dem, layer, spaced);
  EXPECT_EQ(grid.stations.size(), 4u * 6u);  // 0..45 m east (4), 0..75 m north (6)
  EXPECT_EQ(grid.shape_e, 4u);
  EXPECT_EQ(grid.shape_n, 6u);
  EXPECT_DOUBLE_EQ(grid.stations[5].easting, dem.west_centre + 15.0);  // second row, second column
  EXPECT_DOUBLE_EQ(grid.stations[5].northing, dem.south_centre + 15.0);
  // Between nodes the plane rises toward the east, so a station on the
  // bilinear surface lies below the flat top of a prism whose node is higher.
  EXPECT_GT(grid.below, 0u);
  DrapeOptions both = spaced;
  both.step = 1;
  EXPECT_THROW(drape_stations(dem, layer, both), std::invalid_argument);
}

}  // namespace
}  // namespace geobem::terrain
