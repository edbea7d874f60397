#pragma once
// Gravity results on stations as docs/design.md#file-formats fixes them: gravity.csv always
// (station columns, then the computed fields), gravity.vts for stations that
// form a grid (a regular grid at one height, or a grid draped over a DEM, a
// surface ParaView can contour), gravity.vtu (one vertex cell per station)
// for scattered stations; units as VTK field data; every file written
// atomically.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "mesh/prisms/stations.hpp"

namespace geobem::prisms {

/// One computed field: name (e.g. "g_z"), unit (e.g. "mGal") and one value
/// per station, in station order.
struct GravityColumn {
  std::string name, unit;
  std::vector<double> values;
};

/// Writes easting,northing,upward then one column per field, each number the
/// shortest text that reads back exactly (shortest_text). Throws
/// InputError when a column's length differs from the station
/// count, std::runtime_error naming the path on a failed write.
void write_gravity_csv(const std::filesystem::path& path, const std::vector<Station>& stations,
                       const std::vector<GravityColumn>& columns);

/// How stations form a structured grid: `shape_e` stations west to east
/// (fastest in station order), `shape_n` rows south to north.
struct StationGridShape {
  std::size_t shape_e = 0, shape_n = 0;
};

/// Writes a vtkStructuredGrid of shape.shape_e × shape.shape_n × 1 points at
/// the stations (in grid order, any heights) with one point array per field
/// and units field data (station coordinates in m). Throws
/// InputError when the shape does not hold the stations, else as
/// write_gravity_csv.
void write_gravity_vts(const std::filesystem::path& path, const std::vector<Station>& stations,
                       StationGridShape shape, const std::vector<GravityColumn>& columns);

/// Writes a vtkUnstructuredGrid with one VTK_VERTEX cell per station and one
/// point array per field, with units field data. Same errors as write_gravity_csv.
void write_gravity_vtu(const std::filesystem::path& path, const std::vector<Station>& stations,
                       const std::vector<GravityColumn>& columns);

/// Writes DIR/gravity.csv and DIR/gravity.vts (when the stations form a grid
/// of `shape`) or DIR/gravity.vtu; creates DIR. Returns the paths written.
std::vector<std::filesystem::path> write_gravity_outputs(const std::filesystem::path& directory,
                                                         const std::vector<Station>& stations,
                                                         const std::optional<StationGridShape>& shape,
                                                         const std::vector<GravityColumn>& columns);

}  // namespace geobem::prisms
