#include "gpu/gravity/grid_nodes.hpp"

#include <cstdint>

namespace geobem::gravity {

std::vector<GridNode> grid_nodes(const PrismGrid& grid) {
  const std::int64_t nx = static_cast<std::int64_t>(grid.cells_e()), ny = static_cast<std::int64_t>(grid.cells_n()),
                     nz = static_cast<std::int64_t>(grid.cells_u());
  const auto density = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return 0.0;
    return grid.density[grid.index(static_cast<std::size_t>(i), static_cast<std::size_t>(j),
                                   static_cast<std::size_t>(k))];
  };
  // One list per node layer, filled in parallel and joined in layer order.
  std::vector<std::vector<GridNode>> layers(static_cast<std::size_t>(nz + 1));
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t c = 0; c <= nz; ++c) {
    auto& layer = layers[static_cast<std::size_t>(c)];
    for (std::int64_t b = 0; b <= ny; ++b)
      for (std::int64_t a = 0; a <= nx; ++a) {
        double weight = 0.0;
        for (int dc = 0; dc < 2; ++dc)
          for (int db = 0; db < 2; ++db)
            for (int da = 0; da < 2; ++da) {
              const double rho = density(a - 1 + da, b - 1 + db, c - 1 + dc);
              weight += ((da + db + dc) % 2 == 0) ? rho : -rho;
            }
        if (weight != 0.0)
          layer.push_back({grid.easting_edges[a], grid.northing_edges[b], grid.upward_edges[c], weight});
      }
  }
  std::vector<GridNode> nodes;
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
