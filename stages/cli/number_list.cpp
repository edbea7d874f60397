#include "stages/cli/number_list.hpp"

#include <cmath>
#include <optional>
#include <sstream>

#include "gpu/core/input_error.hpp"
#include "mesh/io/parse_number.hpp"
#include "mesh/io/trimmed.hpp"

namespace geobem::cli {

std::vector<double> parse_number_list(const std::string& option, const std::string& text, std::size_t count,
                                      const std::string& form) {
  const std::string prefix = "--" + option + " '" + text + "': ";
  std::vector<double> values;
  std::stringstream stream(text);
  std::string field;
  while (std::getline(stream, field, ',')) {
    field = trimmed(field);
    const std::optional<double> value = parse_number(field);
    if (!value || !std::isfinite(*value))
      throw InputError::usage(prefix + "'" + field + "' is not a finite number (expected " + form + ")");
    values.push_back(*value);
  }
  if (values.size() != count)
    throw InputError::usage(prefix + "expected " + std::to_string(count) + " values " + form);
  return values;
}

std::vector<std::size_t> parse_count_list(const std::string& option, const std::string& text, std::size_t count,
                                          const std::string& form, double largest) {
  std::vector<std::size_t> counts;
  for (double value : parse_number_list(option, text, count, form)) {
    if (value < 0 || value != std::floor(value) || value > largest)
      throw InputError::usage("--" + option + " '" + text + "': expected non-negative integers " + form +
                                                 " (at most " + std::to_string(static_cast<long long>(largest)) + ")");
    counts.push_back(static_cast<std::size_t>(value));
  }
  return counts;
}

}  // namespace geobem::cli
