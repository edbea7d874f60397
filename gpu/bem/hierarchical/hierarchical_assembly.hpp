#pragma once
// One CQ frequency's compressed system (compressed_operator.hpp) and its
// right-hand sides, on the CPU:
//  1. each leaf whose element columns are bounded below the drop budget by
//     the damping is dropped (Solution::kernel_bounds at the leaf's
//     distance: ‖E_b‖_F² ≤ |τ| Σ_e A_e² (3 T² + 9 w² U²), since
//     |∫_e T* λ_b| ≤ A_e T/3 and |∫_e U*| ≤ A_e U), smallest bound first while
//     Σ (valence · bound²) stays within (ε/2 · ‖D‖_F)²;
//  2. the dense leaves through the dense path's pair kernel and scatter
//     (integrate_pair, scatter_pair), into their columns;
//  3. the admissible leaves by ACA on their element columns
//     (element_columns.hpp) to ε/2, summed into the unknowns' columns (G) and
//     the right-hand side, recompressed to ε/2, kept dense where the factors
//     would not be smaller (or ACA does not converge within that rank).
// OpenMP over leaves; sums in leaf order, so identical runs give identical
// values.
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/complex.hpp"
#include "gpu/bem/fundamental_solution_type.hpp"
#include "gpu/bem/hierarchical/compressed_operator.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"

namespace geobem::bem::hierarchical {

/// The free terms in tree order (CompressedOperator::diagonal: −S0 on the
/// free nodes' positions) and their Frobenius norm, the scale of the drop
/// budget. `sums`: rigid_body_sums_cpu's, 9 per free node.
struct FreeTerms {
  std::vector<Complex> diagonal;
  double norm = 0.0;
};
FreeTerms free_terms_in_tree_order(const BemModel& model, const HierarchicalLayout& layout,
                                   const std::vector<double>& sums);

/// The compressed system of `model` at Laplace parameter s to relative
/// Frobenius accuracy `tolerance` (the CompressionReport's estimate), and in
/// `rhs` the right-hand side of each load case (scaled system, tree order).
template <class Solution = ElastodynamicFullSpace>
CompressedOperator assemble_compressed_cpu(const BemModel& model, const HierarchicalLayout& layout,
                                           const FreeTerms& free_terms, Complex s, double tolerance,
                                           std::vector<std::vector<Complex>>& rhs);

}  // namespace geobem::bem::hierarchical
