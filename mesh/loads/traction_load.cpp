#include "mesh/loads/traction_load.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "gpu/core/input_error.hpp"
#include "mesh/io/parse_number.hpp"
#include "mesh/io/trimmed.hpp"

namespace geobem::loads {

namespace {

/// The comma-separated finite numbers of `fields`; throws naming the first that is not one.
std::vector<double> finite_numbers(const std::string& fields, const std::string& prefix) {
  std::vector<double> values;
  std::stringstream stream(fields);
  std::string field;
  while (std::getline(stream, field, ',')) {
    field = trimmed(field);
    const auto value = parse_number(field);
    if (!value || !std::isfinite(*value)) throw InputError::usage(prefix + "'" + field + "' is not a finite number");
    values.push_back(*value);
  }
  return values;
}

}  // namespace

TractionLoad parse_traction_load(const std::string& text) {
  const std::string prefix = "traction '" + text + "': ";
  const auto equals = text.find('='), colon = text.find(':');
  if (equals == std::string::npos || colon == std::string::npos || colon < equals)
    throw InputError::usage(prefix + "expected GROUP=P:DX,DY,DZ (P in Pa along the direction DX,DY,DZ)");
  TractionLoad load;
  load.group = trimmed(text.substr(0, equals));
  if (load.group.empty() || load.group.find(',') != std::string::npos)
    throw InputError::usage(prefix + "name one group before '='");
  const auto magnitude = finite_numbers(text.substr(equals + 1, colon - equals - 1), prefix);
  if (magnitude.size() != 1) throw InputError::usage(prefix + "expected one magnitude P (Pa) between '=' and ':'");
  const auto direction = finite_numbers(text.substr(colon + 1), prefix);
  if (direction.size() != 3) throw InputError::usage(prefix + "expected three direction components DX,DY,DZ after ':'");
  const double largest = std::max({std::abs(direction[0]), std::abs(direction[1]), std::abs(direction[2])});
  if (largest == 0.0) throw InputError::usage(prefix + "the direction is the zero vector");
  // d / |d| = (d / m) / |d / m| with m the largest |component|: every scaled
  // component lies in [-1, 1] and the scaled length in [1, √3].
  const double scaled[3] = {direction[0] / largest, direction[1] / largest, direction[2] / largest};
  const double length = std::sqrt(scaled[0] * scaled[0] + scaled[1] * scaled[1] + scaled[2] * scaled[2]);
  for (int c = 0; c < 3; ++c) load.traction[c] = magnitude[0] * (scaled[c] / length);
  return load;
}

}  // namespace geobem::loads
