#pragma once
// One CQ frequency's compressed system (compressed_operator.hpp) and its
// right-hand sides, on the CPU:
//  1. the leaves the damping drops (error_budget.hpp: each leaf's element
//     columns bounded through Solution::kernel_bounds, within half of ε);
//  2. the dense leaves through the dense path's pair kernel and scatter
//     (integrate_pair, scatter_pair), into their columns;
//  3. the admissible leaves by ACA on their element columns
//     (element_columns.hpp) to their share of the other half, summed into the
//     unknowns' columns (G) and the right-hand side, recompressed, kept dense
//     where ACA does not converge within aca_rank_cap (half the rank at which
//     the factors would hold as much as the block).
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

/// The same on the GPU for several Laplace points at once (the CUDA path's
/// batch, hierarchical_solver_cuda.cu), copied back: rhs[f][c] is point f's
/// right-hand side of case c. The GPU tests compare it with the CPU's.
template <class Solution = ElastodynamicFullSpace>
std::vector<CompressedOperator> assemble_compressed_cuda(const BemModel& model, const HierarchicalLayout& layout,
                                                         const FreeTerms& free_terms, const std::vector<Complex>& s,
                                                         double tolerance,
                                                         std::vector<std::vector<std::vector<Complex>>>& rhs);

}  // namespace geobem::bem::hierarchical
