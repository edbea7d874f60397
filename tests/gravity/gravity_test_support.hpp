#pragma once
// Helpers shared by the gravity tests: all ten fields of a prism list at a
// list of stations through forward_model in double (on the CPU unless told),
// and the field-by-field difference of two results.
#include <vector>

#include "gpu/core/relative_difference.hpp"
#include "gpu/gravity/gravity.hpp"

namespace geobem::gravity::test {

/// values[f][s] of every field at every station (double, quiet).
inline std::vector<std::vector<double>> all_fields(const std::vector<Prism>& prisms,
                                                   const std::vector<Station>& stations,
                                                   ComputeDevice device = ComputeDevice::Cpu) {
  ForwardOptions options;
  options.quiet = true;
  options.device = device;
  return forward_model(prisms, stations, parse_fields("all"), options).values;
}

/// Field f of one prism at one station.
inline double field_at(const Prism& prism, const Station& station, Field field,
                       ComputeDevice device = ComputeDevice::Cpu) {
  return all_fields({prism}, {station}, device)[static_cast<int>(field)][0];
}

/// Per field of `a`: largest |a − reference| over the stations divided by the
/// largest |reference| (geobem::largest_relative_difference).
inline std::vector<double> relative_max_difference(const ForwardResult& a, const ForwardResult& reference) {
  std::vector<double> out;
  for (std::size_t f = 0; f < a.values.size(); ++f)
    out.push_back(largest_relative_difference(a.values[f].data(), reference.values[f].data(), a.values[f].size()));
  return out;
}

}  // namespace geobem::gravity::test
