#pragma once
// How a frequency's tolerance ε is spent (hierarchical_assembly.hpp): half on
// the leaves the damping drops, half on the admissible leaves' compression,
// both against ‖D‖_F, the free terms' norm, which the compressed system's
// norm exceeds. Host; the CPU and CUDA assemblies share it.
//  - Drops: a leaf's element columns are bounded through the fundamental
//    solution's kernel_bounds at the leaf's distance,
//    ‖E_b‖_F² ≤ |τ| Σ_{e∈σ} A_e² (3 T² + 9 w² U²)
//    (|∫_e T* λ_b| ≤ A_e T/3, |∫_e U*| ≤ A_e U), and G adds at most the
//    largest valence: leaves are dropped smallest bound first while
//    Σ valence·bound² ≤ (ε/2 ‖D‖_F)².
//  - Compression: each admissible leaf gets ε/2 ‖D‖_F (rows·columns /
//    Σ rows·columns)^{1/2}, so that the shares add up (in squares) to the half.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/complex.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"

namespace geobem::bem::hierarchical {

/// Bound on ‖E_b‖_F of `leaf` at s (infinite where its clusters touch).
template <class Solution>
double leaf_bound(const BemModel& model, const HierarchicalLayout& layout, const LayoutBlock& leaf, Complex s) {
  if (!(leaf.distance > 0.0)) return HUGE_VAL;
  double u = 0.0, t = 0.0;
  Solution::kernel_bounds(leaf.distance, s, model.material, u, t);
  const double w = layout.traction_scale;
  const double points = leaf.rows / 3;
  return std::sqrt(points * layout.area_squared[leaf.column_cluster] * (3.0 * t * t + 9.0 * w * w * u * u));
}

/// The leaves (layout.blocks order) the damping drops at s, and their part of
/// the error, Σ valence·bound², within (ε/2 · free_term_norm)².
struct DroppedLeaves {
  std::vector<char> dropped;
  double error_squared = 0.0;
};

template <class Solution>
DroppedLeaves dropped_leaves(const BemModel& model, const HierarchicalLayout& layout, Complex s, double tolerance,
                             double free_term_norm) {
  const int blocks = static_cast<int>(layout.blocks.size());
  std::vector<double> bound(blocks);
  for (int b = 0; b < blocks; ++b) bound[b] = leaf_bound<Solution>(model, layout, layout.blocks[b], s);
  std::vector<int> by_bound(blocks);
  std::iota(by_bound.begin(), by_bound.end(), 0);
  std::stable_sort(by_bound.begin(), by_bound.end(), [&](int a, int b) { return bound[a] < bound[b]; });
  DroppedLeaves out;
  out.dropped.assign(blocks, 0);
  const double budget = 0.25 * tolerance * tolerance * free_term_norm * free_term_norm;
  for (int b : by_bound) {
    const double add = layout.largest_valence * bound[b] * bound[b];
    if (!(out.error_squared + add <= budget)) break;
    out.error_squared += add;
    out.dropped[b] = 1;
  }
  return out;
}

/// An admissible leaf's share of the compression error (absolute, Frobenius).
inline double leaf_error_share(const HierarchicalLayout& layout, const LayoutBlock& leaf, double tolerance,
                               double free_term_norm) {
  return 0.5 * tolerance * free_term_norm * std::sqrt(double(leaf.rows) * leaf.columns / layout.block_area);
}

}  // namespace geobem::bem::hierarchical
