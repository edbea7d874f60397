#include "mesh/prisms/ubc_model.hpp"

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

namespace geobem::prisms {

namespace {

/// Whitespace-separated tokens of a text file with their line numbers;
/// `!` comment lines are skipped.
class TokenStream {
 public:
  explicit TokenStream(const std::string& path) : path_(path), stream_((require_regular_file(path), path)) {
    if (!stream_) throw std::runtime_error(path + ": cannot open file (" + std::strerror(errno) + ")");
    skip_utf8_bom(stream_);
  }

  /// Next token, or false at the end of the file.
  bool next(std::string& token) {
    while (!(line_ >> token)) {
      std::string text;
      // A mesh line lists one axis's widths: 16 MiB holds a million of them uncompressed.
      if (!read_bounded_line(stream_, text, std::size_t(16) << 20, path_, line_number_ + 1)) return false;
      ++line_number_;
      const auto first = text.find_first_not_of(" \t\r");
      if (first != std::string::npos && text[first] == '!') text.clear();
      line_ = std::istringstream(text);
    }
    return true;
  }

  /// Next token as a number; `what` names the expected quantity in messages.
  double number(const std::string& what) {
    std::string token;
    if (!next(token)) throw std::runtime_error(path_ + ": file ends before " + what);
    return parse(token, what);
  }

  double parse(const std::string& token, const std::string& what) const {
    const std::optional<double> value = parse_number(token);
    if (!value || !std::isfinite(*value))
      throw std::runtime_error(where() + ": " + what + ": '" + token + "' is not a finite number");
    return *value;
  }

  std::string where() const { return path_ + ":" + std::to_string(line_number_); }

 private:
  std::string path_;
  std::ifstream stream_;
  std::istringstream line_;
  std::size_t line_number_ = 0;
};

std::size_t read_count(TokenStream& tokens, const char* axis) {
  const double value = tokens.number(std::string("number of ") + axis + " cells");
  if (value < 1 || value != std::floor(value) || value > 1e8)
    throw std::runtime_error(tokens.where() + ": number of " + axis + " cells must be a positive integer");
  return static_cast<std::size_t>(value);
}

/// Reads `count` cell widths ("w" or "n*w" tokens).
std::vector<double> read_widths(TokenStream& tokens, std::size_t count, const char* axis) {
  std::vector<double> widths;
  const std::string what = std::string(axis) + " cell width";
  std::string token;
  while (widths.size() < count) {
    if (!tokens.next(token))
      throw std::runtime_error(tokens.where() + ": file ends after " + std::to_string(widths.size()) + " of " +
                               std::to_string(count) + " " + axis + " cell widths");
    double repeat = 1;
    double width;
    const auto star = token.find('*');
    if (star == std::string::npos) {
      width = tokens.parse(token, what);
    } else {
      repeat = tokens.parse(token.substr(0, star), what + " repeat count");
      width = tokens.parse(token.substr(star + 1), what);
      if (repeat < 1 || repeat != std::floor(repeat))
        throw std::runtime_error(tokens.where() + ": '" + token + "': repeat count must be a positive integer");
    }
    if (!(width > 0)) throw std::runtime_error(tokens.where() + ": " + what + " '" + token + "' must be positive");
    if (widths.size() + repeat > count)
      throw std::runtime_error(tokens.where() + ": '" + token + "' gives more than the " + std::to_string(count) +
                               " " + axis + " cells of the header");
    widths.insert(widths.end(), static_cast<std::size_t>(repeat), width);
  }
  return widths;
}

std::vector<double> edges_from(double start, const std::vector<double>& widths) {
  std::vector<double> edges{start};
  for (double w : widths) edges.push_back(edges.back() + w);
  return edges;
}

}  // namespace

PrismModel read_ubc_model(const std::string& mesh_path, const std::string& model_path) {
  TokenStream mesh(mesh_path);
  const std::size_t n_e = read_count(mesh, "easting"), n_n = read_count(mesh, "northing"),
                    n_z = read_count(mesh, "vertical");
  const std::string shape = std::to_string(n_e) + "x" + std::to_string(n_n) + "x" + std::to_string(n_z);
  std::uint64_t expected = 0;
  if (!multiply_checked(n_e, n_n, expected) || !multiply_checked(expected, n_z, expected)) expected = UINT64_MAX;
  require_grid_memory(expected, mesh_path + ": a grid of " + shape + " cells");
  const double corner_e = mesh.number("south-west top corner easting");
  const double corner_n = mesh.number("south-west top corner northing");
  const double corner_z = mesh.number("south-west top corner elevation");
  const auto widths_e = read_widths(mesh, n_e, "easting");
  const auto widths_n = read_widths(mesh, n_n, "northing");
  const auto widths_z = read_widths(mesh, n_z, "vertical");
  std::string extra;
  if (mesh.next(extra)) throw std::runtime_error(mesh.where() + ": unexpected '" + extra + "' after the cell widths");

  PrismGrid grid;
  grid.easting_edges = edges_from(corner_e, widths_e);
  grid.northing_edges = edges_from(corner_n, widths_n);
  // UBC lists vertical widths from the top down; the grid's upward edges go up.
  grid.upward_edges.assign(n_z + 1, corner_z);
  for (std::size_t k = 0; k < n_z; ++k) grid.upward_edges[n_z - k - 1] = grid.upward_edges[n_z - k] - widths_z[k];
  grid.density.assign(grid.cell_count(), 0.0);

  TokenStream model(model_path);
  std::size_t no_data = 0;
  std::string token;
  std::size_t read = 0;
  while (model.next(token)) {
    if (read == expected)
      throw std::runtime_error(model.where() + ": more than the " + std::to_string(expected) + " values of the mesh " +
                               shape);
    // UBC order: vertical fastest from the top, then easting, then northing.
    const std::size_t k_top = read % n_z, i_e = (read / n_z) % n_e, i_n = read / (n_z * n_e);
    const std::optional<double> number = parse_number(token);
    if (!number || !std::isfinite(*number))
      throw std::runtime_error(model.where() + ": density '" + token + "' of cell (" + std::to_string(i_e) + ", " +
                               std::to_string(i_n) + ", " + std::to_string(k_top) +
                               ") (easting, northing, depth index) is not a finite number");
    const double value = *number;
    // Inactive cells (air above the topography) hold the no-data value: no mass.
    if (value == ubc_no_data) ++no_data;
    grid.density[grid.index(i_e, i_n, n_z - 1 - k_top)] = value == ubc_no_data ? 0.0 : value;
    ++read;
  }
  if (read != expected)
    throw std::runtime_error(model_path + ": " + std::to_string(read) + " values, but the mesh " + mesh_path + " has " +
                             std::to_string(n_e) + "x" + std::to_string(n_n) + "x" + std::to_string(n_z) + " = " +
                             std::to_string(expected) + " cells");
  check_grid(grid, mesh_path);
  PrismModel result = model_from_grid(std::move(grid), mesh_path + " + " + model_path);
  result.no_data_cells = no_data;
  return result;
}

}  // namespace geobem::prisms
