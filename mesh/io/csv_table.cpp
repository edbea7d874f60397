#include "mesh/io/csv_table.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "gpu/core/regular_file.hpp"
#include "mesh/io/bounded_line.hpp"
#include "mesh/io/byte_order_mark.hpp"
#include "mesh/io/memory_budget.hpp"
#include "mesh/io/parse_number.hpp"
#include "mesh/io/trimmed.hpp"

namespace geobem {

namespace {
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream stream(line);
  while (std::getline(stream, field, ',')) fields.push_back(trimmed(field, " \t\r"));
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

/// The memory a table's rows take, checked as they are read: every 4096 rows
/// or 16 MiB, the rows so far scaled by the file's size over the bytes read
/// so far must fit in the memory available (a file of many short rows would
/// otherwise take tens of times its size before any check).
class TableMemory {
 public:
  TableMemory(const std::string& path, std::uint64_t file_bytes) : path_(path), file_bytes_(file_bytes) {}
  /// One more row of `columns` numbers, read from `stream`.
  void add_row(std::size_t columns, std::istream& stream) {
    // Its values, its vector (and the text one) and line number, the allocator's share.
    bytes_ += 8 * static_cast<std::uint64_t>(columns) + 72;
    if (++rows_ % 4096 != 0 && bytes_ < checked_ + (std::uint64_t(16) << 20)) return;
    checked_ = bytes_;
    const std::streamoff read = stream.tellg();
    if (read <= 0) return;
    const double projected = static_cast<double>(bytes_) * static_cast<double>(file_bytes_) / static_cast<double>(read);
    require_memory(projected >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(projected), available_memory_bytes(),
                   path_ + ": a table of " + std::to_string(file_bytes_) + " bytes (projected from its first " +
                       std::to_string(rows_) + " rows)");
  }

 private:
  const std::string& path_;
  std::uint64_t file_bytes_, bytes_ = 0, checked_ = 0, rows_ = 0;
};

bool is_skipped(const std::string& line) {
  const std::string text = trimmed(line, " \t\r");
  return text.empty() || text[0] == '#';
}
}  // namespace

std::size_t CsvTable::column(const std::string& name) const {
  for (std::size_t j = 0; j < columns.size(); ++j)
    if (columns[j] == name) return j;
  std::string header;
  for (const auto& c : columns) header += (header.empty() ? "" : ",") + c;
  throw std::runtime_error(source + ": missing column '" + name + "' (header has: " + header + ")");
}

std::string CsvTable::where(std::size_t row) const { return source + ":" + std::to_string(line_numbers.at(row)); }

CsvTable read_csv_table(const std::string& path, bool allow_non_finite, const std::vector<std::string>& text_columns) {
  const std::uint64_t file_bytes = require_regular_file(path);
  std::ifstream stream(path);
  if (!stream) throw std::runtime_error(path + ": cannot open file (" + std::strerror(errno) + ")");
  skip_utf8_bom(stream);
  CsvTable table;
  table.source = path;
  table.text_columns = text_columns;
  std::vector<int> text_index;  // per column: its index in text_columns, or -1
  std::string line;
  std::size_t line_number = 0;
  TableMemory memory(path, file_bytes);
  while (read_bounded_line(stream, line, max_csv_line_bytes, path, line_number + 1)) {
    ++line_number;
    if (is_skipped(line)) continue;
    if (table.columns.empty()) {
      table.columns = split_fields(line);
      const std::string where = path + ":" + std::to_string(line_number);
      for (std::size_t j = 0; j < table.columns.size(); ++j) {
        if (table.columns[j].empty()) throw std::runtime_error(where + ": empty column name in header");
        for (std::size_t k = 0; k < j; ++k)
          if (table.columns[k] == table.columns[j])
            throw std::runtime_error(where + ": column '" + table.columns[j] + "' appears twice in the header (columns " +
                                     std::to_string(k + 1) + " and " + std::to_string(j + 1) + ")");
      }
      for (const auto& name : table.columns) {
        int index = -1;
        for (std::size_t k = 0; k < text_columns.size(); ++k)
          if (text_columns[k] == name) index = static_cast<int>(k);
        text_index.push_back(index);
      }
      continue;
    }
    const auto fields = split_fields(line);
    const std::string where = path + ":" + std::to_string(line_number);
    if (fields.size() != table.columns.size())
      throw std::runtime_error(where + ": expected " + std::to_string(table.columns.size()) + " fields, found " +
                               std::to_string(fields.size()));
    std::vector<double> values(fields.size());
    std::vector<std::string> texts(text_columns.size());
    for (std::size_t j = 0; j < fields.size(); ++j) {
      const std::string& field = fields[j];
      if (text_index[j] >= 0) {
        texts[static_cast<std::size_t>(text_index[j])] = field;
        values[j] = std::nan("");
        continue;
      }
      const std::optional<double> number = parse_number(field, allow_non_finite);
      if (!number) throw std::runtime_error(where + ": column '" + table.columns[j] + "': '" + field + "' is not a number");
      const double value = *number;
      if (!allow_non_finite && !std::isfinite(value))
        throw std::runtime_error(where + ": column '" + table.columns[j] + "': value '" + field + "' is not finite");
      values[j] = value;
    }
    table.rows.push_back(std::move(values));
    table.text.push_back(std::move(texts));
    table.line_numbers.push_back(line_number);
    memory.add_row(table.columns.size(), stream);
  }
  if (stream.bad()) throw std::runtime_error(path + ": read error");
  if (table.columns.empty()) throw std::runtime_error(path + ": empty file (no header line)");
  return table;
}

void require_columns(const CsvTable& table, const std::vector<std::string>& required) {
  for (const auto& name : required) (void)table.column(name);
}

}  // namespace geobem
