#include "mesh/surface/mesh_checks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "gpu/core/math_constants.hpp"
#include "mesh/surface/mesh_geometry.hpp"
#include "mesh/surface/self_intersection.hpp"

namespace geobem::surface {

namespace {

/// One use of an undirected edge by a triangle: `forward` when the triangle
/// runs from the smaller node index to the larger.
struct EdgeUse {
  int triangle;
  bool forward;
};

using EdgeKey = std::uint64_t;

EdgeKey edge_key(int a, int b) {
  const auto lo = static_cast<std::uint64_t>(std::min(a, b)), hi = static_cast<std::uint64_t>(std::max(a, b));
  return lo << 32 | hi;
}

std::string edge_name(EdgeKey key) {
  return "(" + std::to_string(key >> 32) + ", " + std::to_string(key & 0xffffffffu) + ")";
}

/// Every undirected edge with the triangles that use it.
using EdgeUses = std::unordered_map<EdgeKey, std::vector<EdgeUse>>;

EdgeUses edge_uses(const SurfaceMesh& mesh) {
  EdgeUses uses;
  uses.reserve(mesh.triangles.size() * 2);
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    const auto& tri = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3];
      uses[edge_key(a, b)].push_back({t, a < b});
    }
  }
  return uses;
}

/// Collects problems of one kind, listing the first few and counting the rest.
class ProblemList {
 public:
  explicit ProblemList(std::vector<std::string>& out) : out_(out) {}
  void add(const std::string& line) {
    if (++count_ <= listed_) out_.push_back(line);
  }
  ~ProblemList() {
    if (count_ > listed_) out_.push_back("... and " + std::to_string(count_ - listed_) + " more of the kind above");
  }
  int count() const { return count_; }

 private:
  static constexpr int listed_ = 5;
  std::vector<std::string>& out_;
  int count_ = 0;
};

std::string triangle_name(const SurfaceMesh& mesh, int t) {
  const auto& [a, b, c] = mesh.triangles[t];
  return "triangle " + std::to_string(t) + " (nodes " + std::to_string(a) + ", " + std::to_string(b) + ", " +
         std::to_string(c) + ")";
}

std::string format_number(double value) {
  std::ostringstream text;
  text.precision(6);
  text << value;
  return text.str();
}

/// Connected components of triangles joined by edges that exactly two
/// triangles share; component id per triangle, ids 0..count−1.
std::vector<int> triangle_components(const SurfaceMesh& mesh, const EdgeUses& uses, int& count) {
  std::vector<std::vector<int>> neighbours(mesh.triangles.size());
  for (const auto& [key, list] : uses)
    if (list.size() == 2) {
      neighbours[list[0].triangle].push_back(list[1].triangle);
      neighbours[list[1].triangle].push_back(list[0].triangle);
    }
  std::vector<int> component(mesh.triangles.size(), -1);
  count = 0;
  for (int seed = 0; seed < static_cast<int>(mesh.triangles.size()); ++seed) {
    if (component[seed] >= 0) continue;
    std::queue<int> queue;
    queue.push(seed);
    component[seed] = count;
    while (!queue.empty()) {
      const int t = queue.front();
      queue.pop();
      for (int n : neighbours[t])
        if (component[n] < 0) {
          component[n] = count;
          queue.push(n);
        }
    }
    ++count;
  }
  return component;
}

/// Enclosed volume (m³) of each component, relative to one node per mesh.
std::vector<double> component_volumes(const SurfaceMesh& mesh, const std::vector<int>& component, int count) {
  std::vector<double> six_volume(count, 0.0);
  if (mesh.nodes.empty()) return six_volume;
  const Vector3 r = mesh.nodes.front();
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    const auto& [ia, ib, ic] = mesh.triangles[t];
    const Vector3 &a = mesh.nodes[ia], &b = mesh.nodes[ib], &c = mesh.nodes[ic];
    const double ax = a[0] - r[0], ay = a[1] - r[1], az = a[2] - r[2];
    const double bx = b[0] - r[0], by = b[1] - r[1], bz = b[2] - r[2];
    const double cx = c[0] - r[0], cy = c[1] - r[1], cz = c[2] - r[2];
    six_volume[component[t]] += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
  }
  for (double& v : six_volume) v /= 6;
  return six_volume;
}

