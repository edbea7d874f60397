#pragma once
// Observation stations: a regular grid or the station CSV of docs/design.md#file-formats
// (header easting,northing,upward; metres; `#` comments).
#include <cstddef>
#include <string>
#include <vector>

#include "gpu/gravity/prism.hpp"

namespace geobem::prisms {

using gravity::Station;

/// A regular grid of stations at one elevation: `shape_e` stations from west
/// to east and `shape_n` from south to north (both ends included; a single
/// station along an axis sits at west or south), `upward` in metres.
struct StationGrid {
  double west, east, south, north;
  std::size_t shape_e, shape_n;
  double upward;
};

/// Checks the grid: non-zero shape, finite values, west ≤ east and
/// south ≤ north (strictly when more than one station along that axis).
/// Throws InputError::usage naming the value.
void check_station_grid(const StationGrid& grid);

/// The stations of a checked grid, easting fastest then northing (the point
/// order of a vtkStructuredGrid with dimensions shape_e × shape_n × 1).
/// Throws std::runtime_error with the bytes needed when they do not fit in
/// the memory available.
std::vector<Station> grid_stations(const StationGrid& grid);

/// Reads a station CSV. Throws std::runtime_error "FILE:LINE: ..." for a
/// missing file or column, a malformed row or a non-finite value, and
/// "FILE: no stations" for a file with a header only.
std::vector<Station> read_station_csv(const std::string& path);

}  // namespace geobem::prisms
