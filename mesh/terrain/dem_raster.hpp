#pragma once
// Digital elevation models through GDAL, restricted to local raster files of
// an allow-list of drivers (GeoTIFF, ESRI ASCII grid, SRTM .hgt, USGS DEM,
// ESRI .bil/.hdr) with no network, no
// VRT and no file named inside the raster or its CRS (docs/readers.md); the
// first band taken as heights in metres, on a projected grid whose nodes are
// the cell (pixel) centres. A geographic
// DEM is projected with PROJ (through GDAL's warper, bilinear) to the UTM zone
// of its centre or to a CRS the user names, onto a regular north-up grid with
// the DEM's node count that lies inside the projected footprint (the largest
// such node rectangle): every node has a height, one per DEM node.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace geobem::terrain {

/// What read_dem does with no-data cells (the band's no-data value or NaN).
enum class NoData { Refuse, Skip };
/// "refuse" or "skip"; throws InputError naming the value otherwise.
NoData parse_no_data(const std::string& text);

struct DemOptions {
  /// Target CRS: "EPSG:NNNN" or WKT text (no URL, file name or PROJ string);
  /// must be projected. Empty: a projected DEM stays in its CRS, a geographic
  /// one goes to the UTM zone (WGS 84) of its centre.
  std::string crs;
  NoData no_data = NoData::Refuse;
  /// Bytes read_dem may hold at its peak (about 40 per node: the DEM's
  /// declared size is checked against it before anything is read); 0: the
  /// memory available now (available_memory_bytes()).
  std::uint64_t memory_budget = 0;
};

/// A DEM on a regular projected grid, nodes = cell centres: node (i, j)
/// (i eastward, j northward) at (west_centre + i·spacing_e, south_centre +
/// j·spacing_n), height heights[i + shape_e·j] (m; NaN where no-data was
/// skipped or, after projection, next to a skipped cell).
struct Dem {
  std::int64_t shape_e = 0, shape_n = 0;
  double west_centre = 0, south_centre = 0, spacing_e = 0, spacing_n = 0;
  std::vector<double> heights;
  std::string crs;      ///< "EPSG:NNNN" when it has a code, else the CRS's name
  std::string crs_wkt;  ///< WKT 2 of the CRS
  std::size_t no_data_cells = 0;  ///< no-data cells of the source raster (skipped)
  std::size_t outside_cells = 0;  ///< projected cells without a valid source height (next to skipped no-data)
  bool projected_here = false;    ///< warped from the source CRS by read_dem
};

/// Reads and, if needed, projects a DEM. Throws InputError::usage for a
/// --crs that is not EPSG:NNNN or WKT, that PROJ cannot use, that is not
/// projected or that names a grid file, and std::runtime_error naming the
/// file for: a path that is a GDAL virtual file system or URL, no regular
/// file, a file none of the allowed drivers opens (the format GDAL sees in it
/// named, or GDAL's message passed on), a CRS in the file's first MiB or its
/// .prj sidecar that names a grid or parameter file, no band, a declared size (or block size) that
/// does not fit in the memory available (checked before anything is read),
/// no geotransform (not georeferenced), a rotated geotransform, pixel sizes
/// or an extent that are not finite or lie beyond the Earth, no CRS or one
/// that names a grid or parameter file, a height that is infinite or beyond
/// ±1e5 m (its row, column and value), no-data cells under NoData::Refuse
/// (with their count and the first one's row/column), a DEM with nothing but
/// no-data.
Dem read_dem(const std::string& path, const DemOptions& options);

/// The height at (easting, northing) by bilinear interpolation between the
/// four surrounding nodes; NaN outside the grid of nodes or where one of the
/// four is NaN.
double bilinear_height(const Dem& dem, double easting, double northing);

}  // namespace geobem::terrain