/// The closed surfaces given each triangle's component: members, signed
/// volume and nesting.
std::vector<ClosedSurface> surfaces_of(const SurfaceMesh& mesh, const std::vector<int>& component, int count) {
  std::vector<ClosedSurface> surfaces(count);
  for (int t = 0; t < static_cast<int>(component.size()); ++t) surfaces[component[t]].triangles.push_back(t);
  const auto volume = component_volumes(mesh, component, count);
  for (int c = 0; c < count; ++c) surfaces[c].enclosed_volume = volume[c];
  if (count < 2) return surfaces;
  for (int c = 0; c < count; ++c) {
    const Vector3 probe = triangle_centroid(mesh, surfaces[c].triangles.front());
    for (int d = 0; d < count; ++d)
      if (d != c && std::abs(winding_number(mesh, surfaces[d].triangles, probe)) > 0.5) {
        ++surfaces[c].depth;
        surfaces[c].parents.push_back(d);
      }
  }
  return surfaces;
}

/// Where a closed surface sits, for messages.
std::string placement(const ClosedSurface& surface) {
  if (surface.depth == 0) return "an outermost surface";
  std::string text = "a surface inside closed surface";
  text += surface.parents.size() > 1 ? "s " : " ";
  for (std::size_t k = 0; k < surface.parents.size(); ++k)
    text += (k ? ", " : "") + std::to_string(surface.parents[k]);
  return text;
}

// The checks of check_surface_mesh(), in its order. Each adds its problems
// to `problems`; those that return bool return whether they found none.

bool check_node_indices(const SurfaceMesh& mesh, std::vector<std::string>& problems) {
  const int node_count = static_cast<int>(mesh.nodes.size());
  ProblemList bad_index(problems);
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t)
    for (int node : mesh.triangles[t])
      if (node < 0 || node >= node_count) {
        bad_index.add(triangle_name(mesh, t) + " refers to node " + std::to_string(node) + " of " +
                      std::to_string(node_count));
        break;
      }
  return bad_index.count() == 0;
}

bool check_finite_nodes(const SurfaceMesh& mesh, std::vector<std::string>& problems) {
  ProblemList not_finite(problems);
  for (int node = 0; node < static_cast<int>(mesh.nodes.size()); ++node) {
    const auto& x = mesh.nodes[node];
    if (!std::isfinite(x[0]) || !std::isfinite(x[1]) || !std::isfinite(x[2]))
      not_finite.add("node " + std::to_string(node) + " has a coordinate that is not a finite number");
  }
  return not_finite.count() == 0;
}

void check_degenerate_triangles(const SurfaceMesh& mesh, double degenerate_tolerance,
                                std::vector<std::string>& problems) {
  ProblemList degenerate(problems);
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    const auto& tri = mesh.triangles[t];
    double longest = 0;
    for (int k = 0; k < 3; ++k) {
      const auto &p = mesh.nodes[tri[k]], &q = mesh.nodes[tri[(k + 1) % 3]];
      longest = std::max(longest, std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
    }
    const double area = triangle_area(mesh, t);
    if (!(area >= degenerate_tolerance * longest * longest) || longest == 0)
      degenerate.add("degenerate " + triangle_name(mesh, t) + ": area " + format_number(area) + " m^2 < " +
                     format_number(degenerate_tolerance) + " x (longest edge " + format_number(longest) + " m)^2");
  }
}

/// Every edge shared by exactly two triangles that run along it in opposite
/// directions: true when the surface is closed and consistently oriented.
bool check_edge_sharing(const EdgeUses& uses, std::vector<std::string>& problems) {
  ProblemList open(problems), non_manifold(problems), inconsistent(problems);
  // Sorted keys keep the report the same from run to run.
  std::vector<EdgeKey> keys;
  keys.reserve(uses.size());
  for (const auto& entry : uses) keys.push_back(entry.first);
  std::sort(keys.begin(), keys.end());
  for (EdgeKey key : keys) {
    const auto& list = uses.at(key);
    if (list.size() == 1) {
      open.add("open surface: edge " + edge_name(key) + " of triangle " + std::to_string(list[0].triangle) +
               " belongs to no other triangle");
    } else if (list.size() > 2) {
      std::string triangles;
      for (const auto& use : list) triangles += (triangles.empty() ? "" : ", ") + std::to_string(use.triangle);
      non_manifold.add("non-manifold edge " + edge_name(key) + ": shared by " + std::to_string(list.size()) +
                       " triangles (" + triangles + ")");
    } else if (list[0].forward == list[1].forward) {
      inconsistent.add("inconsistent orientation: triangles " + std::to_string(list[0].triangle) + " and " +
                       std::to_string(list[1].triangle) + " run along edge " + edge_name(key) +
                       " in the same direction");
    }
  }
  return open.count() + non_manifold.count() + inconsistent.count() == 0;
}

