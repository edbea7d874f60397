#pragma once
// What the forward functions check and warn about, in pieces that the host
// path (forward_model.cpp), the device-resident path (forward_on_device.cu)
// and the magnetic functions share: the validity of a prism and of a station,
// their messages, and the warning for fields that are not finite.
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

/// Warns (geobem::warn) for field `name` that is NaN at `on_edge` stations on
/// an edge or vertex of the model and at `inside` stations inside it on a
/// face between different `property` ("densities", "magnetizations";
/// station_contact.hpp), and not finite at `overflow` other stations (an
/// overflow in `precision`); nothing for zeros.
void warn_non_finite(const std::string& name, const char* property, std::size_t on_edge, std::size_t inside,
                     std::size_t overflow, Precision precision);

}  // namespace geobem::gravity
