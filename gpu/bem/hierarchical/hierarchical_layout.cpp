#include "gpu/bem/hierarchical/hierarchical_layout.hpp"
#include "gpu/core/input_error.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace geobem::bem::hierarchical {

namespace {

/// The unknown blocks element e adds to: its free vertices' displacements
/// and, for a fixed element, its own traction (−1 where none).
void element_unknowns(const BemModel& model, int e, int out[4]) {
  for (int b = 0; b < 3; ++b) out[b] = model.node_block[model.triangles[3 * e + b]];
  out[3] = model.element_block[e];
}

/// The clusters of `tree` at or below `cluster` that are the first of at most `size` points.
void collect_cut(const ClusterTree& tree, int cluster, int size, std::vector<int>& out) {
  const Cluster& c = tree.clusters[cluster];
  if (c.size() <= size || c.leaf()) {
    out.push_back(cluster);
    return;
  }
  collect_cut(tree, c.first_child, size, out);
  collect_cut(tree, c.first_child + 1, size, out);
}

/// The unknowns of every element cluster that a leaf uses, in tree positions,
/// with each element's local columns among them and the cluster's Σ area².
void add_cluster_unknowns(const BemModel& model, const std::vector<BlockLeaf>& leaves, HierarchicalLayout& layout) {
  const int element_clusters = static_cast<int>(layout.elements.clusters.size());
  layout.unknown_offset.assign(element_clusters, -1);
  layout.unknown_count.assign(element_clusters, 0);
  layout.element_offset.assign(element_clusters, -1);
  layout.area_squared.assign(element_clusters, 0.0);
  for (const BlockLeaf& leaf : leaves) {
    const int c = leaf.column_cluster;
    if (layout.unknown_offset[c] >= 0) continue;
    const Cluster& cluster = layout.elements.clusters[c];
    std::vector<int> list;
    for (int k = cluster.begin; k < cluster.end; ++k) {
      const int e = layout.elements.order[k];
      int unknown[4];
      element_unknowns(model, e, unknown);
      for (int u : unknown)
        if (u >= 0) list.push_back(layout.rows.position[u]);
      layout.area_squared[c] += model.areas[e] * model.areas[e];
    }
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    layout.unknown_offset[c] = static_cast<int>(layout.unknowns.size());
    layout.unknown_count[c] = static_cast<int>(list.size());
    layout.unknowns.insert(layout.unknowns.end(), list.begin(), list.end());
    layout.element_offset[c] = static_cast<int>(layout.local_columns.size() / 4);
    for (int k = cluster.begin; k < cluster.end; ++k) {
      int unknown[4];
      element_unknowns(model, layout.elements.order[k], unknown);
      for (int u : unknown)
        layout.local_columns.push_back(
            u < 0 ? -1
                  : static_cast<int>(std::lower_bound(list.begin(), list.end(), layout.rows.position[u]) -
                                     list.begin()));
    }
  }
}

/// The leaves as LayoutBlocks: their sizes, distances, and slots among the
/// dense leaves (with their near-field offsets) or the admissible ones.
void add_blocks(const BemModel& model, const std::vector<BlockLeaf>& leaves, HierarchicalLayout& layout) {
  for (const BlockLeaf& leaf : leaves) {
    LayoutBlock block;
    block.row_cluster = leaf.row_cluster;
    block.column_cluster = leaf.column_cluster;
    block.admissible = leaf.admissible;
    const Cluster& tau = layout.rows.clusters[leaf.row_cluster];
    block.rows = 3 * tau.size();
    block.columns = 3 * layout.unknown_count[leaf.column_cluster];
    Box points;
    for (int k = tau.begin; k < tau.end; ++k) points.include(model.collocation_points[layout.rows.order[k]]);
    block.distance = points.distance(layout.elements.clusters[leaf.column_cluster].box);
    layout.block_area += double(block.rows) * block.columns;
    if (!block.admissible) {
      block.near_offset = layout.near_values;
      block.slot = static_cast<int>(layout.near_blocks.size());
      layout.near_values += static_cast<std::size_t>(block.rows) * block.columns;
      layout.near_blocks.push_back(static_cast<int>(layout.blocks.size()));
    } else {
      block.slot = static_cast<int>(layout.admissible_blocks.size());
      layout.admissible_blocks.push_back(static_cast<int>(layout.blocks.size()));
    }
    layout.blocks.push_back(block);
  }
}

/// The row leaves and, per row leaf, the blocks over it (a block's row
/// cluster holds the leaf).
void add_row_leaf_blocks(HierarchicalLayout& layout) {
  layout.row_leaves = layout.rows.leaves();
  std::vector<int> leaf_index(layout.rows.clusters.size(), -1);
  for (std::size_t k = 0; k < layout.row_leaves.size(); ++k) leaf_index[layout.row_leaves[k]] = static_cast<int>(k);
  std::vector<std::vector<int>> over(layout.row_leaves.size());
  for (std::size_t b = 0; b < layout.blocks.size(); ++b) {
    std::vector<int> stack = {layout.blocks[b].row_cluster};
    while (!stack.empty()) {
      const int c = stack.back();
      stack.pop_back();
      const Cluster& cluster = layout.rows.clusters[c];
      if (cluster.leaf()) {
        over[leaf_index[c]].push_back(static_cast<int>(b));
      } else {
        stack.push_back(cluster.first_child);
        stack.push_back(cluster.first_child + 1);
      }
    }
  }
  for (const auto& list : over) {
    layout.row_leaf_offset.push_back(static_cast<int>(layout.row_leaf_blocks.size()));
    layout.row_leaf_blocks.insert(layout.row_leaf_blocks.end(), list.begin(), list.end());
  }
  layout.row_leaf_offset.push_back(static_cast<int>(layout.row_leaf_blocks.size()));
}

/// The most elements that meet at a free node (1 at least).
int largest_valence(const BemModel& model) {
  std::vector<int> valence(model.nodes.size(), 0);
  int largest = 1;
  for (std::size_t e = 0; e < model.areas.size(); ++e)
    for (int b = 0; b < 3; ++b) ++valence[model.triangles[3 * e + b]];
  for (std::size_t n = 0; n < valence.size(); ++n)
    if (model.node_block[n] >= 0) largest = std::max(largest, valence[n]);
  return largest;
}

}  // namespace

