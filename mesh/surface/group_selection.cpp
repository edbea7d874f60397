#include "mesh/surface/group_selection.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "gpu/core/input_error.hpp"
#include "mesh/io/parse_number.hpp"
#include "mesh/surface/mesh_geometry.hpp"

namespace geobem::surface {

namespace {

double finite_number(const std::string& field, const std::string& text) {
  const std::optional<double> value = parse_number(field);
  if (!value || !std::isfinite(*value))
    throw InputError::usage("group selection '" + text + "': '" + field + "' is not a finite number");
  return *value;
}

std::string point_text(const Vector3& x) {
  std::ostringstream out;
  out.precision(6);
  out << "(" << x[0] << ", " << x[1] << ", " << x[2] << ")";
  return out.str();
}

bool contains(const GroupSelection& s, const Vector3& x, double tolerance) {
  if (s.axis >= 0) return std::abs(x[s.axis] - s.value) <= tolerance;
  for (int a = 0; a < 3; ++a)
    if (x[a] < s.low[a] - tolerance || x[a] > s.high[a] + tolerance) return false;
  return true;
}

/// The length (m) of the diagonal of the mesh's bounding box; 0 without nodes.
double bounding_box_diagonal(const SurfaceMesh& mesh) {
  Vector3 low{HUGE_VAL, HUGE_VAL, HUGE_VAL}, high{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (const auto& x : mesh.nodes)
    for (int a = 0; a < 3; ++a) {
      low[a] = std::min(low[a], x[a]);
      high[a] = std::max(high[a], x[a]);
    }
  return mesh.nodes.empty() ? 0 : std::hypot(high[0] - low[0], high[1] - low[1], high[2] - low[2]);
}

/// The index of the group `name`, added after the others if new.
int group_named(SurfaceMesh& mesh, const std::string& name) {
  auto it = std::find(mesh.group_names.begin(), mesh.group_names.end(), name);
  const int group = static_cast<int>(it - mesh.group_names.begin());
  if (it == mesh.group_names.end()) mesh.group_names.push_back(name);
  return group;
}

/// Each triangle inside a selection gets its group (see assign_groups).
void assign_selected_groups(SurfaceMesh& mesh, const std::vector<GroupSelection>& selections) {
  if (!mesh.group_names.empty())
    throw InputError("the mesh has its own boundary groups; --group selections are for files without");
  const double diagonal = bounding_box_diagonal(mesh);
  std::vector<int> group_of_selection;
  for (const auto& s : selections) group_of_selection.push_back(group_named(mesh, s.name));
  std::vector<int> selected_count(selections.size(), 0);
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    int chosen = -1;
    for (std::size_t k = 0; k < selections.size(); ++k) {
      const double tolerance = selections[k].tolerance.value_or(1e-6 * diagonal);
      bool inside = true;
      for (int node : mesh.triangles[t]) inside = inside && contains(selections[k], mesh.nodes[node], tolerance);
      if (!inside) continue;
      ++selected_count[k];
      if (chosen >= 0 && group_of_selection[chosen] != group_of_selection[k])
        throw InputError("triangle " + std::to_string(t) + " (centroid " +
                         point_text(triangle_centroid(mesh, t)) + ") is inside both --group '" +
                         selections[chosen].text + "' and --group '" + selections[k].text +
                         "': every triangle must be in exactly one boundary group");
      chosen = static_cast<int>(k);
    }
    mesh.group_of_triangle[t] = chosen >= 0 ? group_of_selection[chosen] : -1;
  }
  for (std::size_t k = 0; k < selections.size(); ++k)
    if (selected_count[k] == 0)
      throw InputError("--group '" + selections[k].text + "' selects no triangle");
}

}  // namespace

GroupSelection parse_group_selection(const std::string& text) {
  const auto expected = " (expected NAME=x|y|z=VALUE[:TOL] or NAME=box:XMIN,XMAX,YMIN,YMAX,ZMIN,ZMAX[:TOL])";
  GroupSelection selection;
  selection.text = text;
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw InputError::usage("group selection '" + text + "': no group name" + expected);
  selection.name = text.substr(0, equals);
  std::string region = text.substr(equals + 1);
  // An optional ":TOL" ends the region; the colon of "box:" is not one.
  const bool is_box = region.compare(0, 4, "box:") == 0;
  const auto colon = region.rfind(':');
  if (colon != std::string::npos && !(is_box && colon == 3)) {
    selection.tolerance = finite_number(region.substr(colon + 1), text);
    if (*selection.tolerance < 0)
      throw InputError::usage("group selection '" + text + "': the tolerance must not be negative");
    region = region.substr(0, colon);
  }
  if (region.size() > 2 && (region[0] == 'x' || region[0] == 'y' || region[0] == 'z') && region[1] == '=') {
    selection.axis = region[0] - 'x';
    selection.value = finite_number(region.substr(2), text);
    return selection;
  }
  if (is_box) {
    std::vector<double> v;
    std::stringstream fields(region.substr(4));
    std::string field;
    while (std::getline(fields, field, ',')) v.push_back(finite_number(field, text));
    if (v.size() != 6) throw InputError::usage("group selection '" + text + "': a box needs 6 numbers" + expected);
    for (int a = 0; a < 3; ++a) {
      selection.low[a] = v[2 * a];
      selection.high[a] = v[2 * a + 1];
      if (selection.low[a] > selection.high[a])
        throw InputError::usage("group selection '" + text + "': box minimum above maximum along " +
                                std::string(1, "xyz"[a]));
    }
    return selection;
  }
  throw InputError::usage("group selection '" + text + "': unknown region '" + region + "'" + expected);
}

void assign_groups(SurfaceMesh& mesh, const std::vector<GroupSelection>& selections,
                   const std::optional<std::string>& default_group) {
  const int triangle_count = static_cast<int>(mesh.triangles.size());
  mesh.group_of_triangle.resize(triangle_count, -1);
  if (!selections.empty()) assign_selected_groups(mesh, selections);

  std::vector<int> unassigned;
  for (int t = 0; t < triangle_count; ++t)
    if (mesh.group_of_triangle[t] < 0) unassigned.push_back(t);
  if (unassigned.empty()) return;
  if (default_group) {
    const int group = group_named(mesh, *default_group);
    for (int t : unassigned) mesh.group_of_triangle[t] = group;
    return;
  }
  std::string examples;
  for (std::size_t k = 0; k < std::min<std::size_t>(3, unassigned.size()); ++k)
    examples += (k ? ", " : "") + std::string("triangle ") + std::to_string(unassigned[k]) + " (centroid " +
                point_text(triangle_centroid(mesh, unassigned[k])) + ")";
  throw InputError(std::to_string(unassigned.size()) + " of " + std::to_string(triangle_count) +
                   " triangles are in no boundary group, e.g. " + examples +
                   (selections.empty() && !mesh.group_names.empty()
                        ? "; name a --default-group for them"
                        : "; select them with --group or name a --default-group"));
}

}  // namespace geobem::surface
