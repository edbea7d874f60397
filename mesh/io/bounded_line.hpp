#pragma once
// std::getline reads a line however long it is: a file of gigabytes with no
// line break is read whole into one string before any check runs. Every text
// reader (CSV, UBC-GIF) reads its lines with this one function and a limit
// of its own. Header-only so that option parsers use it without linking the
// VTK-based I/O library.
#include <cstddef>
#include <istream>
#include <stdexcept>
#include <string>

namespace geobem {

/// Reads the next line of `in` into `line` (without its '\n'), as
/// std::getline does; false at the end of the input when no character was
/// left. Throws std::runtime_error "SOURCE:LINE: a line longer than LIMIT
/// bytes" (LINE = `line_number`, the number this line will have) as soon as
/// `limit` bytes pass without a line break, before reading further.
inline bool read_bounded_line(std::istream& in, std::string& line, std::size_t limit, const std::string& source,
                              std::size_t line_number) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  bool extracted = false;
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(extracted ? std::ios::eofbit : std::ios::eofbit | std::ios::failbit);
      return extracted;
    }
    extracted = true;
    if (c == '\n') return true;
    if (line.size() == limit)
      throw std::runtime_error(source + ":" + std::to_string(line_number) + ": a line longer than " +
                               std::to_string(limit) + " bytes (no line break? the limit of this file type)");
    line.push_back(static_cast<char>(c));
  }
}

}  // namespace geobem
