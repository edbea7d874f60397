#pragma once
// Cluster trees by geometric bisection (Hackbusch 2015, "Hierarchical
// Matrices: Algorithms and Analysis", §5.4; Börm, Grasedyck & Hackbusch 2003,
// §2): a cluster's items are split in two by the plane through the middle of
// the longest side of their points' bounding box, until a cluster holds at
// most `leaf_size` items. The items are renumbered so that every cluster is a
// range of consecutive tree positions. A cluster's box holds its items' boxes
// (a collocation point, or a triangle), which is what the admissibility
// condition (block_tree.hpp) measures.
#include <vector>

#include "gpu/bem/vec3.hpp"
#include "gpu/core/host_device.hpp"

namespace geobem::bem::hierarchical {

/// Axis-aligned box (m).
struct Box {
  Vec3 low{1e300, 1e300, 1e300}, high{-1e300, -1e300, -1e300};
  void include(Vec3 p);
  void include(const Box& b);
  /// Length of the diagonal (m); 0 for a point, negative for an empty box.
  double diameter() const;
  /// Euclidean distance between the boxes (m), 0 when they touch or overlap.
  double distance(const Box& other) const;
};

/// One cluster: tree positions [begin, end), its box, its children (two
/// consecutive clusters from first_child, or −1 for a leaf) and its depth.
struct Cluster {
  int begin = 0, end = 0;
  Box box;
  int first_child = -1, level = 0;
  GEOBEM_HD int size() const { return end - begin; }
  GEOBEM_HD bool leaf() const { return first_child < 0; }
};

/// A cluster tree over items 0…count−1: order[position] is the item at a
/// tree position, position[item] its position; clusters[0] is the root.
struct ClusterTree {
  std::vector<int> order, position;
  std::vector<Cluster> clusters;
  /// The leaves, in tree order (their ranges partition the positions).
  std::vector<int> leaves() const;
};

/// The tree of items with split points `points` (one per item) and boxes
/// `boxes` (one per item, each holding its point), leaves of at most
/// `leaf_size` items (a cluster whose points coincide stays a leaf). Throws
/// InputError for mismatched sizes or leaf_size < 1.
ClusterTree build_cluster_tree(const std::vector<Vec3>& points, const std::vector<Box>& boxes, int leaf_size);

}  // namespace geobem::bem::hierarchical
