#include "mesh/prisms/stations.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "gpu/core/input_error.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/memory_budget.hpp"

namespace geobem::prisms {

namespace {
void check_axis(double low, double high, std::size_t shape, const char* low_name, const char* high_name) {
  std::ostringstream values;
  values << low_name << " = " << low << ", " << high_name << " = " << high;
  if (!std::isfinite(low) || !std::isfinite(high))
    throw InputError::usage("station grid: " + values.str() + " must be finite");
  if (shape > 1 ? !(low < high) : !(low <= high))
    throw InputError::usage("station grid: " + values.str() + ": " + low_name + " must be less than " + high_name);
}

double coordinate(double low, double high, std::size_t shape, std::size_t i) {
  if (shape == 1) return low;
  if (i + 1 == shape) return high;
  return low + (high - low) * static_cast<double>(i) / static_cast<double>(shape - 1);
}
}  // namespace

void check_station_grid(const StationGrid& grid) {
  if (grid.shape_e == 0 || grid.shape_n == 0)
    throw InputError::usage("station grid: shape " + std::to_string(grid.shape_e) + "," +
                            std::to_string(grid.shape_n) + " has no stations (both counts must be at least 1)");
  check_axis(grid.west, grid.east, grid.shape_e, "west", "east");
  check_axis(grid.south, grid.north, grid.shape_n, "south", "north");
  if (!std::isfinite(grid.upward)) throw InputError::usage("station grid: upward must be finite");
}

std::vector<Station> grid_stations(const StationGrid& grid) {
  std::uint64_t count = 0, bytes = 0;
  if (!multiply_checked(grid.shape_e, grid.shape_n, count) || !multiply_checked(count, sizeof(Station), bytes))
    bytes = UINT64_MAX;
  require_memory(bytes, available_memory_bytes(),
                 "station grid " + std::to_string(grid.shape_e) + "," + std::to_string(grid.shape_n));
  std::vector<Station> stations;
  stations.reserve(grid.shape_e * grid.shape_n);
  for (std::size_t j = 0; j < grid.shape_n; ++j)
    for (std::size_t i = 0; i < grid.shape_e; ++i)
      stations.push_back(Station{coordinate(grid.west, grid.east, grid.shape_e, i),
                                 coordinate(grid.south, grid.north, grid.shape_n, j), grid.upward});
  return stations;
}

std::vector<Station> read_station_csv(const std::string& path) {
  const CsvTable table = read_csv_table(path);
  const std::size_t easting = table.column("easting"), northing = table.column("northing"),
                    upward = table.column("upward");
  if (table.rows.empty()) throw std::runtime_error(path + ": no stations (header only)");
  std::vector<Station> stations;
  stations.reserve(table.rows.size());
  for (const auto& row : table.rows) stations.push_back(Station{row[easting], row[northing], row[upward]});
  return stations;
}

}  // namespace geobem::prisms
