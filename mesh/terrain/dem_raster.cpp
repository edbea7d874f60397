// GDAL and PROJ (through GDAL's OGRSpatialReference and warper) behind read_dem.
#include "mesh/terrain/dem_raster.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_http.h>
#include <fcntl.h>
#include <gdal_priv.h>
#include <gdal_utils.h>
#include <ogr_spatialref.h>
#include <ogr_srs_api.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "gpu/core/input_error.hpp"
#include "gpu/core/regular_file.hpp"
#include "mesh/io/memory_budget.hpp"

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

/// Every request GDAL would send through CPLHTTPFetch (WMS, WCS, PROJ's
/// grids, ...) answered with an error, without touching the network.
CPLHTTPResult* refuse_network(const char* url, CSLConstList, GDALProgressFunc, void*, CPLHTTPFetchWriteFunc, void*,
                              void*) {
  auto* result = static_cast<CPLHTTPResult*>(CPLCalloc(1, sizeof(CPLHTTPResult)));
  result->nStatus = 1;
  result->pszErrBuf = CPLStrdup((std::string("geobem reads local files only: no request to ") + url).c_str());
  return result;
}

/// GDAL and PROJ set up once for untrusted rasters: no network (no HTTP
/// fetch, no /vsicurl/ file, no PROJ grid download), no VRT raw bands or
/// Python pixel functions, no .aux.xml sidecars read or written, no folder
/// listings when a file is opened.
void restrict_gdal() {
  static std::once_flag once;
  std::call_once(once, [] {
    CPLSetConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR");  // siblings are given: sidecar_names()
    CPLSetConfigOption("GDAL_PAM_ENABLED", "NO");
    CPLSetConfigOption("GDAL_VRT_ENABLE_RAWRASTERBAND", "NO");
    CPLSetConfigOption("GDAL_VRT_ENABLE_PYTHON", "NO");
    CPLSetConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", ".geobem-reads-no-url");
    CPLSetConfigOption("GDAL_HTTP_MAX_RETRY", "0");
    CPLSetConfigOption("PROJ_NETWORK", "OFF");
    OSRSetPROJEnableNetwork(FALSE);
    CPLHTTPSetFetchCallback(refuse_network, nullptr);
    GDALAllRegister();
  });
}

/// The GDAL drivers a DEM is opened with: GeoTIFF and the elevation-grid
/// formats that carry their CRS (in the file or an ESRI .prj beside it) and
/// whose readers allocate no more than the file holds before our size check;
/// none reads other files than the raster's own sidecars or the network.
/// netCDF is not among them: libnetcdf allocates what a header declares (a
/// 1.3 KB file took 2.3 GB when fuzzed), and netCDF-4 is HDF5, whose external
/// datasets read other files. Golden Software grids neither: their CRS lives
/// only in a .aux.xml file, which is not read.
constexpr const char* kDemDrivers[] = {"GTiff", "AAIGrid", "SRTMHGT", "USGSDEM", "EHdr", nullptr};
constexpr const char* kDemFormats = "GeoTIFF, ESRI ASCII grid, SRTM .hgt, USGS DEM, ESRI .bil/.hdr";

/// The sidecars GDAL may read beside `local` that exist (world files, ESRI
/// .hdr, .prj, .stx and .clr files named after the raster), by name: given
/// to GDALOpenEx as the raster's siblings, so that GDAL neither lists the
/// folder nor opens any other of its files.
std::vector<std::string> sidecar_names(const std::string& local) {
  const std::filesystem::path file(local);
  std::vector<std::string> names{file.filename().string()};
  for (const char* extension : {"hdr", "HDR", "prj", "PRJ", "tfw", "TFW", "tifw", "TIFW", "tiffw", "wld", "WLD", "stx",
                                "STX", "clr", "CLR"})
    for (const std::filesystem::path& candidate :
         {std::filesystem::path(file).replace_extension(extension), std::filesystem::path(local + "." + extension)}) {
      std::error_code ignored;
      if (std::filesystem::is_regular_file(candidate, ignored)) names.push_back(candidate.filename().string());
    }
  return names;
}

/// Bytes read_dem holds per DEM node at its peak: the band, the DEM's heights,
/// the warper's output and its copy, and room for the warper's own buffers.
constexpr std::uint64_t kBytesPerNode = 40;
/// Heights beyond this (m) are no terrain on Earth (nor a no-data value GDAL was told).
constexpr double kMaxHeight = 1e5;

