#pragma once
// What the tests and benchmarks of the hierarchical CQ-BEM share: the dense
// path's matrix in the compressed operator's form (tree order, tractions
// scaled, gpu/bem/hierarchical/hierarchical_layout.hpp), and the relative
// differences they measure (tests/support/relative_l2.hpp for series).
#include <cmath>
#include <cstddef>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/compressed_operator.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"
#include "gpu/bem/hierarchical/hierarchical_settings.hpp"
#include "tests/support/relative_l2.hpp"

namespace geobem::test {

/// Leaves of 6 collocation points and 12 elements: admissible blocks on meshes of a few hundred triangles.
inline bem::HierarchicalSettings small_leaves(double tolerance) {
  bem::HierarchicalSettings settings;
  settings.tolerance = tolerance;
  settings.row_leaf_size = 6;
  settings.element_leaf_size = 12;
  settings.preconditioner_size = 24;
  return settings;
}

/// ‖Â − A‖_F / ‖A‖_F of the compressed operator `op` against the dense
/// path's column-major `matrix` of `model` (assemble_system_cpu's).
inline double relative_operator_error(const bem::BemModel& model, const bem::hierarchical::CompressedOperator& op,
                                      const std::vector<bem::Complex>& matrix) {
  const bem::hierarchical::HierarchicalLayout& layout = *op.layout;
  const std::size_t n = model.unknown_count();
  const std::vector<bem::Complex> compressed = op.expand();
  const int free = static_cast<int>(model.free_nodes.size());
  double difference = 0.0, reference = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    const int block_j = layout.rows.order[j / 3];
    const double scale = block_j < free ? 1.0 : layout.traction_scale;
    for (std::size_t i = 0; i < n; ++i) {
      const bem::Complex a = scale * matrix[3 * layout.rows.order[i / 3] + i % 3 + (3 * block_j + j % 3) * n];
      const bem::Complex d = a - compressed[i + j * n];
      difference += d.re * d.re + d.im * d.im;
      reference += a.re * a.re + a.im * a.im;
    }
  }
  return std::sqrt(difference / reference);
}

/// ‖a − reference‖ / ‖reference‖ of case `c`, frequency k of two
/// Laplace-domain solutions of `model`, in the scaled unknowns (tractions over
/// w = μ/h̄, hierarchical_layout.hpp), where both kinds are lengths: the norm
/// in which the system's condition bounds the difference. A kind alone can be
/// near zero (a fixed end the damped wave does not reach at a high CQ
/// frequency), and relative to itself differ by far more.
inline double relative_solution_difference(const bem::BemModel& model, const bem::LaplaceSolution& a,
                                           const bem::LaplaceSolution& reference, int c, int k) {
  const double w = bem::hierarchical::traction_scale(model);
  const int displacements = 3 * static_cast<int>(model.free_nodes.size());
  double difference = 0.0, norm = 0.0;
  for (int i = 0; i < reference.unknowns; ++i) {
    const double scale = i < displacements ? 1.0 : 1.0 / w;
    const bem::Complex d = scale * (a.at(c, k, i) - reference.at(c, k, i)), r = scale * reference.at(c, k, i);
    difference += d.re * d.re + d.im * d.im;
    norm += r.re * r.re + r.im * r.im;
  }
  return std::sqrt(difference / norm);
}

}  // namespace geobem::test
