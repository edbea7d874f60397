#pragma once
// Gravity results on stations as docs/design.md#file-formats fixes them: gravity.csv always
// (station columns, then the computed fields), gravity.vts for a regular
// station grid, gravity.vtu (one vertex cell per station) for scattered
// stations; units as VTK field data; every file written atomically.
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

/// Writes easting,northing,upward then one column per field, 17 significant
/// digits. Throws std::invalid_argument when a column's length differs from
/// the station count, std::runtime_error naming the path on a failed write.
void write_gravity_csv(const std::filesystem::path& path, const std::vector<Station>& stations,
                       const std::vector<GravityColumn>& columns);

/// Writes a vtkStructuredGrid of shape_e × shape_n × 1 points (the stations of
/// grid_stations(grid)) with one point array per field and units field data
/// (station coordinates in m). Same errors as write_gravity_csv.
void write_gravity_vts(const std::filesystem::path& path, const StationGrid& grid,
                       const std::vector<GravityColumn>& columns);

/// Writes a vtkUnstructuredGrid with one VTK_VERTEX cell per station and one
/// point array per field, with units field data. Same errors as write_gravity_csv.
void write_gravity_vtu(const std::filesystem::path& path, const std::vector<Station>& stations,
                       const std::vector<GravityColumn>& columns);

/// Writes DIR/gravity.csv and DIR/gravity.vts (when `grid` is given; the
/// stations must then be grid_stations(*grid)) or DIR/gravity.vtu; creates DIR.
/// Returns the paths written.
std::vector<std::filesystem::path> write_gravity_outputs(const std::filesystem::path& directory,
                                                         const std::vector<Station>& stations,
                                                         const std::optional<StationGrid>& grid,
                                                         const std::vector<GravityColumn>& columns);

}  // namespace geobem::prisms