/// The absolute path GDAL opens for `path`: a regular local file, neither one
/// of GDAL's virtual file systems (/vsicurl/, /vsizip/, ...) nor a URL nor a
/// connection string (those are no files), nor a FIFO or device (which would
/// block or never end).
std::string local_raster_path(const std::string& path) {
  if (path.rfind("/vsi", 0) == 0 || path.find("://") != std::string::npos)
    throw failure(path, "GDAL virtual file systems and URLs are not read: give a local raster file");
  require_regular_file(path);
  return std::filesystem::absolute(path).lexically_normal().string();
}

/// The first of the marks by which a CRS names a file PROJ opens as soon as
/// it reads the CRS (a grid: WKT2 PARAMETERFILE, PROJ's +nadgrids,
/// +geoidgrids, WKT1's PROJ4_GRIDS extension; an +init file) in `text`, any
/// case; empty when there is none.
std::string file_reference_in(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const char* mark : {"PARAMETERFILE", "GRIDS=", "PROJ4_GRIDS", "+INIT", "INIT="})
    if (upper.find(mark) != std::string::npos) return mark;
  return "";
}

/// Refuses a raster whose CRS could name such a file, before GDAL reads it:
/// the first MiB of the file (where GeoTIFF keys and citations and ASCII
/// grid headers are) and of each sidecar GDAL may read (`siblings`, names in
/// the file's folder), scanned for the marks of file_reference_in().
void require_no_file_references(const std::string& local, const std::vector<std::string>& siblings,
                                const std::string& path) {
  for (const std::string& name : siblings) {
    const std::filesystem::path candidate = std::filesystem::path(local).parent_path() / name;
    const int fd = ::open(candidate.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat status {};
    std::string head;
    if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode)) {
      head.resize(1 << 20);
      const ssize_t got = ::read(fd, head.data(), head.size());
      head.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    }
    ::close(fd);
    const std::string mark = file_reference_in(head);
    if (!mark.empty())
      throw failure(path, name + " holds a CRS that refers to a grid or parameter file (" + mark +
                              "): not read; assign the DEM a CRS by its EPSG code");
  }
}

/// `text` as the user's CRS: "EPSG:NNNN" or WKT text, nothing else (a URL,
/// a file name or a PROJ string can make PROJ read files or the network).
OGRSpatialReference crs_from_text(const std::string& text) {
  OGRSpatialReference crs;
  crs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  std::string upper = text.substr(0, 5);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string code = text.size() > 5 ? text.substr(5) : "";
  const bool epsg = upper == "EPSG:" && !code.empty() && code.size() <= 9 &&
                    code.find_first_not_of("0123456789") == std::string::npos;
  std::size_t keyword = 0;
  while (keyword < text.size() && (std::isalnum(static_cast<unsigned char>(text[keyword])) || text[keyword] == '_'))
    ++keyword;
  const bool wkt = keyword > 0 && keyword < text.size() && text[keyword] == '[';
  if (!epsg && !wkt)
    throw InputError::usage("--crs '" + text +
                            "': give EPSG:NNNN or WKT text (URLs, file names and PROJ strings are not read)");
  if (const std::string mark = file_reference_in(text); !mark.empty())
    throw InputError::usage("--crs: the CRS refers to a grid or parameter file (" + mark +
                            "): not read; give its EPSG code");
  const OGRErr error = epsg ? crs.importFromEPSG(std::stoi(code)) : crs.importFromWkt(text.c_str());
  if (error != OGRERR_NONE)
    throw InputError::usage("--crs '" + text + "': PROJ cannot use this CRS (" + QuietGdal::message() + ")");
  return crs;
}

