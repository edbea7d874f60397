#pragma once
// The block tree of a row and a column cluster tree (Hackbusch 2015, §5.5):
// a block (τ, σ) is a leaf of low rank when it is admissible,
//   min(diam τ, diam σ) ≤ η · dist(τ, σ)
// (the boxes' diameters and distance, cluster_tree.hpp), a dense leaf when it
// is not and neither cluster has children, and is otherwise split into the
// blocks of the clusters' children (a leaf cluster stays whole while its
// partner splits). The leaves partition the matrix.
#include <vector>

#include "gpu/bem/hierarchical/cluster_tree.hpp"

namespace geobem::bem::hierarchical {

struct BlockLeaf {
  int row_cluster = 0, column_cluster = 0;
  bool admissible = false;
};

/// The leaves of the block tree of `rows` × `columns` under η = `eta` (> 0),
/// depth first. Throws InputError for η ≤ 0 or an empty tree.
std::vector<BlockLeaf> build_block_tree(const ClusterTree& rows, const ClusterTree& columns, double eta);

}  // namespace geobem::bem::hierarchical
