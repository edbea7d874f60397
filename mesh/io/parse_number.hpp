#pragma once
// One number from text, for every reader and option parser: the whole field
// must be a decimal number, [+-]DIGITS[.DIGITS][(e|E)[+-]DIGITS] with digits
// before or after the point. strtod alone would also take hexadecimal
// ("0x10" is 16, "0x1p3" is 8), "inf", "infinity" and "nan(...)": a file or
// option with those is refused, except the non-finite spellings printf
// writes where a table allows them (an integrator's failed rows). An
// overflow ("1e999") still gives ±inf: callers that need a finite value
// check std::isfinite and say so.
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

namespace geobem {

/// Is `text` (all of it) a decimal number as above?
inline bool is_decimal_number(const char* text) {
  const char* p = text;
  if (*p == '+' || *p == '-') ++p;
  const std::size_t whole = std::strspn(p, "0123456789");
  p += whole;
  std::size_t fraction = 0;
  if (*p == '.') {
    ++p;
    fraction = std::strspn(p, "0123456789");
    p += fraction;
  }
  if (whole + fraction == 0) return false;
  if (*p == 'e' || *p == 'E') {
    ++p;
    if (*p == '+' || *p == '-') ++p;
    const std::size_t exponent = std::strspn(p, "0123456789");
    if (exponent == 0) return false;
    p += exponent;
  }
  return *p == '\0';
}

/// `text` as a double, or std::nullopt when it is not a decimal number (empty,
/// blanks around it, hexadecimal, "inf", "nan"). With `printf_non_finite`,
/// printf's spellings of the non-finite values ("nan", "-nan", "inf",
/// "-inf") are read too. Header-only so that option parsers use it without
/// linking the VTK-based I/O library.
inline std::optional<double> parse_number(const std::string& text, bool printf_non_finite = false) {
  if (printf_non_finite) {
    if (text == "nan" || text == "-nan") return std::strtod("nan", nullptr);
    if (text == "inf") return std::strtod("inf", nullptr);
    if (text == "-inf") return -std::strtod("inf", nullptr);
  }
  if (!is_decimal_number(text.c_str())) return std::nullopt;
  return std::strtod(text.c_str(), nullptr);
}

}  // namespace geobem
