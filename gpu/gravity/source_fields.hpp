#pragma once
// The two kinds of source the gravity drivers sum over, behind one call: a
// prism (general path, prism_fields) or a weighted grid node (grid path,
// corner_fields), and the launcher's kernel that sums them
// (gpu/potential/source_view.hpp). Both form station-relative coordinates in
// double before rounding to Real, the precision-critical step
// (station_relative).
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

/// The launcher's kernel of the gravity drivers: Σ weight · kernel values
/// (source_fields) over prisms or grid nodes for the fields of `mask`
/// (FieldBit), 10 rows, kernel in Real, sums in double. GzOnly fixes the mask
/// at compile time so that the g_z-only kernel carries no unused terms; Pairs
/// is how prism_fields reaches its pair functions (prism_kernels.hpp).
template <typename Real, bool GzOnly, typename Pairs = InlinePairs>
struct FieldSumsKernel {
  static constexpr int outputs = 10;
  unsigned mask;
  GEOBEM_HD unsigned fields() const { return GzOnly ? unsigned(bit_g_z) : mask; }
  GEOBEM_HD bool wanted(int f) const { return fields() & (1u << f); }
  template <typename Source>
  GEOBEM_HD void add(const Source& source, const Station& station, double acc[10]) const {
    const unsigned m = fields();
    Real values[10] = {};
    const double weight = source_fields<Real, Pairs>(source, station, m, values);
    GEOBEM_GRAVITY_UNROLL
    for (int f = 0; f < 10; ++f)
      if (m & (1u << f)) acc[f] += weight * static_cast<double>(values[f]);
  }
};

}  // namespace geobem::gravity
