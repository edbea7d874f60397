#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace geobem {

/// A numeric CSV table: a header line of column names, then rows of numbers.
/// Blank lines and lines whose first non-blank character is `#` are skipped;
/// a UTF-8 byte-order mark and CR LF line ends are accepted.
/// Every row remembers its 1-based line number in the file for messages.
struct CsvTable {
  std::string source;                        ///< file name, for messages
  std::vector<std::string> columns;          ///< header names, trimmed
  std::vector<std::vector<double>> rows;     ///< rows[i][j]: row i, column j
  std::vector<std::size_t> line_numbers;     ///< line of rows[i] in the file
  std::vector<std::string> text_columns;     ///< the columns read as text (their rows[i][j] is NaN)
  std::vector<std::vector<std::string>> text;  ///< text[i][k]: row i, column text_columns[k]

  /// Index of a column; throws std::runtime_error "FILE: missing column 'NAME'
  /// (header has: ...)" when absent.
  std::size_t column(const std::string& name) const;
  /// "FILE:LINE" of row i, for messages.
  std::string where(std::size_t row) const;
};

/// The longest line a CSV file may have (1 MiB: about 40,000 numbers).
inline constexpr std::size_t max_csv_line_bytes = std::size_t(1) << 20;

/// Reads a numeric CSV file. Throws std::runtime_error with FILE:LINE for a
/// missing or unreadable file, one that is not a regular file (a FIFO, a
/// device), a line longer than max_csv_line_bytes, a table that may not fit
/// in the memory available (judged from the file's size before the rows are
/// read), an empty file, a header naming a column twice, a row whose field
/// count differs from the header, a field that is not a decimal number
/// (quoted, text, empty, hexadecimal), and non-finite values unless
/// `allow_non_finite`. Columns named in
/// `text_columns` (e.g. an integrator's status word) are kept as text in
/// CsvTable::text instead.
CsvTable read_csv_table(const std::string& path, bool allow_non_finite = false,
                        const std::vector<std::string>& text_columns = {});

/// Requires the header to contain `required` (in any order); throws naming the
/// file and the first missing column.
void require_columns(const CsvTable& table, const std::vector<std::string>& required);

}  // namespace geobem
