// DEMs through GDAL: a projected DEM read as it is (rows flipped south first,
// nodes at cell centres), a geographic DEM projected to the UTM zone of its
// centre and checked point by point against PROJ's inverse transform of a
// plane in longitude/latitude (bilinear resampling reproduces it), no-data
// refused or skipped with a count, the bad inputs (not a raster, no
// georeferencing, a CRS PROJ cannot use or not projected), bilinear heights
// exact on a plane, and draped stations with their count below the topography.
// Untrusted rasters: only local files of the allowed drivers (a VRT, a WMS
// description, netCDF, a /vsicurl/ path, a URL, a FIFO are refused by name),
// the declared size against the memory budget before anything is read, pixel
// sizes, extents and heights that are no place on Earth, CRSs only as EPSG
// codes or WKT, none naming a grid file, and no HTTP request GDAL could make.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <cpl_http.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <memory>

#include "../support/test_files.hpp"
#include "gpu/core/input_error.hpp"
#include "mesh/terrain/dem_raster.hpp"
#include "mesh/terrain/draped_stations.hpp"
#include "tests/support/raster_files.hpp"

namespace geobem::terrain {
namespace {

using test::crs_naming_grid_file;
using test::error_of;
using test::scratch;
using test::write_geotiff;
using test::write_uniform_raster;

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

/// Writes a one-band GeoTIFF of nx x ny cells, all `height`, in UTM 16N.
std::filesystem::path utm_tif(const std::string& name, int nx, int ny, double pixel, double height = 100.0) {
  const double gt[6] = {500000.0, pixel, 0.0, 4000000.0, 0.0, -pixel};
  const auto path = scratch(name);
  write_geotiff(path, nx, ny, gt, "EPSG:32616", [&](int, int) { return height; });
  return path;
}

TEST(Dem, OnlyLocalFilesOfTheAllowedDriversAreOpened) {
  const auto secret = test::write_text("secret.bin", "0123456789abcdef");
  const auto vrt = test::write_text(
      "raw.vrt", "<VRTDataset rasterXSize=\"4\" rasterYSize=\"4\"><SRS>EPSG:32616</SRS>"
                 "<GeoTransform>500000, 10, 0, 4000000, 0, -10</GeoTransform>"
                 "<VRTRasterBand dataType=\"Byte\" band=\"1\" subClass=\"VRTRawRasterBand\">"
                 "<SourceFilename relativetoVRT=\"1\">secret.bin</SourceFilename><ImageOffset>0</ImageOffset>"
                 "<PixelOffset>1</PixelOffset><LineOffset>4</LineOffset></VRTRasterBand></VRTDataset>\n");
  EXPECT_EQ(error_of([&] { read_dem(vrt.string(), {}); }),
            vrt.string() + ": format 'Virtual Raster' (GDAL driver VRT) is not read as a DEM; the formats read are "
                           "GeoTIFF, ESRI ASCII grid, SRTM .hgt, USGS DEM, ESRI .bil/.hdr (convert with "
                           "gdal_translate -of GTiff)");
  const auto wms = test::write_text(
      "service.xml", "<GDAL_WMS><Service name=\"WMS\"><ServerUrl>http://127.0.0.1:9/wms</ServerUrl>"
                     "<Layers>x</Layers></Service><DataWindow><UpperLeftX>-180</UpperLeftX><UpperLeftY>90</UpperLeftY>"
                     "<LowerRightX>180</LowerRightX><LowerRightY>-90</LowerRightY><SizeX>256</SizeX><SizeY>128</SizeY>"
                     "</DataWindow></GDAL_WMS>\n");
  EXPECT_NE(error_of([&] { read_dem(wms.string(), {}); }).find("(GDAL driver WMS) is not read as a DEM"),
            std::string::npos);
  const auto netcdf = scratch("grid.nc");
  std::ofstream(netcdf, std::ios::binary)
      << std::string("CDF\x01\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 32);
  EXPECT_NE(error_of([&] { read_dem(netcdf.string(), {}); }).find("(GDAL driver netCDF) is not read as a DEM"),
            std::string::npos);
  for (const std::string path : {"/vsicurl/http://127.0.0.1:9/dem.tif", "/vsizip//tmp/dem.zip/dem.tif",
                                 "http://127.0.0.1:9/dem.tif"})
    EXPECT_EQ(error_of([&] { read_dem(path, {}); }),
              path + ": GDAL virtual file systems and URLs are not read: give a local raster file");
  const auto fifo = scratch("dem.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(error_of([&] { read_dem(fifo.string(), {}); }), fifo.string() + ": not a regular file but a FIFO (named pipe)");
  EXPECT_EQ(error_of([&] { read_dem(scratch("none.tif").string(), {}); }),
            scratch("none.tif").string() + ": no such file");
  // Sidecars named after the raster are read: ESRI .bil with its .hdr and .prj
  // (written with folder listings on: GDAL's EHdr writer reopens what it wrote).
  CPLSetThreadLocalConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "NO");
  write_uniform_raster(scratch("utm.bil"), "EHdr", 4, 3, {500000.0, 25.0, 0.0, 4000000.0, 0.0, -25.0}, 32616, 321.0);
  CPLSetThreadLocalConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", nullptr);
  std::filesystem::remove(scratch("utm.bil.aux.xml"));
  ASSERT_TRUE(std::filesystem::exists(scratch("utm.hdr")));
  const Dem bil = read_dem(scratch("utm.bil").string(), {});
  EXPECT_EQ(bil.crs, "WGS 84 / UTM zone 16N");  // an ESRI .prj names no EPSG code
  EXPECT_EQ(bil.heights, std::vector<double>(12, 321.0));
}

TEST(Dem, TheDeclaredSizeIsCheckedAgainstTheBudgetBeforeReading) {
  // 40 bytes per node: 200 x 200 nodes need 1.6 MB, 100 x 100 0.4 MB.
  DemOptions one_mebibyte;
  one_mebibyte.memory_budget = 1 << 20;
  const auto large = utm_tif("large.tif", 200, 200, 10.0), small = utm_tif("small.tif", 100, 100, 10.0);
  EXPECT_EQ(error_of([&] { read_dem(large.string(), one_mebibyte); }),
            large.string() + ": a DEM of 200 x 200 nodes needs 1600000 bytes (1.53 MiB), more than the 1 MiB of "
                             "memory available");
  EXPECT_EQ(read_dem(small.string(), one_mebibyte).heights.size(), 10000u);
}

TEST(Dem, GridsAndHeightsBeyondTheEarthAreRefused) {
  EXPECT_NE(error_of([&] { read_dem(utm_tif("huge_pixel.tif", 4, 4, 1e200).string(), {}); })
                .find("pixel 1e+200 x -1e+200: pixel sizes must be finite and at least 1e-06 and the raster within "
                      "1e8 units of its CRS"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_dem(utm_tif("tiny_pixel.tif", 4, 4, 1e-12).string(), {}); }).find("pixel sizes"),
            std::string::npos);
  const auto far = scratch("far.tif");
  const double far_gt[6] = {1e9, 10.0, 0.0, 4000000.0, 0.0, -10.0};
  write_geotiff(far, 4, 4, far_gt, "EPSG:32616", [](int, int) { return 1.0; });
  EXPECT_NE(error_of([&] { read_dem(far.string(), {}); }).find("origin (1e+09, 4e+06)"), std::string::npos);
  const auto high = scratch("high.tif"), infinite = scratch("infinite.tif");
  const double gt[6] = {500000.0, 10.0, 0.0, 4000000.0, 0.0, -10.0};
  write_geotiff(high, 4, 3, gt, "EPSG:32616", [](int c, int r) { return c == 2 && r == 1 ? -1e5 : 10.0; });
  EXPECT_EQ(error_of([&] { read_dem(high.string(), {}); }),
            high.string() + ": height -100000 m at row 1, column 2: not a height on Earth (|h| < 1e5 m)");
  write_geotiff(infinite, 4, 3, gt, "EPSG:32616",
                [](int c, int r) { return c == 3 && r == 2 ? std::numeric_limits<double>::infinity() : 10.0; });
  EXPECT_EQ(error_of([&] { read_dem(infinite.string(), {}); }),
            infinite.string() + ": height inf m at row 2, column 3: not a height on Earth (|h| < 1e5 m)");
}

TEST(Dem, CrsOnlyByCodeOrWktAndNeverNamingAFile) {
  const double gt[6] = {-84.3, 0.001, 0.0, 36.6, 0.0, -0.001};
  const auto geographic = scratch("g.tif");
  write_geotiff(geographic, 4, 4, gt, "EPSG:4326", [](int, int) { return 1.0; });
  OGRSpatialReference utm;
  utm.importFromEPSG(32617);
  char* wkt = nullptr;
  utm.exportToWkt(&wkt);
  DemOptions options;
  for (const std::string& accepted : {std::string("EPSG:32617"), std::string("epsg:32617"), std::string(wkt)}) {
    options.crs = accepted;
    EXPECT_EQ(read_dem(geographic.string(), options).crs, "EPSG:32617") << accepted;
  }
  CPLFree(wkt);
  const std::string grid_wkt = crs_naming_grid_file(scratch("secret.gsb").string());
  const struct {
    std::string crs, message;
  } refused[] = {
      {"+proj=utm +zone=16 +datum=WGS84",
       "give EPSG:NNNN or WKT text (URLs, file names and PROJ strings are not read)"},
      {"http://127.0.0.1:9/crs", "give EPSG:NNNN or WKT text"},
      {"/etc/passwd", "give EPSG:NNNN or WKT text"},
      {"EPSG:32616+5703x", "give EPSG:NNNN or WKT text"},
      {grid_wkt, "the CRS refers to a grid or parameter file (PARAMETERFILE): not read"},
      {"EPSG:999999", "PROJ cannot use this CRS"},
  };
  for (const auto& c : refused) {
    options.crs = c.crs;
    EXPECT_THROW(read_dem(geographic.string(), options), geobem::InputError) << c.crs;
    EXPECT_NE(error_of([&] { read_dem(geographic.string(), options); }).find(c.message), std::string::npos)
        << error_of([&] { read_dem(geographic.string(), options); });
  }
  // A DEM whose own CRS names a grid: an ASCII grid and its .prj.
  const auto grid = test::write_text("grid.asc", "ncols 3\nnrows 2\nxllcorner -84.3\nyllcorner 36.6\ncellsize 0.001\n"
                                                  "1 2 3\n4 5 6\n");
  test::write_text("grid.prj", grid_wkt);
  EXPECT_EQ(error_of([&] { read_dem(grid.string(), {}); }),
            grid.string() + ": grid.prj holds a CRS that refers to a grid or parameter file (PARAMETERFILE): not "
                            "read; assign the DEM a CRS by its EPSG code");
  const auto upper = test::write_text("upper.asc", "ncols 3\nnrows 2\nxllcorner -84.3\nyllcorner 36.6\n"
                                                    "cellsize 0.001\n1 2 3\n4 5 6\n");
  test::write_text("upper.PRJ", "PROJCS[\"x\",EXTENSION[\"PROJ4\",\"+proj=longlat +nadgrids=/etc/passwd\"]]");
  EXPECT_NE(error_of([&] { read_dem(upper.string(), {}); }).find("upper.PRJ holds a CRS that refers to a grid"),
            std::string::npos);
}

TEST(Dem, GdalMakesNoHttpRequest) {
  read_dem(utm_tif("any.tif", 3, 3, 10.0).string(), {});  // sets GDAL up as for every DEM
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size), 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/dem.tif";
  CPLHTTPResult* result = CPLHTTPFetch(url.c_str(), nullptr);
  ASSERT_NE(result, nullptr);
  EXPECT_NE(result->nStatus, 0);
  EXPECT_EQ(std::string(result->pszErrBuf ? result->pszErrBuf : ""),
            "geobem reads local files only: no request to " + url);
  CPLHTTPDestroyResult(result);
  EXPECT_LT(::accept(listener, nullptr, nullptr), 0) << "a connection reached the listening socket";
  ::close(listener);
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
