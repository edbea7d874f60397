// reference_edges(): the reference-plane edges of a prism layer that do not
// cancel between neighbouring cells (layer_faces.hpp).
#include "gpu/gravity/layer_faces.hpp"

namespace geobem::gravity {

std::vector<ReferenceEdge> reference_edges(const PrismLayer& layer, std::int64_t first, std::int64_t count) {
  const LayerGeometry& g = layer.geometry;
  // Weight of cell (i, j); 0 outside the grid or outside this share.
  const auto weight = [&](std::int64_t i, std::int64_t j) {
    if (i < 0 || j < 0 || i >= g.shape_e || j >= g.shape_n) return 0.0;
    const std::int64_t cell = i + g.shape_e * j;
    if (cell < first || cell >= first + count) return 0.0;
    return reference_weight(g, layer.surface[static_cast<std::size_t>(cell)]);
  };
  std::vector<ReferenceEdge> edges;
  // Edges along easting on northing line j: north edge of (i, j − 1), south edge of (i, j).
  for (std::int64_t j = 0; j <= g.shape_n; ++j)
    for (std::int64_t i = 0; i < g.shape_e; ++i) {
      const double w = weight(i, j - 1) - weight(i, j);
      if (w != 0.0) edges.push_back({easting_line(g, i), easting_line(g, i + 1), northing_line(g, j), w, 0});
    }
  // Edges along northing on easting line i: east edge of (i − 1, j), west edge of (i, j).
  for (std::int64_t i = 0; i <= g.shape_e; ++i)
    for (std::int64_t j = 0; j < g.shape_n; ++j) {
      const double w = weight(i - 1, j) - weight(i, j);
      if (w != 0.0) edges.push_back({northing_line(g, j), northing_line(g, j + 1), easting_line(g, i), w, 1});
    }
  return edges;
}

}  // namespace geobem::gravity