/// Whether the triangles `fan` around `node` are joined, edge by edge through
/// `node`, into one fan.
bool is_one_fan(const SurfaceMesh& mesh, const EdgeUses& uses, int node, const std::vector<int>& fan) {
  std::vector<int> reached(fan.size(), 0);
  std::vector<std::size_t> stack{0};
  reached[0] = 1;
  std::size_t reached_count = 1;
  while (!stack.empty()) {
    const int t = fan[stack.back()];
    stack.pop_back();
    for (int other : mesh.triangles[t]) {
      if (other == node) continue;
      for (const auto& use : uses.at(edge_key(node, other))) {
        const auto k = static_cast<std::size_t>(std::find(fan.begin(), fan.end(), use.triangle) - fan.begin());
        if (!reached[k]) {
          reached[k] = 1;
          ++reached_count;
          stack.push_back(k);
        }
      }
    }
  }
  return reached_count == fan.size();
}

/// For a closed, consistent surface: every edge is shared by two triangles,
/// yet two closed sheets may still touch at a single node: then the
/// triangles around that node form several fans instead of one.
bool check_pinched_nodes(const SurfaceMesh& mesh, const EdgeUses& uses, std::vector<std::string>& problems) {
  std::vector<std::vector<int>> triangles_at(mesh.nodes.size());
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t)
    for (int node : mesh.triangles[t]) triangles_at[node].push_back(t);
  ProblemList pinched(problems);
  for (int node = 0; node < static_cast<int>(mesh.nodes.size()); ++node) {
    const auto& fan = triangles_at[node];
    if (!fan.empty() && !is_one_fan(mesh, uses, node, fan))
      pinched.add("non-manifold node " + std::to_string(node) + ": its " + std::to_string(fan.size()) +
                  " triangles form separate fans (surfaces touching at one point)");
  }
  return pinched.count() == 0;
}

bool check_self_intersections(const SurfaceMesh& mesh, std::vector<std::string>& problems) {
  const auto pairs = intersecting_triangles(mesh);
  for (const auto& pair : pairs)
    problems.push_back("self-intersecting surface: " + triangle_name(mesh, pair.first) + " and " +
                       triangle_name(mesh, pair.second) + " cross, touch or overlap");
  if (pairs.size() >= 6) problems.push_back("... and perhaps more intersecting triangles");
  return pairs.empty();
}

/// For a closed, consistent surface that does not pass through itself: the
/// normals of each closed surface point out of the solid, given its nesting.
void check_normals(const SurfaceMesh& mesh, const EdgeUses& uses, SolidDomain domain,
                   std::vector<std::string>& problems) {
  int count = 0;
  const auto component = triangle_components(mesh, uses, count);
  const auto surfaces = surfaces_of(mesh, component, count);
  ProblemList wrong_way(problems);
  for (int c = 0; c < count; ++c) {
    const auto& surface = surfaces[c];
    const bool around_solid = solid_inside(domain, surface.depth);
    if (around_solid ? surface.enclosed_volume > 0 : surface.enclosed_volume < 0) continue;
    wrong_way.add("normals into the solid: closed surface " + std::to_string(c) + " (containing triangle " +
                  std::to_string(surface.triangles.front()) + ", " + placement(surface) + ") encloses volume " +
                  format_number(surface.enclosed_volume) + " m^3; with the solid in the " +
                  solid_domain_name(domain) + " domain it bounds " +
                  (around_solid ? "solid, so its normals must point outward (positive volume)"
                                : "a cavity, so its normals must point into the cavity (negative volume)"));
  }
}

