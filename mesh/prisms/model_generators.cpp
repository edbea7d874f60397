#include "mesh/prisms/model_generators.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "gpu/core/input_error.hpp"

namespace geobem::prisms {

namespace {
std::vector<double> regular_edges(double low, double high, std::size_t cells) {
  std::vector<double> edges(cells + 1);
  for (std::size_t i = 0; i <= cells; ++i)
    edges[i] = i == cells ? high : low + (high - low) * static_cast<double>(i) / static_cast<double>(cells);
  return edges;
}
}  // namespace

GridSpec couder_grid(std::size_t cells_e, std::size_t cells_n, std::size_t cells_u) {
  return GridSpec{0.0, 22000.0, 0.0, 22000.0, -8000.0, 0.0, cells_e, cells_n, cells_u};
}

std::vector<Sphere> couder_spheres() {
  return {{5000, 5000, -2500, 1200, 400},   {5500, 16000, -3500, 1150, -300}, {11000, 11000, -4000, 1400, 250},
          {16500, 5000, -3000, 1000, 500},  {17000, 16500, -2000, 900, -250}, {11000, 3000, -5500, 1050, 300},
          {11000, 19000, -5000, 853, -400}};
}

PrismGrid sphere_grid(const GridSpec& spec, const std::vector<Sphere>& spheres) {
  if (!(spec.west < spec.east && spec.south < spec.north && spec.bottom < spec.top))
    throw InputError("grid extent must have west < east, south < north and bottom < top");
  if (spec.cells_e == 0 || spec.cells_n == 0 || spec.cells_u == 0)
    throw InputError("grid cell counts must be positive, got " + std::to_string(spec.cells_e) + "x" +
                     std::to_string(spec.cells_n) + "x" + std::to_string(spec.cells_u));
  if (static_cast<double>(spec.cells_e) * spec.cells_n * spec.cells_u > 2147483648.0)
    throw InputError("grid of " + std::to_string(spec.cells_e) + "x" + std::to_string(spec.cells_n) + "x" +
                     std::to_string(spec.cells_u) + " cells is too large (at most 2^31 cells)");
  for (std::size_t s = 0; s < spheres.size(); ++s) {
    const Sphere& sphere = spheres[s];
    if (!(sphere.radius > 0) || !std::isfinite(sphere.radius) || !std::isfinite(sphere.easting) ||
        !std::isfinite(sphere.northing) || !std::isfinite(sphere.upward) || !std::isfinite(sphere.density))
      throw InputError("sphere " + std::to_string(s + 1) + ": radius must be positive and all values finite");
  }
  require_grid_memory(static_cast<std::uint64_t>(spec.cells_e) * spec.cells_n * spec.cells_u,
                      "the sphere model's " + std::to_string(spec.cells_e) + "x" + std::to_string(spec.cells_n) + "x" +
                          std::to_string(spec.cells_u) + " cells");
  PrismGrid grid;
  grid.easting_edges = regular_edges(spec.west, spec.east, spec.cells_e);
  grid.northing_edges = regular_edges(spec.south, spec.north, spec.cells_n);
  grid.upward_edges = regular_edges(spec.bottom, spec.top, spec.cells_u);
  grid.density.assign(grid.cell_count(), 0.0);
  for (std::size_t i_u = 0; i_u < spec.cells_u; ++i_u) {
    const double u = 0.5 * (grid.upward_edges[i_u] + grid.upward_edges[i_u + 1]);
    for (std::size_t i_n = 0; i_n < spec.cells_n; ++i_n) {
      const double n = 0.5 * (grid.northing_edges[i_n] + grid.northing_edges[i_n + 1]);
      for (std::size_t i_e = 0; i_e < spec.cells_e; ++i_e) {
        const double e = 0.5 * (grid.easting_edges[i_e] + grid.easting_edges[i_e + 1]);
        for (const Sphere& sphere : spheres) {
          const double de = e - sphere.easting, dn = n - sphere.northing, du = u - sphere.upward;
          if (de * de + dn * dn + du * du <= sphere.radius * sphere.radius) {
            grid.density[grid.index(i_e, i_n, i_u)] = sphere.density;
            break;
          }
        }
      }
    }
  }
  return grid;
}

PrismModel block_model(const std::vector<Prism>& boxes) {
  PrismModel model;
  model.source = "blocks";
  for (std::size_t b = 0; b < boxes.size(); ++b) check_prism(boxes[b], "block " + std::to_string(b + 1));
  model.prisms = boxes;
  return model;
}

}  // namespace geobem::prisms
