#pragma once
// The GMRES preconditioner: block Jacobi on the diagonal blocks Â(π, π) of
// the row tree's clusters of at most HierarchicalSettings::preconditioner_size
// points (hierarchical_layout.hpp), each formed from the compressed operator
// (dense leaves, low-rank products, free terms) and factorised by LU with
// partial pivoting (LAPACK zgetrf from OpenBLAS). The near field holds
// the singular and nearly singular pairs, the largest entries of a
// collocation row, so these blocks hold most of each row's weight.
#include <cstdint>
#include <vector>

#include "gpu/bem/complex.hpp"
#include "gpu/bem/hierarchical/compressed_operator.hpp"

namespace geobem::bem::hierarchical {

class BlockJacobi {
 public:
  /// Forms and factorises the diagonal blocks of `op`. Throws
  /// std::runtime_error naming the cluster and zgetrf's info for a singular block.
  explicit BlockJacobi(const CompressedOperator& op);
  /// y = M⁻¹ x (tree order); OpenMP over the blocks.
  void apply(const Complex* x, Complex* y) const;
  /// Bytes of the factors and pivots.
  std::uint64_t bytes() const { return 16ull * factors_.size() + 4ull * pivots_.size(); }
  /// Bytes the preconditioner of `layout` takes (its factors and pivots), for the memory plan.
  static std::uint64_t planned_bytes(const HierarchicalLayout& layout);

 private:
  const HierarchicalLayout* layout_;
  std::vector<std::size_t> offset_;  ///< per cluster: first value of its factors
  std::vector<Complex> factors_;
  std::vector<int> pivots_;
};

}  // namespace geobem::bem::hierarchical