/// A group id for every triangle, naming a group; every group named, once.
void check_boundary_groups(const SurfaceMesh& mesh, std::vector<std::string>& problems) {
  const int triangle_count = static_cast<int>(mesh.triangles.size());
  if (mesh.group_of_triangle.size() != mesh.triangles.size()) {
    problems.push_back("boundary groups: " + std::to_string(mesh.group_of_triangle.size()) + " group ids for " +
                       std::to_string(triangle_count) + " triangles");
  } else {
    const int group_count = static_cast<int>(mesh.group_names.size());
    ProblemList no_group(problems);
    for (int t = 0; t < triangle_count; ++t) {
      const int g = mesh.group_of_triangle[t];
      if (g < 0 || g >= group_count)
        no_group.add(triangle_name(mesh, t) + " is in no boundary group (group id " + std::to_string(g) + ", " +
                     std::to_string(group_count) + " groups)");
    }
  }
  for (std::size_t g = 0; g < mesh.group_names.size(); ++g) {
    if (mesh.group_names[g].empty()) problems.push_back("boundary group " + std::to_string(g) + " has no name");
    for (std::size_t h = 0; h < g; ++h)
      if (!mesh.group_names[g].empty() && mesh.group_names[g] == mesh.group_names[h])
        problems.push_back("boundary groups " + std::to_string(h) + " and " + std::to_string(g) +
                           " have the same name '" + mesh.group_names[g] + "'");
  }
}

}  // namespace

const char* solid_domain_name(SolidDomain domain) {
  return domain == SolidDomain::interior ? "interior" : "exterior";
}

bool solid_inside(SolidDomain domain, int depth) { return (depth % 2 == 0) == (domain == SolidDomain::interior); }

