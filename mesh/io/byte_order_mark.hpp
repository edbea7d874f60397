#pragma once
// Text files saved by Windows editors (Notepad, Excel's "CSV UTF-8") start
// with a UTF-8 byte-order mark and end lines with CR LF. Every text reader
// (CSV, UBC-GIF, INI, manifests) skips the mark with this one function, and
// treats a CR before the line end as blank. Header-only so that option
// parsers use it without linking the I/O library.
#include <istream>

namespace geobem {

/// Consumes a UTF-8 byte-order mark (EF BB BF) at the stream's position, if
/// there is one; leaves the stream untouched otherwise.
inline void skip_utf8_bom(std::istream& stream) {
  const char mark[3] = {'\xEF', '\xBB', '\xBF'};
  for (int k = 0; k < 3; ++k) {
    if (stream.peek() != static_cast<unsigned char>(mark[k])) {
      // Only a complete mark is consumed: put back what was read of it.
      for (int back = 0; back < k; ++back) stream.unget();
      return;
    }
    stream.get();
  }
}

}  // namespace geobem
