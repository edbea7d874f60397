#include "gpu/bem/bem_model.hpp"

#include "gpu/bem/rod_closed_form.hpp"
#include "gpu/core/input_error.hpp"

#include <algorithm>
#include <stdexcept>

namespace geobem::bem {

ModelView BemModel::view() const {
  ModelView v;
  v.node_count = static_cast<int>(nodes.size());
  v.element_count = static_cast<int>(normals.size());
  v.collocation_count = static_cast<int>(collocation_points.size());
  v.free_node_count = static_cast<int>(free_nodes.size());
  v.unknown_count = unknown_count();
  v.nodes = nodes.data();
  v.triangles = triangles.data();
  v.normals = normals.data();
  v.areas = areas.data();
  v.longest_edges = longest_edges.data();
  v.centroids = centroids.data();
  v.collocation_points = collocation_points.data();
  v.collocation_node = collocation_node.data();
  v.collocation_element = collocation_element.data();
  v.node_block = node_block.data();
  v.element_block = element_block.data();
  v.element_traction = element_traction.data();
  v.element_load_case = element_load_case.data();
  v.load_case_count = load_case_count();
  v.material = material;
  return v;
}

double BemModel::smallest_element_size() const {
  return longest_edges.empty() ? 0.0 : *std::min_element(longest_edges.begin(), longest_edges.end());
}

BemModel make_bem_model(const SurfaceView& mesh, const std::vector<GroupCondition>& conditions,
                        const Material& material) {
  const std::size_t groups = mesh.group_count;
  const std::string* group_names_end = mesh.group_names + groups;
  std::vector<const GroupCondition*> condition_of_group(groups, nullptr);
  for (const auto& condition : conditions) {
    const auto it = std::find(mesh.group_names, group_names_end, condition.group);
    if (it == group_names_end)
      throw InputError("boundary condition for group '" + condition.group + "', which the mesh lacks");
    auto& slot = condition_of_group[it - mesh.group_names];
    if (slot) throw InputError("group '" + condition.group + "' has two boundary conditions");
    slot = &condition;
  }
  bool any_fixed = false;
  for (std::size_t g = 0; g < groups; ++g) {
    if (!condition_of_group[g])
      throw InputError("group '" + mesh.group_names[g] + "' has no boundary condition");
    any_fixed = any_fixed || condition_of_group[g]->fixed;
  }
  if (!any_fixed && !mesh.unbounded_solid)
    throw InputError("no fixed group: the pure traction problem of a bounded solid is singular");

  BemModel model;
  model.material = material;
  model.unbounded_solid = mesh.unbounded_solid;
  model.group_names.assign(mesh.group_names, group_names_end);
  const std::size_t elements = mesh.triangle_count;
  model.group_of_element.assign(mesh.group_of_triangle, mesh.group_of_triangle + elements);
  for (std::size_t k = 0; k < mesh.node_count; ++k) model.nodes.push_back({mesh.nodes[k][0], mesh.nodes[k][1], mesh.nodes[k][2]});
  std::vector<int> load_case_of_group(groups, -1);
  for (std::size_t g = 0; g < groups; ++g) {
    const auto& t = condition_of_group[g]->traction;
    const bool loaded = t[0] != 0.0 || t[1] != 0.0 || t[2] != 0.0 || condition_of_group[g]->pressure != 0.0;
    if (!condition_of_group[g]->fixed && loaded) {
      load_case_of_group[g] = model.load_case_count();
      model.load_case_groups.push_back(model.group_names[g]);
    }
  }
  std::vector<char> node_fixed(mesh.node_count, 0);
  for (std::size_t e = 0; e < elements; ++e) {
    const auto& t = mesh.triangles[e];
    const Vec3 a = model.nodes[t[0]], b = model.nodes[t[1]], c = model.nodes[t[2]];
    const Vec3 normal = cross(b - a, c - a);
    const double twice_area = norm(normal);
    const double edge = std::max({norm(b - a), norm(c - b), norm(a - c)});
    if (!(twice_area > 1e-12 * edge * edge))
      throw InputError("triangle " + std::to_string(e) + " is degenerate (zero area)");
    model.triangles.insert(model.triangles.end(), {t[0], t[1], t[2]});
    const Vec3 unit_normal = (1.0 / twice_area) * normal;
    model.normals.push_back(unit_normal);
    model.areas.push_back(0.5 * twice_area);
    model.longest_edges.push_back(edge);
    model.centroids.push_back((1.0 / 3.0) * (a + b + c));
    const GroupCondition& condition = *condition_of_group[mesh.group_of_triangle[e]];
    model.element_load_case.push_back(load_case_of_group[mesh.group_of_triangle[e]]);
    if (condition.fixed) {
      for (int k = 0; k < 3; ++k) node_fixed[t[k]] = 1;
      model.element_traction.push_back({});
    } else {
      model.element_traction.push_back(Vec3{condition.traction[0], condition.traction[1], condition.traction[2]} -
                                       condition.pressure * unit_normal);
    }
  }
  model.node_block.assign(mesh.node_count, -1);
  for (std::size_t n = 0; n < mesh.node_count; ++n)
    if (!node_fixed[n]) {
      model.node_block[n] = static_cast<int>(model.free_nodes.size());
      model.free_nodes.push_back(static_cast<int>(n));
      model.collocation_points.push_back(model.nodes[n]);
      model.collocation_node.push_back(static_cast<int>(n));
      model.collocation_element.push_back(-1);
    }
  model.element_block.assign(elements, -1);
  for (std::size_t e = 0; e < elements; ++e)
    if (condition_of_group[mesh.group_of_triangle[e]]->fixed) {
      model.element_block[e] = static_cast<int>(model.collocation_points.size());
      model.fixed_elements.push_back(static_cast<int>(e));
      model.collocation_points.push_back(model.centroids[e]);
      model.collocation_node.push_back(-1);
      model.collocation_element.push_back(static_cast<int>(e));
    }
  return model;
}

RodProblem rod_problem_of(const BemModel& model) {
  if (model.load_case_count() != 1)
    throw InputError("the rod's closed form needs exactly one loaded group (the model has " +
                     std::to_string(model.load_case_count()) + ")");
  Vec3 traction{};
  for (std::size_t e = 0; e < model.element_load_case.size(); ++e)
    if (model.element_load_case[e] == 0) traction = model.element_traction[e];
  const double p = norm(traction);
  const Vec3 direction = (1.0 / p) * traction;
  double low = 1e300, high = -1e300;
  for (const auto& node : model.nodes) {
    low = std::min(low, dot(node, direction));
    high = std::max(high, dot(node, direction));
  }
  return {p, high - low};
}

}  // namespace geobem::bem
