#pragma once
// Helpers shared by the gravity tests: all ten fields of a prism list at a
// list of stations through forward_model on the CPU, in double.
#include <vector>

#include "gpu/gravity/gravity.hpp"

namespace geobem::gravity::test {

/// values[f][s] of every field at every station (CPU, double, quiet).
inline std::vector<std::vector<double>> all_fields(const std::vector<Prism>& prisms,
                                                   const std::vector<Station>& stations) {
  ForwardOptions options;
  options.quiet = true;
  return forward_model(prisms, stations, parse_fields("all"), options).values;
}

/// Field f of one prism at one station.
inline double field_at(const Prism& prism, const Station& station, Field field) {
  return all_fields({prism}, {station})[static_cast<int>(field)][0];
}

}  // namespace geobem::gravity::test
