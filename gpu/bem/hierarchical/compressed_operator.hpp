#pragma once
// One CQ frequency's system in hierarchical form, in the scaled unknowns of
// hierarchical_layout.hpp and the row tree's order (unknown block at tree
// position k holds scaled unknowns 3k … 3k + 2): the dense leaves (the near
// field), the admissible leaves as low-rank factors U·Wᵀ (U over the row
// cluster's 3|τ| rows, W over the 3 columns of each unknown the column
// cluster's elements add to) or, where that would not be smaller, dense, the
// free terms D, and which leaves the frequency's damping dropped. Flat
// arrays, so that the same layout serves the host and the device.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu/bem/complex.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"

namespace geobem::bem::hierarchical {

/// Below this many unknowns the matvec, the preconditioner and GMRES's BLAS
/// run on one thread: a call is then tens of microseconds of work, less than
/// what threads' barriers cost on a loaded machine (measured on the 2 shared
/// cores: 171 unknowns took 30 ms a GMRES step on 2 threads).
constexpr int parallel_from_unknowns = 3000;

/// How an admissible leaf is stored at one frequency.
enum class LeafForm : int { dropped = 0, low_rank = 1, dense = 2 };

/// What one frequency's compression did: the estimate of ‖Â − A‖_F / ‖A‖_F
/// (each leaf's ACA estimate and truncation, each dropped leaf's bound, the
/// element columns' errors carried through G) and what was kept.
struct CompressionReport {
  double error_estimate = 0.0;
  double norm_estimate = 0.0;       ///< of the compressed system, ‖Â‖_F
  /// Bytes stored: the dense leaves kept, the admissible leaves' low-rank
  /// factors, the admissible leaves formed dense.
  std::uint64_t near_bytes = 0, low_rank_bytes = 0, dense_admissible_bytes = 0;
  int dropped_blocks = 0, low_rank_blocks = 0, dense_admissible_blocks = 0, largest_rank = 0;
  double mean_rank = 0.0;
  /// Pair integrals evaluated (not decayed): the near field's and ACA's rows
  /// and columns (the CPU path counts them; the work the floor counts).
  std::uint64_t near_pairs = 0, aca_pairs = 0;
};

struct CompressedOperator {
  const HierarchicalLayout* layout = nullptr;
  std::vector<Complex> near;        ///< layout->near_values; a dropped leaf's values are zero
  std::vector<char> near_kept;      ///< per dense leaf (layout->near_blocks order)
  std::vector<LeafForm> form;       ///< per admissible leaf (layout->admissible_blocks order)
  std::vector<int> rank;            ///< its rank (low_rank)
  std::vector<std::size_t> factor_offset;  ///< U (rows × rank) then W (columns × rank), or the dense rows × columns
  std::vector<Complex> factors;
  std::vector<Complex> diagonal;    ///< 9 per tree position ([i][j] row-major): the free term block, zero on fixed elements
  CompressionReport report;

  /// Unknowns of the system (3 per tree position).
  int size() const { return 3 * static_cast<int>(layout->rows.order.size()); }
  /// y = Â x for the scaled unknowns in tree order (size() values each). OpenMP over row leaves.
  void apply(const Complex* x, Complex* y) const;
  /// Â as a dense column-major size() × size() matrix (tree order, scaled
  /// unknowns): what tests and benchmarks compare with the dense path.
  std::vector<Complex> expand() const;
};

}  // namespace geobem::bem::hierarchical