/// Refuses a geotransform whose origin, pixel sizes or far corner are not
/// finite, or whose extent lies beyond any place on Earth: |x|, |y| above 1e8
/// in a projected CRS (m or ft), outside [-540, 540] x [-90, 90] degrees in a
/// geographic one, or pixels below 1e-6 of the unit (1e-9 degrees).
void require_sane_grid(const double gt[6], int nx, int ny, bool geographic, const std::string& path) {
  const double far_x = gt[0] + nx * gt[1], far_y = gt[3] + ny * gt[5];
  const double smallest = geographic ? 1e-9 : 1e-6;
  const double reach_x = geographic ? 540.0 : 1e8, reach_y = geographic ? 90.0 + std::abs(gt[5]) : 1e8;
  bool sane = std::abs(gt[1]) >= smallest && std::abs(gt[5]) >= smallest;
  for (const double x : {gt[0], far_x}) sane = sane && std::abs(x) <= reach_x;
  for (const double y : {gt[3], far_y}) sane = sane && std::abs(y) <= reach_y;
  if (!sane) {
    char text[400];
    std::snprintf(text, sizeof text,
                  "geotransform origin (%g, %g), pixel %g x %g: pixel sizes must be finite and at least %g and the "
                  "raster within %s of its CRS",
                  gt[0], gt[3], gt[1], gt[5], smallest, geographic ? "[-540, 540] x [-90, 90] degrees" : "1e8 units");
    throw failure(path, text);
  }
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
/// Throws for a height that is infinite or beyond ±kMaxHeight, naming its
/// row, column and value.
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
  for (std::size_t c = 0; c < values.size(); ++c) {
    if (std::isnan(values[c]) || (has_no_data && values[c] == no_data)) {
      values[c] = std::numeric_limits<double>::quiet_NaN();
      if (count++ == 0) first_bad = c;
    } else if (!(std::abs(values[c]) < kMaxHeight)) {
      char text[160];
      std::snprintf(text, sizeof text, "height %g m at row %zu, column %zu: not a height on Earth (|h| < 1e5 m)",
                    values[c], c / static_cast<std::size_t>(nx), c % static_cast<std::size_t>(nx));
      throw failure(path, text);
    }
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

/// The raster at `path` opened read-only by one of the DEM drivers, with its
/// own sidecar files only; a format GDAL knows but does not read as a DEM
/// is named.
Dataset open_dem(const std::string& path) {
  const std::string local = local_raster_path(path);
  const std::vector<std::string> siblings = sidecar_names(local);
  require_no_file_references(local, siblings, path);
  std::vector<const char*> sibling_list;
  for (const auto& name : siblings) sibling_list.push_back(name.c_str());
  sibling_list.push_back(nullptr);
  Dataset source(static_cast<GDALDataset*>(GDALOpenEx(local.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, kDemDrivers,
                                                      nullptr, const_cast<char**>(sibling_list.data()))));
  if (!source) {
    // Name the format when GDAL knows it (identification reads only the file's first bytes).
    const std::string reason = QuietGdal::message();
    if (GDALDriverH known = GDALIdentifyDriverEx(local.c_str(), GDAL_OF_RASTER, nullptr, nullptr))
      throw failure(path, std::string("format '") + GDALGetDriverLongName(known) + "' (GDAL driver " +
                              GDALGetDriverShortName(known) + ") is not read as a DEM; the formats read are " +
                              kDemFormats + " (convert with gdal_translate -of GTiff)");
    throw failure(path, std::string("not a raster GDAL can read as a DEM (") + kDemFormats + "): " + reason);
  }
  return source;
}

/// A band and cells, and the declared size (and GDAL's block) within the
/// memory, before anything is allocated for them.
void require_cells_within_memory(GDALDataset& source, const std::string& path, const DemOptions& options) {
  if (source.GetRasterCount() < 1) throw failure(path, "the raster has no band");
  const int nx = source.GetRasterXSize(), ny = source.GetRasterYSize();
  if (nx < 1 || ny < 1) throw failure(path, "the raster has no cells");
  std::uint64_t bytes = 0;
  if (!multiply_checked(static_cast<std::uint64_t>(nx) * static_cast<std::uint64_t>(ny), kBytesPerNode, bytes))
    bytes = UINT64_MAX;
  const std::uint64_t budget = options.memory_budget > 0 ? options.memory_budget : available_memory_bytes();
  require_memory(bytes, budget, path + ": a DEM of " + std::to_string(nx) + " x " + std::to_string(ny) + " nodes");
  // GDAL reads whole blocks (16 bytes per cell at most, complex doubles).
  int block_x = 0, block_y = 0;
  source.GetRasterBand(1)->GetBlockSize(&block_x, &block_y);
  const std::uint64_t block_bytes =
      16 * static_cast<std::uint64_t>(std::max(block_x, 1)) * static_cast<std::uint64_t>(std::max(block_y, 1));
  require_memory(block_bytes, budget / 4,
                 path + ": a block of " + std::to_string(block_x) + " x " + std::to_string(block_y) + " cells");
}

/// The DEM's CRS, and its north-up (or south-up) geotransform in `gt`, on
/// a grid of sane size.
const OGRSpatialReference& georeferencing(GDALDataset& source, const std::string& path, double gt[6]) {
  if (source.GetGeoTransform(gt) != CE_None)
    throw failure(path, "the DEM is not georeferenced (no geotransform); give it one, e.g. gdal_translate -a_ullr "
                        "-a_srs");
  if (gt[2] != 0.0 || gt[4] != 0.0 || !(gt[1] > 0.0) || gt[5] == 0.0)
    throw failure(path, "rotated or degenerate geotransform; only north-up (or south-up) grids are read");
  const OGRSpatialReference* source_crs = source.GetSpatialRef();
  if (!source_crs || source_crs->IsEmpty())
    throw failure(path, "the DEM has no coordinate reference system; assign one (gdal_edit.py -a_srs EPSG:NNNN)");
  require_sane_grid(gt, source.GetRasterXSize(), source.GetRasterYSize(), source_crs->IsGeographic(), path);
  return *source_crs;
}

/// Without --crs: the DEM's own projected CRS, or for a geographic one the
/// UTM zone of its centre.
void set_crs_of_the_dem(OGRSpatialReference& target, GDALDataset& source, const OGRSpatialReference& source_crs,
                        const double gt[6], const std::string& path) {
  if (source_crs.IsProjected()) {
    target = source_crs;
  } else if (source_crs.IsGeographic()) {
    double longitude = 0, latitude = 0;
    centre_lon_lat(source, source_crs, gt, path, longitude, latitude);
    target.importFromEPSG(utm_epsg(longitude, latitude));
  } else {
    throw failure(path, "its CRS (" + crs_label(source_crs) + ") is neither geographic nor projected; give --crs");
  }
}

/// The DEM warped to the target CRS (`target_wkt`, `target_name` in
/// messages) with as many columns and rows as the source, on the largest
/// north-up node rectangle inside the projected footprint, so every node of
/// the layer has a height: one prism per DEM node (bilinear; source no-data
/// stays out, cells next to it become NaN; -et 0: every point through PROJ,
/// not the warper's linear approximation of the transform, which may be off
/// by an eighth of a cell). A grid one node wide keeps the warper's own
/// extent.
Dataset warp_dem(GDALDataset& source, const OGRSpatialReference& source_gis, const OGRSpatialReference& target,
                 const double gt[6], const std::string& path, const std::string& target_wkt,
                 const std::string& target_name) {
  const int nx = source.GetRasterXSize(), ny = source.GetRasterYSize();
  const std::string size_x = std::to_string(nx), size_y = std::to_string(ny);
  std::vector<std::string> args = {"-of", "MEM", "-t_srs", target_wkt, "-ts", size_x, size_y, "-r", "bilinear",
                                   "-et", "0", "-dstnodata", "nan", "-ot", "Float64"};
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
  GDALDatasetH source_handle = GDALDataset::ToHandle(&source);
  int usage_error = 0;
  Dataset warped(GDALDataset::FromHandle(GDALWarp("", nullptr, 1, &source_handle, warp_options.get(), &usage_error)));
  if (!warped) throw failure(path, "cannot project to " + target_name + ": " + QuietGdal::message());
  return warped;
}

}  // namespace

NoData parse_no_data(const std::string& text) {
  if (text == "refuse") return NoData::Refuse;
  if (text == "skip") return NoData::Skip;
  throw InputError("unknown no-data choice '" + text + "' (expected refuse or skip)");
}

Dem read_dem(const std::string& path, const DemOptions& options) {
  restrict_gdal();
  const QuietGdal quiet;
  // The user's CRS first: a usage error before the file is touched.
  OGRSpatialReference target;
  target.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  if (!options.crs.empty()) {
    target = crs_from_text(options.crs);
    if (!target.IsProjected())
      throw InputError::usage("--crs '" + options.crs + "': not a projected CRS (prisms need metres east and north)");
  }
  const Dataset source = open_dem(path);
  require_cells_within_memory(*source, path, options);
  const int nx = source->GetRasterXSize(), ny = source->GetRasterYSize();
  double gt[6];
  const OGRSpatialReference& source_crs = georeferencing(*source, path, gt);

  std::vector<double> values;
  std::size_t first_bad = 0;
  const std::size_t no_data = read_band(*source, path, values, first_bad);
  if (no_data > 0 && options.no_data == NoData::Refuse)
    throw failure(path, std::to_string(no_data) + " no-data or NaN height(s), the first at row " +
                            std::to_string(first_bad / nx) + ", column " + std::to_string(first_bad % nx) +
                            " (--nodata skip leaves them out of the layer)");
  if (no_data == values.size()) throw failure(path, "every height is no-data");
  if (options.crs.empty()) set_crs_of_the_dem(target, *source, source_crs, gt, path);  // else the user's, set above

  Dem dem;
  dem.no_data_cells = no_data;
  dem.crs = crs_label(target);
  dem.crs_wkt = wkt2(target);
  OGRSpatialReference source_gis = source_crs;
  source_gis.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  if (source_gis.IsSame(&target)) {
    if (source_crs.IsProjected() && source_crs.GetLinearUnits() != 1.0)
      throw failure(path, "projected CRS " + dem.crs + " is not in metres; give --crs to project it");
    fill_grid(dem, gt, nx, ny, values);
    return dem;
  }
  const Dataset warped = warp_dem(*source, source_gis, target, gt, path, dem.crs_wkt, dem.crs);
  double wgt[6];
  warped->GetGeoTransform(wgt);
  require_sane_grid(wgt, warped->GetRasterXSize(), warped->GetRasterYSize(), false,
                    path + " (projected to " + dem.crs + ")");
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
