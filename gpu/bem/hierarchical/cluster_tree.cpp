#include "gpu/bem/hierarchical/cluster_tree.hpp"
#include "gpu/core/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace geobem::bem::hierarchical {

void Box::include(Vec3 p) {
  low = {std::min(low.x, p.x), std::min(low.y, p.y), std::min(low.z, p.z)};
  high = {std::max(high.x, p.x), std::max(high.y, p.y), std::max(high.z, p.z)};
}

void Box::include(const Box& b) {
  include(b.low);
  include(b.high);
}

double Box::diameter() const {
  if (high.x < low.x) return -1.0;
  return norm(high - low);
}

double Box::distance(const Box& other) const {
  double squared = 0.0;
  for (int axis = 0; axis < 3; ++axis) {
    const double gap = std::max({0.0, other.low[axis] - high[axis], low[axis] - other.high[axis]});
    squared += gap * gap;
  }
  return std::sqrt(squared);
}

std::vector<int> ClusterTree::leaves() const {
  std::vector<int> out;
  std::vector<int> stack = {0};
  while (!stack.empty()) {  // depth first, left child first: tree order
    const int c = stack.back();
    stack.pop_back();
    if (clusters[c].leaf()) {
      out.push_back(c);
    } else {
      stack.push_back(clusters[c].first_child + 1);
      stack.push_back(clusters[c].first_child);
    }
  }
  return out;
}

ClusterTree build_cluster_tree(const std::vector<Vec3>& points, const std::vector<Box>& boxes, int leaf_size) {
  if (points.size() != boxes.size())
    throw InputError("cluster tree: " + std::to_string(points.size()) + " points but " +
                     std::to_string(boxes.size()) + " boxes");
  if (leaf_size < 1) throw InputError("cluster tree: leaf size " + std::to_string(leaf_size));
  ClusterTree tree;
  const int count = static_cast<int>(points.size());
  tree.order.resize(count);
  for (int i = 0; i < count; ++i) tree.order[i] = i;
  tree.clusters.push_back(Cluster{0, count, {}, -1, 0});
  // Breadth first: children are appended after their parent, in pairs.
  for (std::size_t c = 0; c < tree.clusters.size(); ++c) {
    Cluster cluster = tree.clusters[c];
    Box point_box;
    for (int k = cluster.begin; k < cluster.end; ++k) {
      cluster.box.include(boxes[tree.order[k]]);
      point_box.include(points[tree.order[k]]);
    }
    tree.clusters[c].box = cluster.box;
    if (cluster.size() <= leaf_size) continue;
    const Vec3 extent = point_box.high - point_box.low;
    const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : extent.y >= extent.z ? 1 : 2;
    if (!(extent[axis] > 0.0)) continue;  // coinciding points: no plane separates them
    const double middle = 0.5 * (point_box.low[axis] + point_box.high[axis]);
    // A stable partition keeps identical inputs in identical orders.
    const auto split = std::stable_partition(tree.order.begin() + cluster.begin, tree.order.begin() + cluster.end,
                                             [&](int item) { return points[item][axis] < middle; });
    const int half = static_cast<int>(split - tree.order.begin());
    // The box's ends are points of the cluster, so both sides hold one at least.
    tree.clusters[c].first_child = static_cast<int>(tree.clusters.size());
    tree.clusters.push_back(Cluster{cluster.begin, half, {}, -1, cluster.level + 1});
    tree.clusters.push_back(Cluster{half, cluster.end, {}, -1, cluster.level + 1});
  }
  tree.position.resize(count);
  for (int k = 0; k < count; ++k) tree.position[tree.order[k]] = k;
  return tree;
}

}  // namespace geobem::bem::hierarchical
