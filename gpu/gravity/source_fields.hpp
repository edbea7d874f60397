#pragma once
// The two kinds of source the drivers sum over, behind one call: a prism
// (general path, prism_fields) or a weighted grid node (grid path,
// corner_fields). Both form station-relative coordinates in double before
// rounding to Real, the precision-critical step (station_relative).
#include "gpu/core/host_device.hpp"
#include "gpu/gravity/grid_node_kernels.hpp"
#include "gpu/gravity/prism.hpp"
#include "gpu/gravity/prism_kernels.hpp"

namespace geobem::gravity {

/// Kernel values of a unit-density prism at the station into values[] (fields
/// of `mask`); returns the prism's density, the factor of those values.
template <typename Real, typename Pairs = InlinePairs>
GEOBEM_HD inline double source_fields(const Prism& prism, const Station& station, unsigned mask, Real values[10]) {
  const RelativePrism<Real> rel = relative_prism<Real>(prism.west, prism.east, prism.south, prism.north, prism.bottom,
                                                       prism.top, station.easting, station.northing, station.upward);
  prism_fields<Real, Pairs>(rel, mask, values);
  return prism.density;
}

/// Corner function of a grid node at the station into values[]; returns the
/// node's weight. (Pairs is unused: the corner function has no edge pairs.)
template <typename Real, typename Pairs = InlinePairs>
GEOBEM_HD inline double source_fields(const GridNode& node, const Station& station, unsigned mask, Real values[10]) {
  corner_fields<Real>(station_relative<Real>(node.easting, station.easting),
                      station_relative<Real>(node.northing, station.northing),
                      station_relative<Real>(node.upward, station.upward), mask, values);
  return node.weight;
}

}  // namespace geobem::gravity
