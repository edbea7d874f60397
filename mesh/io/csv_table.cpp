#include "mesh/io/csv_table.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "mesh/io/byte_order_mark.hpp"
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
  std::ifstream stream(path);
  if (!stream) throw std::runtime_error(path + ": cannot open file (" + std::strerror(errno) + ")");
  skip_utf8_bom(stream);
  CsvTable table;
  table.source = path;
  table.text_columns = text_columns;
  std::vector<int> text_index;  // per column: its index in text_columns, or -1
  std::string line;
  std::size_t line_number = 0;
  while (std::getline(stream, line)) {
    ++line_number;
    if (is_skipped(line)) continue;
    if (table.columns.empty()) {
      table.columns = split_fields(line);
      for (const auto& name : table.columns)
        if (name.empty()) throw std::runtime_error(path + ":" + std::to_string(line_number) + ": empty column name in header");
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
      const std::optional<double> number = parse_number(field);
      if (!number) throw std::runtime_error(where + ": column '" + table.columns[j] + "': '" + field + "' is not a number");
      const double value = *number;
      if (!allow_non_finite && !std::isfinite(value))
        throw std::runtime_error(where + ": column '" + table.columns[j] + "': value '" + field + "' is not finite");
      values[j] = value;
    }
    table.rows.push_back(std::move(values));
    table.text.push_back(std::move(texts));
    table.line_numbers.push_back(line_number);
  }
  if (stream.bad()) throw std::runtime_error(path + ": read error");
  if (table.columns.empty()) throw std::runtime_error(path + ": empty file (no header line)");
  return table;
}

void require_columns(const CsvTable& table, const std::vector<std::string>& required) {
  for (const auto& name : required) (void)table.column(name);
}

}  // namespace geobem
