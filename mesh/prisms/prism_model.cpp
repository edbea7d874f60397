#include "mesh/prisms/prism_model.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "mesh/io/memory_budget.hpp"

namespace geobem::prisms {

namespace {
std::string number(double value) {
  std::ostringstream text;
  text.precision(10);
  text << value;
  return text.str();
}

void check_bounds(double low, double high, const char* low_name, const char* high_name, const std::string& where) {
  if (!std::isfinite(low) || !std::isfinite(high))
    throw std::runtime_error(where + ": " + low_name + " = " + number(low) + ", " + high_name + " = " + number(high) +
                             " must be finite");
  if (std::abs(low) > max_coordinate || std::abs(high) > max_coordinate)
    throw std::runtime_error(where + ": " + low_name + " = " + number(low) + ", " + high_name + " = " + number(high) +
                             ": coordinates are limited to +-" + number(max_coordinate) +
                             " m (the gravity kernels square coordinate differences)");
  if (!(low < high))
    throw std::runtime_error(where + ": " + low_name + " (" + number(low) + ") must be less than " + high_name + " (" +
                             number(high) + ")");
}

void check_edges(const std::vector<double>& edges, const char* axis, const std::string& source) {
  if (edges.size() < 2)
    throw std::runtime_error(source + ": the " + std::string(axis) + " axis has no cells");
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!std::isfinite(edges[i]) || std::abs(edges[i]) > max_coordinate)
      throw std::runtime_error(source + ": " + axis + " edge " + std::to_string(i) + " = " + number(edges[i]) +
                               (std::isfinite(edges[i]) ? " lies beyond +-" + number(max_coordinate) + " m"
                                                        : " is not finite (do the cell widths overflow?)"));
    if (i > 0 && !(edges[i - 1] < edges[i]))
      throw std::runtime_error(source + ": " + axis + " edges must increase, but edge " + std::to_string(i - 1) +
                               " = " + number(edges[i - 1]) + " and edge " + std::to_string(i) + " = " +
                               number(edges[i]));
  }
}
}  // namespace

void check_prism(const Prism& prism, const std::string& where) {
  check_bounds(prism.west, prism.east, "west", "east", where);
  check_bounds(prism.south, prism.north, "south", "north", where);
  check_bounds(prism.bottom, prism.top, "bottom", "top", where);
  if (!std::isfinite(prism.density))
    throw std::runtime_error(where + ": density " + number(prism.density) + " is not finite");
}

void check_grid(const PrismGrid& grid, const std::string& source) {
  check_edges(grid.easting_edges, "easting", source);
  check_edges(grid.northing_edges, "northing", source);
  check_edges(grid.upward_edges, "upward", source);
  if (grid.density.size() != grid.cell_count())
    throw std::runtime_error(source + ": " + std::to_string(grid.density.size()) + " densities for " +
                             std::to_string(grid.cell_count()) + " cells");
  for (std::size_t i_u = 0; i_u < grid.cells_u(); ++i_u)
    for (std::size_t i_n = 0; i_n < grid.cells_n(); ++i_n)
      for (std::size_t i_e = 0; i_e < grid.cells_e(); ++i_e)
        if (!std::isfinite(grid.density[grid.index(i_e, i_n, i_u)]))
          throw std::runtime_error(source + ": cell (" + std::to_string(i_e) + ", " + std::to_string(i_n) + ", " +
                                   std::to_string(i_u) + ") (easting, northing, upward index): density " +
                                   number(grid.density[grid.index(i_e, i_n, i_u)]) + " is not finite");
}

std::vector<Prism> grid_prisms(const PrismGrid& grid) {
  std::vector<Prism> prisms;
  for (std::size_t i_u = 0; i_u < grid.cells_u(); ++i_u)
    for (std::size_t i_n = 0; i_n < grid.cells_n(); ++i_n)
      for (std::size_t i_e = 0; i_e < grid.cells_e(); ++i_e)
        if (grid.density[grid.index(i_e, i_n, i_u)] != 0.0)
          prisms.push_back(Prism{grid.easting_edges[i_e], grid.easting_edges[i_e + 1], grid.northing_edges[i_n],
                               grid.northing_edges[i_n + 1], grid.upward_edges[i_u], grid.upward_edges[i_u + 1],
                               grid.density[grid.index(i_e, i_n, i_u)]});
  return prisms;
}

PrismModel model_from_grid(PrismGrid grid, std::string source) {
  PrismModel model;
  model.source = std::move(source);
  model.prisms = grid_prisms(grid);
  model.zero_density_dropped = grid.cell_count() - model.prisms.size();
  model.grid = std::move(grid);
  return model;
}

std::size_t drop_zero_density(PrismModel& model) {
  auto& prisms = model.prisms;
  const auto kept = std::remove_if(prisms.begin(), prisms.end(), [](const Prism& p) { return p.density == 0.0; });
  const auto dropped = static_cast<std::size_t>(prisms.end() - kept);
  prisms.erase(kept, prisms.end());
  model.zero_density_dropped += dropped;
  return dropped;
}

void require_grid_memory(std::uint64_t cells, const std::string& what) {
  std::uint64_t bytes = 0;
  if (!multiply_checked(cells, sizeof(double) + sizeof(Prism), bytes)) bytes = UINT64_MAX;
  require_memory(bytes, available_memory_bytes(), what + " (densities and prisms)");
}

double total_volume(const std::vector<Prism>& prisms) {
  double volume = 0.0;
  for (const auto& p : prisms) volume += (p.east - p.west) * (p.north - p.south) * (p.top - p.bottom);
  return volume;
}

double largest_density_magnitude(const std::vector<Prism>& prisms) {
  double largest = 0.0;
  for (const auto& p : prisms) largest = std::max(largest, std::abs(p.density));
  return largest;
}

std::string density_unit_warning(double largest, const std::string& what) {
  if (!(largest > 0.0) || largest >= smallest_plausible_density) return "";
  std::ostringstream text;
  text << "the densities of " << what << " are at most " << largest
       << " kg/m^3 in magnitude: densities are kg/m^3, so if these are g/cm^3 the fields are 1000 times too small ("
       << largest << " g/cm^3 = " << 1000.0 * largest << " kg/m^3)";
  return text.str();
}

}  // namespace geobem::prisms
