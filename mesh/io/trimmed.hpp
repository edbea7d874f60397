#pragma once
// One field of a line without its surrounding blanks, for every reader and
// option parser. Header-only so that option parsers use it without linking
// the VTK-based I/O library.
#include <string>

namespace geobem {

/// `text` without the leading and trailing characters of `blanks` (by
/// default spaces and tabs); "" when it holds nothing else.
inline std::string trimmed(const std::string& text, const char* blanks = " \t") {
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

}  // namespace geobem
