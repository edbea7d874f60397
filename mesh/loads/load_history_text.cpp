#include "mesh/loads/load_history_text.hpp"

#include <stdexcept>
#include <vector>

#include "gpu/core/input_error.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/parse_number.hpp"

namespace geobem::loads {

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

}  // namespace

bem::LoadHistory parse_load_history(const std::string& text) {
  const auto colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string origin = "load history '" + text + "'";
  if (name == "csv") {
    if (colon == std::string::npos || colon + 1 == text.size())
      throw InputError("expected csv:FILE", InputKind::data, origin);
    return read_load_history_csv(text.substr(colon + 1));
  }
  return with_origin(InputKind::data, origin, [&] {
    const auto parts = split(text, ':');
    std::vector<double> numbers;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const auto number = parse_number(parts[k]);
      if (!number) throw InputError("'" + parts[k] + "' is not a number");
      numbers.push_back(*number);
    }
    auto expect = [&](std::size_t least, std::size_t most, const char* form) {
      if (numbers.size() < least || numbers.size() > most) throw InputError(std::string("expected ") + form);
    };
    if (name == "heaviside") {
      expect(0, 0, "heaviside");
      return bem::heaviside_history();
    }
    if (name == "ramp") {
      expect(1, 1, "ramp:T (rise time, s)");
      return bem::ramp_history(numbers[0]);
    }
    if (name == "ricker") {
      expect(1, 2, "ricker:FC[:DELAY] (central frequency, Hz; time of the peak, s)");
      return numbers.size() == 1 ? bem::ricker_history(numbers[0]) : bem::ricker_history(numbers[0], numbers[1]);
    }
    if (name == "friedlander") {
      expect(2, 2, "friedlander:TD:B (positive-phase duration, s; decay coefficient)");
      return bem::friedlander_history(numbers[0], numbers[1]);
    }
    throw InputError("unknown; expected heaviside, ramp:T, ricker:FC[:DELAY], friedlander:TD:B or csv:FILE");
  });
}

bem::LoadHistory read_load_history_csv(const std::string& path) {
  const CsvTable table = read_csv_table(path);
  require_columns(table, {"time", "value"});
  if (table.rows.empty()) throw std::runtime_error(path + ": no rows after the header");
  const std::size_t time_column = table.column("time"), value_column = table.column("value");
  std::vector<double> times, values;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const double t = table.rows[i][time_column];
    if (i == 0 && t < 0) throw std::runtime_error(table.where(i) + ": time " + std::to_string(t) + " s is negative");
    if (i > 0 && !(t > times.back()))
      throw std::runtime_error(table.where(i) + ": time " + std::to_string(t) + " s does not increase (previous " +
                               std::to_string(times.back()) + " s)");
    times.push_back(t);
    values.push_back(table.rows[i][value_column]);
  }
  return bem::tabulated_history(std::move(times), std::move(values));
}

}  // namespace geobem::loads
