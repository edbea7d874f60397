#pragma once
// What every CQ frequency's compressed operator shares, built once per mesh
// from geometry alone: the cluster tree of the collocation points (rows, and
// the unknowns, whose blocks share the collocation points' numbering), the
// cluster tree of the elements (columns), the block tree between them and,
// per element cluster, the unknowns its elements add to.
//
// The operator compressed is the element-wise one of the dense path
// (collocation_pair.hpp): for collocation point p and element e the pair's
// integrals K_eb (3 × 3 for each vertex b) and V_e (3 × 3), that is 12
// "element columns" per element, E(p, e) = [K_e0 K_e1 K_e2 w·V_e] with
// K_eb zero where vertex b is fixed and V_e zero unless e is fixed (its
// traction is unknown) or loaded (it makes the right-hand side). The system
// matrix is A = E·G + D: G sums the element columns into the unknowns'
// columns (a node's displacement column gathers the K_eb of the elements
// around it, a fixed element's traction column is −V_e), D holds the free
// terms (−S0). The unknown tractions are scaled by w = μ/h̄ (h̄ the mean
// longest edge), traction = w·(scaled unknown), so that every column of E and
// of the scaled system is of one size, m/m (docs/references.md#hierarchical-bem).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/hierarchical/hierarchical_settings.hpp"
#include "gpu/bem/hierarchical/block_tree.hpp"
#include "gpu/bem/hierarchical/cluster_tree.hpp"

namespace geobem::bem::hierarchical {

/// Element columns per element: 3 vertices × 3 components of K, then 3 of V.
constexpr int columns_per_element = 12;


/// One leaf of the block tree with what the assembly and the matvec need.
struct LayoutBlock {
  int row_cluster = 0, column_cluster = 0;
  bool admissible = false;
  int rows = 0;     ///< 3 per collocation point of the row cluster
  int columns = 0;  ///< 3 per unknown the column cluster's elements add to
  double distance = 0.0;             ///< between the row cluster's points and the elements' box (m)
  std::size_t near_offset = 0;       ///< a dense leaf's first value in the near field (column-major rows × columns)
  int slot = 0;                      ///< its index in near_blocks or admissible_blocks
};

/// The rank at which ACA gives up on an admissible leaf, which is then formed
/// dense: half the rank r = rows·columns/(rows + columns) where the factors
/// would hold as much as the block. ACA's arithmetic grows as r² (rows +
/// columns) and its pair integrals as r (points + elements), so past half that
/// rank the leaf is cheaper formed dense (its pair integrals once) than
/// compressed, for at most twice the factors' bytes. On the 31,644-triangle
/// cavity at its little-damped, oscillatory CQ frequencies (Im(s) a/c ≈ 30–60)
/// ACA failed on 3 leaves of 4 within the full rank and took 23 s of 24
/// (bench/RESULTS.md, "Hierarchical CQ-BEM").
inline int aca_rank_cap(const LayoutBlock& leaf) {
  return std::max(1, leaf.rows * leaf.columns / std::max(1, leaf.rows + leaf.columns) / 2);
}

struct HierarchicalLayout {
  ClusterTree rows;      ///< over unknown blocks (collocation points); tree positions number the scaled system
  ClusterTree elements;  ///< over elements
  std::vector<LayoutBlock> blocks;
  std::vector<int> admissible_blocks, near_blocks;  ///< indices into blocks
  std::size_t near_values = 0;                      ///< complex values of every dense leaf together
  double block_area = 0.0;                          ///< Σ rows·columns over every leaf
  /// Per element cluster used by a block: its unknowns' tree positions
  /// (sorted), unknowns[unknown_offset[c] …], and per element of the cluster
  /// (tree order) 4 local column blocks (vertices 0, 1, 2, the element's own
  /// traction; −1 for none), local_columns[4·(element_offset[c] + k) …].
  std::vector<int> unknown_offset, unknown_count, unknowns, element_offset, local_columns;
  /// Per element cluster used by a block: Σ area² of its elements (m⁴), for the drop bound.
  std::vector<double> area_squared;
  /// Per row leaf (ClusterTree::leaves() order): the blocks whose rows hold it.
  std::vector<int> row_leaves, row_leaf_offset, row_leaf_blocks;
  /// The preconditioner's diagonal clusters (a partition of the row tree's
  /// positions into clusters of at most the settings' preconditioner_size points).
  std::vector<int> preconditioner_clusters;
  double traction_scale = 1.0;  ///< w = μ/h̄ (Pa/m): traction = w·(scaled unknown)
  /// The largest number of elements around one free node: G's spectral norm
  /// is at most its square root (each element column goes to one unknown).
  int largest_valence = 1;

  /// Unknowns (tree positions) of element cluster c and their count.
  const int* cluster_unknowns(int c) const { return unknowns.data() + unknown_offset[c]; }
  /// Local column blocks of the k-th element (tree order) of element cluster c.
  const int* cluster_local_columns(int c, int k) const { return local_columns.data() + 4 * (element_offset[c] + k); }
  /// Bytes of the near field of one frequency (every dense leaf kept).
  std::uint64_t near_field_bytes() const { return 16ull * near_values; }
};

/// w = μ/h̄ (Pa/m), h̄ the mean longest edge of the elements: the unknown
/// tractions of the scaled system are tractions over w.
double traction_scale(const BemModel& model);

/// The layout of `model` under `settings` (η, leaf sizes, preconditioner
/// block size; the defaults, HierarchicalSettings in cq_solver.hpp: leaves of
/// 24 collocation points, 72 rows, and 48 elements, about as many nodes'
/// columns with their rim; preconditioner blocks of 64 points, 192 unknowns,
/// whose LU costs 9.4 MFLOP). Throws InputError for a model
/// without collocation points or elements, or a setting below 1 (η ≤ 0).
HierarchicalLayout make_hierarchical_layout(const BemModel& model, const HierarchicalSettings& settings);

}  // namespace geobem::bem::hierarchical
