#pragma once
// Small rasters written through GDAL for the terrain tests.
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

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

}  // namespace geobem::test
