#include "stages/time/receivers.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "gpu/core/usage_error.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cq_stage/name_list.hpp"

namespace geobem::cq_stage {

namespace {

/// The three ':'-separated parts of a line or grid text: two corners and the counts.
struct Span {
  bem::Vec3 first, last;
  std::vector<std::size_t> counts;
};

Span parse_span(const std::string& option, const std::string& text, std::size_t axes, const std::string& form) {
  const std::vector<std::string> parts = split(text, ':');
  if (parts.size() != 3) throw UsageError("--" + option + " '" + text + "': expected " + form);
  const auto a = cli::parse_number_list(option, parts[0], 3, form);
  const auto b = cli::parse_number_list(option, parts[1], 3, form);
  Span span{{a[0], a[1], a[2]}, {b[0], b[1], b[2]}, cli::parse_count_list(option, parts[2], axes, form, 1e6)};
  for (std::size_t count : span.counts)
    if (count < 1) throw UsageError("--" + option + " '" + text + "': every count must be at least 1");
  return span;
}

/// Coordinate k of `count` equally spaced from `from` to `to` (from itself when count is 1).
double spaced(double from, double to, std::size_t k, std::size_t count) {
  return count == 1 ? from : from + (to - from) * static_cast<double>(k) / static_cast<double>(count - 1);
}

}  // namespace

std::vector<Receiver> read_receiver_csv(const std::string& path) {
  const CsvTable table = read_csv_table(path);
  require_columns(table, {"x", "y", "z"});
  if (table.rows.empty()) throw std::runtime_error(path + ": no receivers after the header");
  const std::size_t x = table.column("x"), y = table.column("y"), z = table.column("z");
  std::vector<Receiver> receivers;
  for (std::size_t i = 0; i < table.rows.size(); ++i)
    receivers.push_back({{table.rows[i][x], table.rows[i][y], table.rows[i][z]}, table.where(i)});
  return receivers;
}

std::vector<Receiver> receiver_line(const std::string& text) {
  const Span span = parse_span("receiver-line", text, 1, "X0,Y0,Z0:X1,Y1,Z1:N");
  std::vector<Receiver> receivers;
  const std::size_t n = span.counts[0];
  for (std::size_t k = 0; k < n; ++k)
    receivers.push_back({{spaced(span.first.x, span.last.x, k, n), spaced(span.first.y, span.last.y, k, n),
                          spaced(span.first.z, span.last.z, k, n)},
                         "--receiver-line point " + std::to_string(k), true});
  return receivers;
}

std::vector<Receiver> receiver_grid(const std::string& text) {
  const Span span = parse_span("receiver-grid", text, 3, "X0,Y0,Z0:X1,Y1,Z1:NX,NY,NZ");
  const std::size_t nx = span.counts[0], ny = span.counts[1], nz = span.counts[2];
  std::vector<Receiver> receivers;
  for (std::size_t k = 0; k < nz; ++k)
    for (std::size_t j = 0; j < ny; ++j)
      for (std::size_t i = 0; i < nx; ++i)
        receivers.push_back({{spaced(span.first.x, span.last.x, i, nx), spaced(span.first.y, span.last.y, j, ny),
                              spaced(span.first.z, span.last.z, k, nz)},
                             "--receiver-grid node (" + std::to_string(i) + ", " + std::to_string(j) + ", " +
                                 std::to_string(k) + ")",
                             true});
  return receivers;
}

ReceiversInSolid receivers_in_solid(const surface::SurfaceMesh& mesh, bool unbounded_solid,
                                    const std::vector<Receiver>& receivers) {
  std::vector<double> indicators(receivers.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    const bem::Vec3 x = receivers[r].point;
    indicators[r] = surface::winding_number(mesh, {x.x, x.y, x.z}) + (unbounded_solid ? 1.0 : 0.0);
  }
  const auto describe = [&](std::size_t r) {
    const Receiver& receiver = receivers[r];
    char text[160];
    std::snprintf(text, sizeof text, " at (%.9g, %.9g, %.9g) m", receiver.point.x, receiver.point.y,
                  receiver.point.z);
    const char* where = std::abs(indicators[r]) < 0.25 ? (unbounded_solid ? "inside a cavity" : "outside the body")
                                                       : "on the boundary";
    return receiver.source + text + " (" + where + ")";
  };
  ReceiversInSolid out;
  std::vector<std::size_t> refused;
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    if (indicators[r] > 0.75) {
      out.receivers.push_back(receivers[r]);
    } else if (receivers[r].of_pattern) {
      if (out.left_out++ == 0) out.first_left_out = describe(r);
    } else {
      refused.push_back(r);
    }
  }
  if (!refused.empty())
    throw std::runtime_error("receiver " + describe(refused.front()) + " is not inside the elastic solid" +
                             (refused.size() > 1 ? "; " + std::to_string(refused.size() - 1) + " more receivers too"
                                                 : std::string()) +
                             ": receivers must lie in the solid, off its boundary");
  if (out.receivers.empty() && !receivers.empty())
    throw std::runtime_error("no receiver lies inside the elastic solid (" + std::to_string(receivers.size()) +
                             " given; the first: " + out.first_left_out + ")");
  return out;
}

}  // namespace geobem::cq_stage
