// GDAL and PROJ (through GDAL's OGRSpatialReference and warper) behind read_dem.
#include "mesh/terrain/dem_raster.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <gdal_priv.h>
#include <gdal_utils.h>
#include <ogr_spatialref.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

namespace geobem::terrain {
namespace {

/// Keeps GDAL's error messages off stderr while a call runs; message() is the
/// last one (CPLGetLastErrorMsg), for our own exception text.
struct QuietGdal {
  QuietGdal() {
    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
  }
  ~QuietGdal() { CPLPopErrorHandler(); }
  static std::string message() {
    const std::string text = CPLGetLastErrorMsg();
    return text.empty() ? "GDAL gave no reason" : text;
  }
};

struct DatasetCloser {
  void operator()(GDALDataset* dataset) const { GDALClose(dataset); }
};
using Dataset = std::unique_ptr<GDALDataset, DatasetCloser>;

std::runtime_error failure(const std::string& path, const std::string& what) {
  return std::runtime_error(path + ": " + what);
}

/// "EPSG:NNNN" when the CRS has an EPSG code, else its name.
std::string crs_label(const OGRSpatialReference& crs) {
  const char* authority = crs.GetAuthorityName(nullptr);
  const char* code = crs.GetAuthorityCode(nullptr);
  if (authority && code) return std::string(authority) + ":" + code;
  const char* name = crs.GetName();
  return name ? name : "unnamed CRS";
}

std::string wkt2(const OGRSpatialReference& crs) {
  char* text = nullptr;
  const char* const options[] = {"FORMAT=WKT2_2018", nullptr};
  crs.exportToWkt(&text, options);
  std::string wkt = text ? text : "";
  CPLFree(text);
  return wkt;
}

/// The UTM zone (WGS 84) of a longitude/latitude: EPSG 326zz north, 327zz south.
int utm_epsg(double longitude, double latitude) {
  const int zone = std::min(60, std::max(1, static_cast<int>(std::floor((longitude + 180.0) / 6.0)) + 1));
  return (latitude >= 0 ? 32600 : 32700) + zone;
}

/// Longitude/latitude of the raster's centre.
void centre_lon_lat(GDALDataset& dataset, const OGRSpatialReference& source, const double gt[6], const std::string& path,
                    double& longitude, double& latitude) {
  double x = gt[0] + 0.5 * dataset.GetRasterXSize() * gt[1];
  double y = gt[3] + 0.5 * dataset.GetRasterYSize() * gt[5];
  OGRSpatialReference geographic;
  geographic.SetWellKnownGeogCS("WGS84");
  geographic.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  std::unique_ptr<OGRCoordinateTransformation> to_geographic(OGRCreateCoordinateTransformation(&source, &geographic));
  if (!to_geographic || !to_geographic->Transform(1, &x, &y))
    throw failure(path, "cannot find the longitude/latitude of the DEM's centre (" + QuietGdal::message() + ")");
  longitude = x;
  latitude = y;
}

/// The band as doubles, rows as stored (row 0 first), and the cells that are
/// no-data (the band's no-data value or NaN) set to NaN; returns their count.
std::size_t read_band(GDALDataset& dataset, const std::string& path, std::vector<double>& values,
                      std::size_t& first_bad) {
  GDALRasterBand* band = dataset.GetRasterBand(1);
  const int nx = dataset.GetRasterXSize(), ny = dataset.GetRasterYSize();
  values.assign(static_cast<std::size_t>(nx) * ny, 0.0);
  if (band->RasterIO(GF_Read, 0, 0, nx, ny, values.data(), nx, ny, GDT_Float64, 0, 0) != CE_None)
    throw failure(path, "cannot read band 1: " + QuietGdal::message());
  int has_no_data = 0;
  const double no_data = band->GetNoDataValue(&has_no_data);
  std::size_t count = 0;
  first_bad = values.size();
  for (std::size_t c = 0; c < values.size(); ++c)
    if (std::isnan(values[c]) || (has_no_data && values[c] == no_data)) {
      values[c] = std::numeric_limits<double>::quiet_NaN();
      if (count++ == 0) first_bad = c;
    }
  return count;
}

/// Fills the grid geometry of `dem` from a north-up or south-up geotransform
/// and the heights (stored rows) reordered south row first.
void fill_grid(Dem& dem, const double gt[6], int nx, int ny, const std::vector<double>& rows) {
  dem.shape_e = nx;
  dem.shape_n = ny;
  dem.spacing_e = gt[1];
  dem.spacing_n = std::abs(gt[5]);
  dem.west_centre = gt[0] + 0.5 * gt[1];
  const bool north_up = gt[5] < 0;
  dem.south_centre = north_up ? gt[3] + (ny - 0.5) * gt[5] : gt[3] + 0.5 * gt[5];
  dem.heights.resize(rows.size());
  for (int j = 0; j < ny; ++j) {
    const int row = north_up ? ny - 1 - j : j;
    std::copy(rows.begin() + static_cast<std::size_t>(row) * nx, rows.begin() + static_cast<std::size_t>(row + 1) * nx,
              dem.heights.begin() + static_cast<std::size_t>(j) * nx);
  }
}

/// Target-CRS bounds west, south, east, north of the node (cell-centre)
/// rectangle that lies inside the projected footprint of the source's node
/// rectangle: every side of the source rectangle is projected node by node
/// and the bound taken on its inner side (west: the easternmost point of the
/// west side, and so on), then pulled in by a millionth of the span so the
/// outermost nodes do not fall a rounding outside. Throws when the sides do not
/// map to the same sides (a CRS rotated or flipped against the DEM).
std::array<double, 4> inscribed_node_bounds(const OGRSpatialReference& source, const OGRSpatialReference& target,
                                            const double gt[6], int nx, int ny, const std::string& path) {
  std::unique_ptr<OGRCoordinateTransformation> forward(OGRCreateCoordinateTransformation(&source, &target));
  if (!forward) throw failure(path, "cannot set up the projection: " + QuietGdal::message());
  const auto side = [&](bool along_columns, int fixed, int count) {
    std::vector<double> x(count), y(count);
    for (int k = 0; k < count; ++k) {
      const int c = along_columns ? k : fixed, r = along_columns ? fixed : k;
      x[k] = gt[0] + (c + 0.5) * gt[1];
      y[k] = gt[3] + (r + 0.5) * gt[5];
    }
    if (!forward->Transform(count, x.data(), y.data()))
      throw failure(path, "PROJ cannot project the DEM's edge: " + QuietGdal::message());
    return std::make_pair(x, y);
  };
  const bool north_up = gt[5] < 0;
  const auto west = side(false, 0, ny), east = side(false, nx - 1, ny);
  const auto north = side(true, north_up ? 0 : ny - 1, nx), south = side(true, north_up ? ny - 1 : 0, nx);
  double w = *std::max_element(west.first.begin(), west.first.end());
  double e = *std::min_element(east.first.begin(), east.first.end());
  double s = *std::max_element(south.second.begin(), south.second.end());
  double n = *std::min_element(north.second.begin(), north.second.end());
  if (!(w < e && s < n))
    throw failure(path, "the projected DEM is rotated or flipped too far for a north-up grid; give another --crs");
  const double pull_e = 1e-6 * (e - w), pull_n = 1e-6 * (n - s);
  return {w + pull_e, s + pull_n, e - pull_e, n - pull_n};
}

}  // namespace

NoData parse_no_data(const std::string& text) {
  if (text == "refuse") return NoData::Refuse;
  if (text == "skip") return NoData::Skip;
  throw std::invalid_argument("unknown no-data choice '" + text + "' (expected refuse or skip)");
}

Dem read_dem(const std::string& path, const DemOptions& options) {
  GDALAllRegister();
  const QuietGdal quiet;
  Dataset source(static_cast<GDALDataset*>(GDALOpenEx(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, nullptr,
                                                      nullptr, nullptr)));
  if (!source) throw failure(path, "not a raster GDAL can read: " + QuietGdal::message());
  if (source->GetRasterCount() < 1) throw failure(path, "the raster has no band");
  double gt[6];
  if (source->GetGeoTransform(gt) != CE_None)
    throw failure(path, "the DEM is not georeferenced (no geotransform); give it one, e.g. gdal_translate -a_ullr "
                        "-a_srs");
  if (gt[2] != 0.0 || gt[4] != 0.0 || !(gt[1] > 0.0) || gt[5] == 0.0)
    throw failure(path, "rotated or degenerate geotransform; only north-up (or south-up) grids are read");
  const OGRSpatialReference* source_crs = source->GetSpatialRef();
  if (!source_crs || source_crs->IsEmpty())
    throw failure(path, "the DEM has no coordinate reference system; assign one (gdal_edit.py -a_srs EPSG:NNNN)");

  std::vector<double> values;
  std::size_t first_bad = 0;
  const std::size_t no_data = read_band(*source, path, values, first_bad);
  const int nx = source->GetRasterXSize(), ny = source->GetRasterYSize();
  if (no_data > 0 && options.no_data == NoData::Refuse)
    throw failure(path, std::to_string(no_data) + " no-data or NaN height(s), the first at row " +
                            std::to_string(first_bad / nx) + ", column " + std::to_string(first_bad % nx) +
                            " (--nodata skip leaves them out of the layer)");
  if (no_data == values.size()) throw failure(path, "every height is no-data");

  OGRSpatialReference target;
  target.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  if (!options.crs.empty()) {
    if (target.SetFromUserInput(options.crs.c_str()) != OGRERR_NONE)
      throw std::runtime_error("--crs '" + options.crs + "': PROJ cannot use this CRS (" + QuietGdal::message() + ")");
    if (!target.IsProjected())
      throw std::runtime_error("--crs '" + options.crs + "': not a projected CRS (prisms need metres east and north)");
  } else if (source_crs->IsProjected()) {
    target = *source_crs;
  } else if (source_crs->IsGeographic()) {
    double longitude = 0, latitude = 0;
    centre_lon_lat(*source, *source_crs, gt, path, longitude, latitude);
    target.importFromEPSG(utm_epsg(longitude, latitude));
  } else {
    throw failure(path, "its CRS (" + crs_label(*source_crs) + ") is neither geographic nor projected; give --crs");
  }

  Dem dem;
  dem.no_data_cells = no_data;
  dem.crs = crs_label(target);
  dem.crs_wkt = wkt2(target);
  OGRSpatialReference source_gis = *source_crs;
  source_gis.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  if (source_gis.IsSame(&target)) {
    if (source_crs->IsProjected() && source_crs->GetLinearUnits() != 1.0)
      throw failure(path, "projected CRS " + dem.crs + " is not in metres; give --crs to project it");
    fill_grid(dem, gt, nx, ny, values);
    return dem;
  }

  // Warp to the target CRS with as many columns and rows as the source, on
  // the largest north-up node rectangle inside the projected footprint, so
  // every node of the layer has a height: one prism per DEM node (bilinear;
  // source no-data stays out, cells next to it become NaN; -et 0: every point
  // through PROJ, not the warper's linear approximation of the transform,
  // which may be off by an eighth of a cell). A grid one node wide keeps the
  // warper's own extent.
  const std::string size_x = std::to_string(nx), size_y = std::to_string(ny), srs = dem.crs_wkt;
  std::vector<std::string> args = {"-of",       "MEM", "-t_srs",     srs,   "-ts", size_x, size_y, "-r",
                                   "bilinear", "-et", "0",          "-dstnodata", "nan", "-ot", "Float64"};
  if (nx > 1 && ny > 1) {
    const auto nodes = inscribed_node_bounds(source_gis, target, gt, nx, ny, path);
    const double half_e = 0.5 * (nodes[2] - nodes[0]) / (nx - 1), half_n = 0.5 * (nodes[3] - nodes[1]) / (ny - 1);
    const auto text = [](double v) {
      char buffer[40];
      std::snprintf(buffer, sizeof buffer, "%.17g", v);
      return std::string(buffer);
    };
    for (const std::string& value : {std::string("-te"), text(nodes[0] - half_e), text(nodes[1] - half_n),
                                     text(nodes[2] + half_e), text(nodes[3] + half_n)})
      args.push_back(value);
  }
  std::vector<const char*> argv;
  for (const auto& arg : args) argv.push_back(arg.c_str());
  argv.push_back(nullptr);
  std::unique_ptr<GDALWarpAppOptions, decltype(&GDALWarpAppOptionsFree)> warp_options(
      GDALWarpAppOptionsNew(const_cast<char**>(argv.data()), nullptr), GDALWarpAppOptionsFree);
  if (!warp_options) throw failure(path, "cannot set up the projection: " + QuietGdal::message());
  GDALDatasetH source_handle = GDALDataset::ToHandle(source.get());
  int usage_error = 0;
  Dataset warped(GDALDataset::FromHandle(GDALWarp("", nullptr, 1, &source_handle, warp_options.get(), &usage_error)));
  if (!warped) throw failure(path, "cannot project to " + dem.crs + ": " + QuietGdal::message());
  double wgt[6];
  warped->GetGeoTransform(wgt);
  std::vector<double> projected;
  const std::size_t empty = read_band(*warped, path, projected, first_bad);
  fill_grid(dem, wgt, warped->GetRasterXSize(), warped->GetRasterYSize(), projected);
  dem.outside_cells = empty;
  dem.projected_here = true;
  return dem;
}

double bilinear_height(const Dem& dem, double easting, double northing) {
  const double u = (easting - dem.west_centre) / dem.spacing_e, v = (northing - dem.south_centre) / dem.spacing_n;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!(u >= 0.0 && v >= 0.0 && u <= dem.shape_e - 1.0 && v <= dem.shape_n - 1.0)) return nan;
  const std::int64_t i = std::min<std::int64_t>(static_cast<std::int64_t>(u), std::max<std::int64_t>(dem.shape_e - 2, 0));
  const std::int64_t j = std::min<std::int64_t>(static_cast<std::int64_t>(v), std::max<std::int64_t>(dem.shape_n - 2, 0));
  const double fu = dem.shape_e > 1 ? u - i : 0.0, fv = dem.shape_n > 1 ? v - j : 0.0;
  const auto h = [&](std::int64_t a, std::int64_t b) {
    return dem.heights[std::min(a, dem.shape_e - 1) + dem.shape_e * std::min(b, dem.shape_n - 1)];
  };
  return (1 - fu) * (1 - fv) * h(i, j) + fu * (1 - fv) * h(i + 1, j) + (1 - fu) * fv * h(i, j + 1) +
         fu * fv * h(i + 1, j + 1);
}

}  // namespace geobem::terrain
