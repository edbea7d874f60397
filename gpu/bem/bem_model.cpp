#include "gpu/bem/bem_model.hpp"

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
  v.material = material;
  return v;
}

double BemModel::smallest_element_size() const {
  return longest_edges.empty() ? 0.0 : *std::min_element(longest_edges.begin(), longest_edges.end());
}

BemModel make_bem_model(const surface::SurfaceMesh& mesh, const std::vector<GroupCondition>& conditions,
                        const Material& material) {
  const std::size_t groups = mesh.group_names.size();
  std::vector<const GroupCondition*> condition_of_group(groups, nullptr);
  for (const auto& condition : conditions) {
    const auto it = std::find(mesh.group_names.begin(), mesh.group_names.end(), condition.group);
    if (it == mesh.group_names.end())
      throw std::invalid_argument("boundary condition for group '" + condition.group + "', which the mesh lacks");
    auto& slot = condition_of_group[it - mesh.group_names.begin()];
    if (slot) throw std::invalid_argument("group '" + condition.group + "' has two boundary conditions");
    slot = &condition;
  }
  bool any_fixed = false;
  for (std::size_t g = 0; g < groups; ++g) {
    if (!condition_of_group[g])
      throw std::invalid_argument("group '" + mesh.group_names[g] + "' has no boundary condition");
    any_fixed = any_fixed || condition_of_group[g]->fixed;
  }
  if (!any_fixed) throw std::invalid_argument("no fixed group: the pure traction problem is singular");

  BemModel model;
  model.material = material;
  model.group_names = mesh.group_names;
  model.group_of_element = mesh.group_of_triangle;
  for (const auto& p : mesh.nodes) model.nodes.push_back({p[0], p[1], p[2]});
  const std::size_t elements = mesh.triangles.size();
  std::vector<char> node_fixed(mesh.nodes.size(), 0);
  for (std::size_t e = 0; e < elements; ++e) {
    const auto& t = mesh.triangles[e];
    const Vec3 a = model.nodes[t[0]], b = model.nodes[t[1]], c = model.nodes[t[2]];
    const Vec3 normal = cross(b - a, c - a);
    const double twice_area = norm(normal);
    const double edge = std::max({norm(b - a), norm(c - b), norm(a - c)});
    if (!(twice_area > 1e-12 * edge * edge))
      throw std::invalid_argument("triangle " + std::to_string(e) + " is degenerate (zero area)");
    model.triangles.insert(model.triangles.end(), {t[0], t[1], t[2]});
    model.normals.push_back((1.0 / twice_area) * normal);
    model.areas.push_back(0.5 * twice_area);
    model.longest_edges.push_back(edge);
    model.centroids.push_back((1.0 / 3.0) * (a + b + c));
    const GroupCondition& condition = *condition_of_group[mesh.group_of_triangle[e]];
    if (condition.fixed) {
      for (int k = 0; k < 3; ++k) node_fixed[t[k]] = 1;
      model.element_traction.push_back({});
    } else {
      model.element_traction.push_back({condition.traction[0], condition.traction[1], condition.traction[2]});
    }
  }
  model.node_block.assign(mesh.nodes.size(), -1);
  for (std::size_t n = 0; n < mesh.nodes.size(); ++n)
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

}  // namespace geobem::bem