double traction_scale(const BemModel& model) {
  double mean_edge = 0.0;
  for (double edge : model.longest_edges) mean_edge += edge / model.longest_edges.size();
  return model.material.shear_modulus / mean_edge;
}

HierarchicalLayout make_hierarchical_layout(const BemModel& model, const HierarchicalSettings& settings) {
  const int blocks = static_cast<int>(model.collocation_points.size());
  const int element_count = static_cast<int>(model.areas.size());
  if (blocks == 0 || element_count == 0)
    throw InputError("hierarchical layout: the model has " + std::to_string(blocks) +
                     " collocation points and " + std::to_string(element_count) + " elements");
  if (settings.row_leaf_size < 1 || settings.element_leaf_size < 1 || settings.preconditioner_size < 1)
    throw InputError("hierarchical layout: leaf sizes " + std::to_string(settings.row_leaf_size) + ", " +
                     std::to_string(settings.element_leaf_size) + " and preconditioner block " +
                     std::to_string(settings.preconditioner_size) + " must be at least 1");
  HierarchicalLayout layout;
  std::vector<Box> point_boxes(blocks), element_boxes(element_count);
  for (int b = 0; b < blocks; ++b) point_boxes[b].include(model.collocation_points[b]);
  for (int e = 0; e < element_count; ++e)
    for (int k = 0; k < 3; ++k) element_boxes[e].include(model.nodes[model.triangles[3 * e + k]]);
  layout.traction_scale = traction_scale(model);
  layout.rows = build_cluster_tree(model.collocation_points, point_boxes, settings.row_leaf_size);
  layout.elements = build_cluster_tree(model.centroids, element_boxes, settings.element_leaf_size);
  const std::vector<BlockLeaf> leaves = build_block_tree(layout.rows, layout.elements, settings.eta);

  add_cluster_unknowns(model, leaves, layout);
  add_blocks(model, leaves, layout);
  add_row_leaf_blocks(layout);
  collect_cut(layout.rows, 0, settings.preconditioner_size, layout.preconditioner_clusters);
  layout.largest_valence = largest_valence(model);
  return layout;
}

}  // namespace geobem::bem::hierarchical
