#include "stages/time/probes.hpp"

#include <cstdio>
#include <limits>
#include <stdexcept>

#include "gpu/core/input_error.hpp"

namespace geobem::cq_stage {

Probe nearest_node_probe(const bem::BemModel& model, const std::array<double, 3>& point) {
  const bem::Vec3 target{point[0], point[1], point[2]};
  int best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < model.nodes.size(); ++k) {
    const double distance = bem::norm(model.nodes[k] - target);
    if (distance < best_distance) best_distance = distance, best = static_cast<int>(k);
  }
  const bem::Vec3 node = model.nodes[best];
  char text[200];
  std::snprintf(text, sizeof text, "point (%g, %g, %g): nearest node %d at (%g, %g, %g), %.3g m away", point[0],
                point[1], point[2], best, node.x, node.y, node.z, best_distance);
  return {text, {best}, {1.0}};
}

Probe group_mean_probe(const bem::BemModel& model, const std::string& name) {
  int group = -1;
  std::string names;
  for (std::size_t g = 0; g < model.group_names.size(); ++g) {
    if (model.group_names[g] == name) group = static_cast<int>(g);
    names += (g ? ", " : "") + model.group_names[g];
  }
  if (group < 0) throw InputError("probe group '" + name + "': the mesh has no such group (it has " + names + ")");
  std::vector<double> weight(model.nodes.size(), 0.0);
  double total = 0.0;
  for (std::size_t e = 0; e < model.areas.size(); ++e)
    if (model.group_of_element[e] == group) {
      for (int k = 0; k < 3; ++k) weight[model.triangles[3 * e + k]] += model.areas[e] / 3.0;
      total += model.areas[e];
    }
  Probe probe;
  for (std::size_t k = 0; k < weight.size(); ++k)
    if (weight[k] > 0.0) {
      probe.nodes.push_back(static_cast<int>(k));
      probe.weights.push_back(weight[k] / total);
    }
  probe.description = "group '" + name + "': area-weighted mean over its " + std::to_string(probe.nodes.size()) +
                      " nodes";
  return probe;
}

std::array<double, 3> probe_displacement(const bem::BemModel& model, const std::vector<double>& unknowns, int step,
                                         const Probe& probe) {
  const std::size_t n = model.unknown_count();
  std::array<double, 3> u{0.0, 0.0, 0.0};
  for (std::size_t k = 0; k < probe.nodes.size(); ++k) {
    const int block = model.node_block[probe.nodes[k]];
    if (block < 0) continue;
    for (int c = 0; c < 3; ++c) u[c] += probe.weights[k] * unknowns[step * n + 3 * block + c];
  }
  return u;
}

}  // namespace geobem::cq_stage
