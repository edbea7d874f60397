#pragma once
// What forward_model() checks and warns about, in pieces that the host path
// (forward_model.cpp) and the device-resident path (forward_on_device.cu)
// share: the validity of a prism and of a station, the model's extent for the
// far-station warning, the station-on-an-edge test, and the messages.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "gpu/core/host_device.hpp"
#include "gpu/gravity/gravity.hpp"

namespace geobem::gravity {

/// Finite bounds with west < east, south < north, bottom < top, and a finite density.
GEOBEM_HD inline bool valid_prism(const Prism& p) {
  using std::isfinite;
  const bool finite = isfinite(p.west) && isfinite(p.east) && isfinite(p.south) && isfinite(p.north) &&
                      isfinite(p.bottom) && isfinite(p.top) && isfinite(p.density);
  return finite && p.west < p.east && p.south < p.north && p.bottom < p.top;
}

/// Finite coordinates within max_station_coordinate.
GEOBEM_HD inline bool valid_station(const Station& s) {
  using std::fabs;
  using std::isfinite;
  const bool finite = isfinite(s.easting) && isfinite(s.northing) && isfinite(s.upward);
  return finite && fabs(s.easting) <= max_station_coordinate && fabs(s.northing) <= max_station_coordinate &&
         fabs(s.upward) <= max_station_coordinate;
}

/// The message for prism `index` when !valid_prism, naming it.
std::string prism_problem(std::size_t index);
/// The message for station `index` when !valid_station: non-finite, or beyond max_station_coordinate.
std::string station_problem(const Station& station, std::size_t index);

/// The bounding box of the model's massive sources and their smallest side
/// (m), for the far-station warning; an empty extent has smallest_side HUGE_VAL.
struct ModelExtent {
  double low[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, high[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  double smallest_side = HUGE_VAL;
  GEOBEM_HD void add_box(double west, double east, double south, double north, double bottom, double top) {
    using std::fmax;
    using std::fmin;
    const double lows[3] = {west, south, bottom}, highs[3] = {east, north, top};
    for (int a = 0; a < 3; ++a) {
      low[a] = fmin(low[a], lows[a]);
      high[a] = fmax(high[a], highs[a]);
      smallest_side = fmin(smallest_side, highs[a] - lows[a]);
    }
  }
  GEOBEM_HD void merge(const ModelExtent& other) {
    using std::fmax;
    using std::fmin;
    for (int a = 0; a < 3; ++a) {
      low[a] = fmin(low[a], other.low[a]);
      high[a] = fmax(high[a], other.high[a]);
    }
    smallest_side = fmin(smallest_side, other.smallest_side);
  }
  /// Whether there is a model to measure distances from.
  GEOBEM_HD bool measurable() const { return smallest_side > 0 && smallest_side < HUGE_VAL; }
  /// Distance from the station to the farthest corner of the box, m.
  GEOBEM_HD double farthest_corner(const Station& s) const {
    using std::fabs;
    using std::fmax;
    using std::sqrt;
    const double position[3] = {s.easting, s.northing, s.upward};
    double squared = 0;
    for (int a = 0; a < 3; ++a) {
      const double d = fmax(fabs(position[a] - low[a]), fabs(position[a] - high[a]));
      squared += d * d;
    }
    return sqrt(squared);
  }
};

/// Stations beyond far_field_accuracy_distance of the extent: how many, and
/// the largest such distance (m).
struct FarStations {
  std::size_t count = 0;
  double farthest = 0;
};

/// Warns (geobem::warn) when `far` is not empty: double precision cannot give
/// far_field_accuracy there; the message gives the estimated error.
void warn_far_stations(const ModelExtent& model, const FarStations& far);

/// Warns for a field that is NaN at `on_edge` stations on a prism edge or
/// vertex, and that is otherwise not finite at `other` stations (an overflow
/// in `precision`).
void warn_non_finite(Field field, std::size_t on_edge, std::size_t other, Precision precision);

/// Whether the station lies on an edge or vertex of the prism (on at least two
/// of its bounding planes), where the kernels answer NaN.
GEOBEM_HD inline bool on_prism_edge_or_vertex(const Prism& prism, const Station& station) {
  const double position[3] = {station.easting, station.northing, station.upward};
  const double low[3] = {prism.west, prism.south, prism.bottom}, high[3] = {prism.east, prism.north, prism.top};
  int on_bound = 0;
  bool inside = true;
  for (int a = 0; a < 3; ++a) {
    on_bound += position[a] == low[a] || position[a] == high[a];
    inside &= low[a] <= position[a] && position[a] <= high[a];
  }
  return inside && on_bound >= 2;
}

}  // namespace geobem::gravity
