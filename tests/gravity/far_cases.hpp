#pragma once
// Random prisms and far stations for the tests of the single-precision
// rounding bounds (far_prism_rounding_bounds): log-uniform over decades.
#include <cmath>
#include <random>

#include "gpu/gravity/prism.hpp"

namespace geobem::gravity::test {

/// 10^uniform(lo, hi).
inline double log_uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::pow(10.0, std::uniform_real_distribution<double>(lo, hi)(rng));
}

/// A prism of unit density and its station, with the prism's bounds
/// relative to the station (west, east, south, north, bottom, top) and its
/// sides as prism_rounding_bounds forms them.
struct Case {
  Prism prism;
  Station station;
  double rel[6], size[3];
};

/// A prism of largest side a from 1e-12 to 1e8 m (aspects up to 1e4) around
/// an origin up to min(1e7, 1e6·a) m, with a station `ratio` times a from
/// its box in a random direction; a third of the stations lie in a face
/// plane's extension or within a slab (an offset coordinate zero).
inline Case far_case(std::mt19937_64& rng, double ratio) {
  const double a = log_uniform(rng, -12, 8);
  std::uniform_real_distribution<double> unit(-1, 1);
  double size[3];
  for (double& s : size) s = a / log_uniform(rng, 0, 4);
  size[std::uniform_int_distribution<int>(0, 2)(rng)] = a;
  double direction[3], norm = 0;
  for (double& d : direction) d = unit(rng);
  const int flat = std::uniform_int_distribution<int>(0, 5)(rng);
  if (flat < 2) direction[flat] = 0;  // within the slab of an axis
  for (const double d : direction) norm += d * d;
  const double reach = std::log10(std::fmin(1e7, 1e6 * a));
  double lo[3], hi[3], at[3];
  for (int k = 0; k < 3; ++k) {
    lo[k] = unit(rng) * log_uniform(rng, reach - 3, reach);
    hi[k] = lo[k] + size[k];
    // The station beyond the face the direction points through, or within
    // the slab where the direction has no component.
    const double offset = direction[k] / std::sqrt(norm) * ratio * a;
    at[k] = offset > 0 ? hi[k] + offset : (offset < 0 ? lo[k] + offset : lo[k] + 0.37 * (hi[k] - lo[k]));
  }
  Case c{{lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], 1.0}, {at[0], at[1], at[2]}, {}, {}};
  for (int k = 0; k < 3; ++k) {
    c.rel[2 * k] = lo[k] - at[k];
    c.rel[2 * k + 1] = hi[k] - at[k];
    c.size[k] = hi[k] - lo[k];
  }
  return c;
}

}  // namespace geobem::gravity::test
