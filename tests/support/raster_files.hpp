#pragma once
// Small rasters written through GDAL for the tests that read DEMs.
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace geobem::test {

/// Writes a one-band Float64 GeoTIFF of nx × ny cells: geotransform `gt`
/// (none if nullptr), CRS from `crs` (none if empty), value(column, row)
/// per cell (row 0 first as stored), no-data value if `no_data` is set.
inline void write_geotiff(const std::filesystem::path& path, int nx, int ny, const double* gt, const std::string& crs,
                          const std::function<double(int, int)>& value, const double* no_data = nullptr) {
  GDALAllRegister();
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("GTiff");
  GDALDataset* dataset = driver->Create(path.c_str(), nx, ny, 1, GDT_Float64, nullptr);
  if (gt) dataset->SetGeoTransform(const_cast<double*>(gt));
  if (!crs.empty()) {
    OGRSpatialReference srs;
    srs.SetFromUserInput(crs.c_str());
    dataset->SetSpatialRef(&srs);
  }
  std::vector<double> values(static_cast<std::size_t>(nx) * ny);
  for (int r = 0; r < ny; ++r)
    for (int c = 0; c < nx; ++c) values[static_cast<std::size_t>(r) * nx + c] = value(c, r);
  GDALRasterBand* band = dataset->GetRasterBand(1);
  if (no_data) band->SetNoDataValue(*no_data);
  const CPLErr written = band->RasterIO(GF_Write, 0, 0, nx, ny, values.data(), nx, ny, GDT_Float64, 0, 0);
  GDALClose(dataset);
  if (written != CE_None) throw std::runtime_error("cannot write the test raster " + path.string());
}

/// Writes a one-band Float32 raster of nx × ny cells through GDAL's driver
/// `driver` ("GTiff", "EHdr", ...): geotransform `gt`, CRS EPSG:`epsg`,
/// every cell `height` (no cell written when NaN, so that a sparse file
/// stays sparse), creation options `options` (nullptr-terminated, or none).
inline void write_uniform_raster(const std::filesystem::path& path, const char* driver, int nx, int ny,
                                 std::array<double, 6> gt, int epsg, double height,
                                 const char* const* options = nullptr) {
  GDALAllRegister();
  GDALDataset* dataset = GetGDALDriverManager()->GetDriverByName(driver)->Create(
      path.c_str(), nx, ny, 1, GDT_Float32, const_cast<char**>(options));
  if (!dataset) throw std::runtime_error("cannot create the test raster " + path.string());
  dataset->SetGeoTransform(gt.data());
  OGRSpatialReference srs;
  srs.importFromEPSG(epsg);
  dataset->SetSpatialRef(&srs);
  if (!std::isnan(height)) dataset->GetRasterBand(1)->Fill(height);
  GDALClose(dataset);
}

/// A CRS as WKT whose datum shift names the grid file `file` (an NTv2
/// PARAMETERFILE): the text that would make PROJ open another file.
inline std::string crs_naming_grid_file(const std::string& file) {
  return "BOUNDCRS[SOURCECRS[GEOGCRS[\"NAD27\",DATUM[\"North American Datum 1927\",ELLIPSOID[\"Clarke 1866\","
         "6378206.4,294.978698213898]],CS[ellipsoidal,2],AXIS[\"lat\",north],AXIS[\"lon\",east],ANGLEUNIT["
         "\"degree\",0.0174532925199433]]],TARGETCRS[GEOGCRS[\"WGS 84\",DATUM[\"World Geodetic System 1984\","
         "ELLIPSOID[\"WGS 84\",6378137,298.257223563]],CS[ellipsoidal,2],AXIS[\"lat\",north],AXIS[\"lon\",east],"
         "ANGLEUNIT[\"degree\",0.0174532925199433]]],ABRIDGEDTRANSFORMATION[\"grid\",METHOD[\"NTv2\"],"
         "PARAMETERFILE[\"Latitude and longitude difference file\",\"" + file + "\"]]]";
}

}  // namespace geobem::test
