#include "mesh/terrain/draped_stations.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "gpu/core/input_error.hpp"

namespace geobem::terrain {
namespace {

/// Height of the top of the layer prism containing (e, n), or -inf where no
/// prism with mass above the reference is there.
double prism_top_at(const gravity::PrismLayer& layer, double e, double n) {
  const gravity::LayerGeometry& g = layer.geometry;
  const double u = (e - g.west_centre) / g.spacing_e + 0.5, v = (n - g.south_centre) / g.spacing_n + 0.5;
  if (!(u >= 0 && v >= 0 && u < g.shape_e && v < g.shape_n)) return -INFINITY;
  const std::int64_t cell = static_cast<std::int64_t>(u) + g.shape_e * static_cast<std::int64_t>(v);
  const gravity::Prism p = gravity::layer_prism(g, cell, layer.surface[static_cast<std::size_t>(cell)]);
  return p.density != 0.0 ? p.top : -INFINITY;
}

}  // namespace

Dem dem_of_layer(const gravity::PrismLayer& layer) {
  Dem dem;
  const gravity::LayerGeometry& g = layer.geometry;
  dem.shape_e = g.shape_e;
  dem.shape_n = g.shape_n;
  dem.west_centre = g.west_centre;
  dem.south_centre = g.south_centre;
  dem.spacing_e = g.spacing_e;
  dem.spacing_n = g.spacing_n;
  dem.heights = layer.surface;
  return dem;
}

DrapedStations drape_stations(const Dem& dem, const gravity::PrismLayer& layer, const DrapeOptions& options) {
  if ((options.step > 0) == (options.spacing > 0))
    throw InputError("draped stations: give either a node step or a spacing (not both)");
  if (!std::isfinite(options.clearance) || !(options.spacing >= 0) || !std::isfinite(options.spacing))
    throw InputError("draped stations: clearance and spacing must be finite");
  DrapedStations out;
  const auto add = [&](double e, double n, double height) {
    if (std::isnan(height)) {
      ++out.skipped;
      return;
    }
    const double up = height + options.clearance;
    if (up < prism_top_at(layer, e, n)) ++out.below;
    out.stations.push_back({e, n, up});
  };
  if (options.step > 0) {
    out.shape_e = static_cast<std::size_t>((dem.shape_e - 1) / options.step + 1);
    out.shape_n = static_cast<std::size_t>((dem.shape_n - 1) / options.step + 1);
    for (std::int64_t j = 0; j < dem.shape_n; j += options.step)
      for (std::int64_t i = 0; i < dem.shape_e; i += options.step)
        add(dem.west_centre + i * dem.spacing_e, dem.south_centre + j * dem.spacing_n,
            dem.heights[static_cast<std::size_t>(i + dem.shape_e * j)]);
  } else {
    const double east = dem.west_centre + (dem.shape_e - 1) * dem.spacing_e;
    const double north = dem.south_centre + (dem.shape_n - 1) * dem.spacing_n;
    const std::int64_t ne = static_cast<std::int64_t>(std::floor((east - dem.west_centre) / options.spacing)) + 1;
    const std::int64_t nn = static_cast<std::int64_t>(std::floor((north - dem.south_centre) / options.spacing)) + 1;
    out.shape_e = static_cast<std::size_t>(ne);
    out.shape_n = static_cast<std::size_t>(nn);
    for (std::int64_t j = 0; j < nn; ++j)
      for (std::int64_t i = 0; i < ne; ++i) {
        const double e = dem.west_centre + i * options.spacing, n = dem.south_centre + j * options.spacing;
        add(e, n, bilinear_height(dem, e, n));
      }
  }
  if (out.stations.empty()) throw InputError("draped stations: no station position has a DEM height");
  return out;
}

}  // namespace geobem::terrain
