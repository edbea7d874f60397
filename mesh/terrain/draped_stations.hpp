#pragma once
// Stations where airborne and ground surveys are: draped over a DEM at a
// constant clearance, on every k-th node or on a regular grid of a given
// spacing with heights by bilinear interpolation between the nodes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu/gravity/prism.hpp"
#include "gpu/gravity/prism_layer.hpp"
#include "mesh/terrain/dem_raster.hpp"

namespace geobem::terrain {

/// Where the stations go: `step` > 0 takes every step-th node (heights the
/// node heights); otherwise `spacing` > 0 (m) lays a grid from the DEM's
/// south-west node eastward and northward (heights bilinear). Each station
/// sits `clearance` metres (may be negative) above the height found.
struct DrapeOptions {
  double clearance = 0.0;
  std::int64_t step = 0;
  double spacing = 0.0;
};

struct DrapedStations {
  std::vector<gravity::Station> stations;
  std::size_t skipped = 0;  ///< positions without a height (NaN nodes nearby): no station
  std::size_t below = 0;    ///< stations below the top of the layer prism under them
  /// The positions form a grid of shape_e (west to east, fastest) × shape_n;
  /// the stations fill it, in that order, when none was skipped.
  std::size_t shape_e = 0, shape_n = 0;
};

/// Drapes stations over `dem`; below counts those under the top of the prism
/// of `layer` (the DEM's layer: cells on its nodes) that contains them, which
/// a negative clearance or bilinear heights between higher nodes can give.
/// Throws InputError for neither or both of step and spacing, a
/// non-finite clearance, or no station with a height.
DrapedStations drape_stations(const Dem& dem, const gravity::PrismLayer& layer, const DrapeOptions& options);

/// The DEM behind a layer: its nodes and surface heights (NaN where skipped).
Dem dem_of_layer(const gravity::PrismLayer& layer);

}  // namespace geobem::terrain
