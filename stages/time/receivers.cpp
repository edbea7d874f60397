#include "stages/time/receivers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "gpu/bem/receiver_field.hpp"
#include "gpu/core/input_error.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/mesh_geometry.hpp"
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
  if (parts.size() != 3) throw InputError::usage("--" + option + " '" + text + "': expected " + form);
  const auto a = cli::parse_number_list(option, parts[0], 3, form);
  const auto b = cli::parse_number_list(option, parts[1], 3, form);
  Span span{{a[0], a[1], a[2]}, {b[0], b[1], b[2]},
            cli::parse_count_list(option, parts[2], axes, form, static_cast<double>(max_receivers))};
  std::size_t product = 1;
  for (std::size_t count : span.counts) {
    if (count < 1) throw InputError::usage("--" + option + " '" + text + "': every count must be at least 1");
    product = product > max_receivers ? product : product * count;  // each count <= 1e6: no overflow
  }
  require_receiver_count(0, product, "--" + option + " '" + text + "'");
  return span;
}

/// A triangle's longest edge and bounding sphere, for the distance test.
struct TriangleReach {
  surface::Vector3 centre;
  double edge = 0, radius = 0;
};

std::vector<TriangleReach> triangle_reach(const surface::SurfaceMesh& mesh) {
  std::vector<TriangleReach> reach(mesh.triangles.size());
  for (std::size_t t = 0; t < reach.size(); ++t) {
    TriangleReach& r = reach[t];
    r.centre = surface::triangle_centroid(mesh, static_cast<int>(t));
    r.edge = surface::longest_edge(mesh, static_cast<int>(t));
    for (const int node : mesh.triangles[t]) {
      const auto& p = mesh.nodes[node];
      r.radius = std::max(r.radius, std::hypot(p[0] - r.centre[0], p[1] - r.centre[1], p[2] - r.centre[2]));
    }
  }
  return reach;
}

/// The nearest triangle that a receiver is too close to, or triangle −1.
struct Nearness {
  int triangle = -1;
  double distance = 0, edge = 0;
};

Nearness nearest_too_close(const surface::SurfaceMesh& mesh, const std::vector<TriangleReach>& reach,
                           const bem::Vec3& x) {
  Nearness nearest;
  const surface::Vector3 point{x.x, x.y, x.z};
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const TriangleReach& r = reach[t];
    const double limit = bem::receiver_min_distance_ratio * r.edge;
    // The bounding sphere first: most triangles are far enough by it.
    if (std::hypot(x.x - r.centre[0], x.y - r.centre[1], x.z - r.centre[2]) - r.radius >= limit) continue;
    const double distance = surface::distance_to_triangle(mesh, static_cast<int>(t), point);
    if (distance < limit && (nearest.triangle < 0 || distance < nearest.distance))
      nearest = {static_cast<int>(t), distance, r.edge};
  }
  return nearest;
}

/// Coordinate k of `count` equally spaced from `from` to `to` (from itself when count is 1).
double spaced(double from, double to, std::size_t k, std::size_t count) {
  return count == 1 ? from : from + (to - from) * static_cast<double>(k) / static_cast<double>(count - 1);
}

}  // namespace

void require_receiver_count(std::size_t already, std::size_t more, const std::string& what) {
  if (more <= max_receivers && already <= max_receivers - more) return;
  throw InputError::usage(what + ": " + std::to_string(more) + " receivers" +
                          (already ? " after " + std::to_string(already) + " others" : std::string()) +
                          ", more than the " + std::to_string(max_receivers) +
                          " a run takes (each costs a representation formula per CQ frequency over every element)");
}

std::vector<Receiver> read_receiver_csv(const std::string& path) {
  const CsvTable table = read_csv_table(path);
  require_columns(table, {"x", "y", "z"});
  if (table.rows.empty()) throw std::runtime_error(path + ": no receivers after the header");
  if (table.rows.size() > max_receivers)
    throw std::runtime_error(path + ": " + std::to_string(table.rows.size()) + " receivers, more than the " +
                             std::to_string(max_receivers) + " a run takes");
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
  std::vector<Nearness> nearness(receivers.size());
  const std::vector<TriangleReach> reach = triangle_reach(mesh);
#pragma omp parallel for schedule(dynamic, 16)
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    const bem::Vec3 x = receivers[r].point;
    indicators[r] = surface::winding_number(mesh, {x.x, x.y, x.z}) + (unbounded_solid ? 1.0 : 0.0);
    if (indicators[r] > 0.75) nearness[r] = nearest_too_close(mesh, reach, x);
  }
  const auto describe = [&](std::size_t r) {
    const Receiver& receiver = receivers[r];
    char text[320];
    const int length = std::snprintf(text, sizeof text, " at (%.9g, %.9g, %.9g) m", receiver.point.x,
                                     receiver.point.y, receiver.point.z);
    const Nearness& n = nearness[r];
    if (n.triangle >= 0)
      std::snprintf(text + length, sizeof text - length,
                    " (%.3g m from triangle %d, nearer than %g of its longest edge %.6g m, %.3g m)", n.distance,
                    n.triangle, bem::receiver_min_distance_ratio, n.edge, bem::receiver_min_distance_ratio * n.edge);
    else
      std::snprintf(text + length, sizeof text - length, " (%s)",
                    std::abs(indicators[r]) < 0.25 ? (unbounded_solid ? "inside a cavity" : "outside the body")
                                                   : "on the boundary");
    return receiver.source + text;
  };
  ReceiversInSolid out;
  std::vector<std::size_t> outside, too_near;
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    const bool in_solid = indicators[r] > 0.75, near = nearness[r].triangle >= 0;
    if (in_solid && !near) {
      out.receivers.push_back(receivers[r]);
    } else if (receivers[r].of_pattern) {
      if (out.left_out++ == 0) out.first_left_out = describe(r);
    } else {
      (in_solid ? too_near : outside).push_back(r);
    }
  }
  if (!outside.empty())
    throw std::runtime_error("receiver " + describe(outside.front()) + " is not inside the elastic solid" +
                             (outside.size() > 1 ? "; " + std::to_string(outside.size() - 1) + " more receivers too"
                                                 : std::string()) +
                             ": receivers must lie in the solid, off its boundary");
  if (!too_near.empty()) {
    const Nearness& n = nearness[too_near.front()];
    char distance[64];
    std::snprintf(distance, sizeof distance, "%.3g m", bem::receiver_min_distance_ratio * n.edge);
    throw std::runtime_error("receiver " + describe(too_near.front()) +
                             " is too near the surface: there the representation formula's quadrature is not "
                             "accurate; move it at least " + distance + " from the surface" +
                             (too_near.size() > 1 ? "; " + std::to_string(too_near.size() - 1) + " more receivers too"
                                                  : std::string()));
  }
  if (out.receivers.empty() && !receivers.empty())
    throw std::runtime_error("no receiver lies inside the elastic solid (" +
                             std::to_string(receivers.size()) + " given; the first: " + out.first_left_out + ")");
  return out;
}

}  // namespace geobem::cq_stage
