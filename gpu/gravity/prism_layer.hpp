#pragma once
// A prism layer: one prism per cell of a regular grid of surface heights,
// between a reference height and the surface (Harmonica's prism_layer
// convention, Uieda et al. 2020: the grid nodes are the prism centres, each
// prism spans its node ± half a spacing). The drivers form each prism from
// the heights as they need it (layer_prism), so no prism list is built:
// memory O(cells) for the heights alone.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu/core/host_device.hpp"
#include "gpu/gravity/prism.hpp"

namespace geobem::gravity {

/// Geometry and densities of a layer, plain data for host and device.
/// Cell (i, j) (i eastward, j northward) is centred on
/// (west_centre + i·spacing_e, south_centre + j·spacing_n); its surface height
/// is surface[i + shape_e·j]. A cell whose surface lies above `reference`
/// spans [reference, surface] with density_above; below, [surface, reference]
/// with density_below; a cell on the reference or with a NaN surface (a
/// skipped no-data cell) is empty. Metres and kg/m³.
struct LayerGeometry {
  std::int64_t shape_e = 0, shape_n = 0;
  double west_centre = 0, south_centre = 0;
  double spacing_e = 0, spacing_n = 0;
  double reference = 0;
  double density_above = 0, density_below = 0;
};

/// A layer with its surface heights (m), easting fastest, southern row first.
struct PrismLayer {
  LayerGeometry geometry;
  std::vector<double> surface;

  std::size_t cell_count() const { return surface.size(); }
};

/// Cell boundaries: grid line k (0 … shape) of easting and of northing, at
/// the centre of cell k − ½; one formula for both cells that share a line,
/// so neighbouring prisms neither overlap nor leave a gap by rounding.
GEOBEM_HD inline double easting_line(const LayerGeometry& g, std::int64_t k) {
  return g.west_centre + (static_cast<double>(k) - 0.5) * g.spacing_e;
}
GEOBEM_HD inline double northing_line(const LayerGeometry& g, std::int64_t k) {
  return g.south_centre + (static_cast<double>(k) - 0.5) * g.spacing_n;
}

/// The prism of `cell` (index into the surface array) whose surface height is
/// `surface`; its density is 0 for an empty cell (then its bounds are those of
/// a unit box at the reference, never evaluated: the drivers skip
/// zero-density sources).
GEOBEM_HD inline Prism layer_prism(const LayerGeometry& g, std::int64_t cell, double surface) {
  const std::int64_t i = cell % g.shape_e, j = cell / g.shape_e;
  Prism p{easting_line(g, i), easting_line(g, i + 1), northing_line(g, j), northing_line(g, j + 1),
          g.reference, g.reference + 1.0, 0.0};
  if (surface > g.reference) {
    p.top = surface;
    p.density = g.density_above;
  } else if (surface < g.reference) {
    p.bottom = surface;
    p.top = g.reference;
    p.density = g.density_below;
  }  // equal or NaN: empty
  return p;
}

/// Checks a layer: shape ≥ 1 × 1 with one height per cell, finite positive
/// spacings, finite centres, reference and densities, and heights finite or
/// NaN (skipped). Throws InputError naming the value or cell.
void check_prism_layer(const PrismLayer& layer);

/// The bounding box (west, east, south, north, bottom, top; m) of the
/// non-empty cells above the reference (if `above`) and below it (if
/// `below`); inverted (+inf/−inf) when there are none.
std::array<double, 6> cells_box(const PrismLayer& layer, bool above, bool below);

/// Number of cells that contribute (surface not NaN, not on the reference,
/// and a non-zero density on their side).
std::size_t massive_cell_count(const PrismLayer& layer);

}  // namespace geobem::gravity
