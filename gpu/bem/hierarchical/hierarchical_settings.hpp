#pragma once
// What the hierarchical path of the CQ-BEM (gpu/bem/hierarchical/) is asked
// for: its accuracy and the sizes its trees are built with.

namespace geobem::bem {

/// The relative accuracy asked of the compressed operator and of GMRES's
/// residual when none is given (--compression-tolerance): each frequency's x̂
/// then differs from the dense path's by about this much times the system's
/// condition, which the inverse CQ transform amplifies by up to
/// R^{−N} = ε^{−1/2} (1e5 at the default ε) in the time series. 1e-8 keeps
/// the time series within 1e-5 of the dense path's on the cavity and the rod
/// (bench/RESULTS.md, "Hierarchical CQ-BEM"), far inside the CQ's own error.
constexpr double default_compression_tolerance = 1e-8;

/// The hierarchical path's settings (the tolerance: hierarchical_assembly.hpp;
/// the rest: hierarchical_layout.hpp).
struct HierarchicalSettings {
  double tolerance = default_compression_tolerance;  ///< in (0, 0.1]
  double eta = 1.0;                                   ///< admissibility η (block_tree.hpp)
  int row_leaf_size = 24;                             ///< collocation points per leaf of the row tree
  int element_leaf_size = 48;                         ///< elements per leaf of the column tree
  int preconditioner_size = 64;                       ///< collocation points per preconditioner block
};

}  // namespace geobem::bem