double winding_number(const SurfaceMesh& mesh, const std::vector<int>& triangles, const Vector3& point) {
  double solid_angle = 0;
  for (int t : triangles) {
    std::array<Vector3, 3> v;
    std::array<double, 3> length;
    for (int k = 0; k < 3; ++k) {
      const auto& x = mesh.nodes[mesh.triangles[t][k]];
      v[k] = {x[0] - point[0], x[1] - point[1], x[2] - point[2]};
      length[k] = std::hypot(v[k][0], v[k][1], v[k][2]);
    }
    auto dot = [](const Vector3& a, const Vector3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
    const auto &a = v[0], &b = v[1], &c = v[2];
    const double triple = a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
                          a[2] * (b[0] * c[1] - b[1] * c[0]);
    const double denominator = length[0] * length[1] * length[2] + dot(a, b) * length[2] + dot(a, c) * length[1] +
                               dot(b, c) * length[0];
    solid_angle += 2 * std::atan2(triple, denominator);
  }
  return solid_angle / (4 * kPi);
}

double winding_number(const SurfaceMesh& mesh, const Vector3& point) {
  std::vector<int> triangles(mesh.triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t) triangles[t] = static_cast<int>(t);
  return winding_number(mesh, triangles, point);
}


std::vector<ClosedSurface> closed_surfaces(const SurfaceMesh& mesh) {
  const auto uses = edge_uses(mesh);
  for (const auto& [key, list] : uses)
    if (list.size() != 2)
      throw std::runtime_error("closed surfaces: edge " + edge_name(key) + " is shared by " +
                               std::to_string(list.size()) + " triangle(s), so the surface is " +
                               (list.size() == 1 ? "open" : "non-manifold"));
  int count = 0;
  const auto component = triangle_components(mesh, uses, count);
  return surfaces_of(mesh, component, count);
}

std::optional<SolidDomain> solid_domain_of(const SurfaceMesh& mesh) {
  bool positive = false, negative = false;
  for (const auto& surface : closed_surfaces(mesh))
    if (surface.depth == 0) (surface.enclosed_volume > 0 ? positive : negative) = true;
  if (positive == negative) return std::nullopt;
  return positive ? SolidDomain::interior : SolidDomain::exterior;
}

std::string MeshCheckReport::message() const {
  std::string text;
  for (const auto& line : problems) text += (text.empty() ? "" : "\n") + line;
  return text;
}

MeshCheckReport check_surface_mesh(const SurfaceMesh& mesh, double degenerate_tolerance, SolidDomain domain) {
  MeshCheckReport report;
  auto& problems = report.problems;
  if (mesh.triangles.empty()) {
    problems.push_back("the mesh has no triangles");
    return report;
  }
  // Nothing else can be checked safely with a node out of range or not finite.
  if (!check_node_indices(mesh, problems) || !check_finite_nodes(mesh, problems)) return report;
  check_degenerate_triangles(mesh, degenerate_tolerance, problems);
  const auto uses = edge_uses(mesh);
  bool closed_and_consistent = check_edge_sharing(uses, problems) && check_pinched_nodes(mesh, uses, problems);
  // Nesting and normals mean nothing for a surface that passes through itself.
  closed_and_consistent = check_self_intersections(mesh, problems) && closed_and_consistent;
  if (closed_and_consistent) check_normals(mesh, uses, domain, problems);
  check_boundary_groups(mesh, problems);
  return report;
}

void require_valid_surface_mesh(const SurfaceMesh& mesh, const std::string& source, double degenerate_tolerance,
                                SolidDomain domain) {
  const auto report = check_surface_mesh(mesh, degenerate_tolerance, domain);
  if (!report.ok()) throw std::runtime_error(source + ": invalid surface mesh:\n" + report.message());
}

int orient_outward(SurfaceMesh& mesh, SolidDomain domain) {
  const int triangle_count = static_cast<int>(mesh.triangles.size());
  for (int t = 0; t < triangle_count; ++t)
    for (int node : mesh.triangles[t])
      if (node < 0 || node >= static_cast<int>(mesh.nodes.size()))
        throw std::runtime_error("cannot orient the surface: triangle " + std::to_string(t) + " refers to node " +
                                 std::to_string(node) + " of " + std::to_string(mesh.nodes.size()));
  const auto uses = edge_uses(mesh);
  std::vector<std::vector<std::pair<int, EdgeKey>>> neighbours(triangle_count);
  for (const auto& [key, list] : uses) {
    if (list.size() != 2)
      throw std::runtime_error("cannot orient the surface: edge " + edge_name(key) + " is shared by " +
                               std::to_string(list.size()) + " triangle(s), so the surface is " +
                               (list.size() == 1 ? "open" : "non-manifold"));
    neighbours[list[0].triangle].push_back({list[1].triangle, key});
    neighbours[list[1].triangle].push_back({list[0].triangle, key});
  }
  // Direction in which triangle t, once reversed as `reversed[t]` says, runs
  // along the edge `key`.
  std::vector<int> reversed(triangle_count, -1);
  auto forward_along = [&](int t, EdgeKey key) {
    bool forward = false;
    for (const auto& use : uses.at(key))
      if (use.triangle == t) forward = use.forward;
    return forward != (reversed[t] == 1);
  };
  std::vector<int> component(triangle_count, -1);
  int count = 0;
  for (int seed = 0; seed < triangle_count; ++seed) {
    if (reversed[seed] >= 0) continue;
    reversed[seed] = 0;
    component[seed] = count;
    std::queue<int> queue;
    queue.push(seed);
    while (!queue.empty()) {
      const int t = queue.front();
      queue.pop();
      for (const auto& [n, key] : neighbours[t]) {
        if (reversed[n] < 0) {
          reversed[n] = 0;
          // The neighbour must run along the shared edge against t.
          if (forward_along(n, key) == forward_along(t, key)) reversed[n] = 1;
          component[n] = count;
          queue.push(n);
        } else if (forward_along(n, key) == forward_along(t, key)) {
          throw std::runtime_error("cannot orient the surface: it is not orientable (triangles " +
                                   std::to_string(t) + " and " + std::to_string(n) + " at edge " + edge_name(key) +
                                   ")");
        }
      }
    }
    ++count;
  }
  for (int t = 0; t < triangle_count; ++t)
    if (reversed[t] == 1) std::swap(mesh.triangles[t][1], mesh.triangles[t][2]);
  const auto surfaces = surfaces_of(mesh, component, count);
  int flipped = 0;
  for (int t = 0; t < triangle_count; ++t) {
    const auto& surface = surfaces[component[t]];
    const bool turn = (surface.enclosed_volume > 0) != solid_inside(domain, surface.depth);
    if (turn) std::swap(mesh.triangles[t][1], mesh.triangles[t][2]);
    flipped += (reversed[t] == 1) != turn;
  }
  return flipped;
}

}  // namespace geobem::surface
