#include "gpu/gravity/grid_nodes.hpp"

#include <cstdint>

namespace geobem::gravity {

std::vector<GridNode> grid_nodes(const PrismGrid& grid) {
  const std::int64_t nx = static_cast<std::int64_t>(grid.cells_e()), ny = static_cast<std::int64_t>(grid.cells_n()),
                     nz = static_cast<std::int64_t>(grid.cells_u());
  // Row (b, k) of densities, or nullptr outside the grid (density 0).
  const auto row = [&](std::int64_t b, std::int64_t k) -> const double* {
    if (b < 0 || k < 0 || b >= ny || k >= nz) return nullptr;
    return grid.density.data() + grid.index(0, static_cast<std::size_t>(b), static_cast<std::size_t>(k));
  };
  // One list per node layer, filled in parallel and joined in layer order.
  std::vector<std::vector<GridNode>> layers(static_cast<std::size_t>(nz + 1));
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t c = 0; c <= nz; ++c) {
    auto& layer = layers[static_cast<std::size_t>(c)];
    for (std::int64_t b = 0; b <= ny; ++b) {
      // The four cell rows around node row (b, c), each with its sign
      // (−1)^(db+dc): (b−1, c−1) +, (b, c−1) −, (b−1, c) −, (b, c) +.
      const double* rows[4] = {row(b - 1, c - 1), row(b, c - 1), row(b - 1, c), row(b, c)};
      const double signs[4] = {1.0, -1.0, -1.0, 1.0};
      if (!rows[0] && !rows[1] && !rows[2] && !rows[3]) continue;
      for (std::int64_t a = 0; a <= nx; ++a) {
        // Cell a−1 has the node as its east bound (+), cell a as its west (−).
        double weight = 0.0;
        for (int r = 0; r < 4; ++r) {
          if (!rows[r]) continue;
          const double west_cell = a > 0 ? rows[r][a - 1] : 0.0, east_cell = a < nx ? rows[r][a] : 0.0;
          weight += signs[r] * (west_cell - east_cell);
        }
        if (weight != 0.0)
          layer.push_back({grid.easting_edges[a], grid.northing_edges[b], grid.upward_edges[c], weight});
      }
    }
  }
  std::vector<GridNode> nodes;
  std::size_t count = 0;
  for (const auto& layer : layers) count += layer.size();
  nodes.reserve(count);
  for (const auto& layer : layers) nodes.insert(nodes.end(), layer.begin(), layer.end());
  return nodes;
}

bool grid_path_applies(const PrismGrid& grid, const std::vector<Station>& stations) {
  const double west = grid.easting_edges.front(), east = grid.easting_edges.back();
  const double south = grid.northing_edges.front(), north = grid.northing_edges.back();
  const double bottom = grid.upward_edges.front(), top = grid.upward_edges.back();
  for (const Station& s : stations)
    if (s.easting >= west && s.easting <= east && s.northing >= south && s.northing <= north &&
        s.upward >= bottom && s.upward <= top)
      return false;
  return true;
}

}  // namespace geobem::gravity
