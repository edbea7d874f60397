#pragma once
// One number from text, for every reader and option parser: the whole field
// must be the number (strtod's syntax, so "inf" and "nan" pass and an overflow
// gives ±inf: callers that need a finite value check std::isfinite and say so).
#include <cstdlib>
#include <optional>
#include <string>

namespace geobem {

/// `text` as a double, or std::nullopt when it is empty or has characters
/// after the number (blanks included). Header-only so that option parsers use
/// it without linking the VTK-based I/O library.
inline std::optional<double> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

}  // namespace geobem
