#pragma once
// One number as text, for every file a stage writes: the shortest decimal
// text that reads back as exactly the same double (std::to_chars' shortest
// round-trip form). A value the user gave as 0.1 is written `0.1`, where 17
// significant digits would write `0.10000000000000001`; both read back
// exactly. Header-only, like parse_number.hpp.
#include <charconv>
#include <ostream>
#include <string>

namespace geobem {

/// The shortest text that strtod reads back as exactly `value`: "0.1",
/// "22000", "1e-06", "6.6743e-11", "nan", "-inf".
inline std::string shortest_text(double value) {
  char text[32];  // to_chars needs at most 24 characters for a double
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

/// A double to be written as shortest_text: `out << shortest(value)`,
/// whatever the stream's precision.
struct ShortestNumber {
  double value;
};
inline ShortestNumber shortest(double value) { return {value}; }
inline std::ostream& operator<<(std::ostream& out, ShortestNumber number) {
  char text[32];
  const char* end = std::to_chars(text, text + sizeof text, number.value).ptr;
  return out.write(text, end - text);
}

}  // namespace geobem
