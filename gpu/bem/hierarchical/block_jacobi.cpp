#include "gpu/bem/hierarchical/block_jacobi.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

extern "C" {
void zgetrf_(const int* m, const int* n, void* a, const int* lda, int* ipiv, int* info);
void zgetrs_(const char* trans, const int* n, const int* nrhs, const void* a, const int* lda, const int* ipiv, void* b,
             const int* ldb, int* info, std::size_t trans_length);
}

namespace geobem::bem::hierarchical {

std::uint64_t BlockJacobi::planned_bytes(const HierarchicalLayout& layout) {
  std::uint64_t bytes = 0;
  for (int c : layout.preconditioner_clusters) {
    const std::uint64_t d = 3ull * layout.rows.clusters[c].size();
    bytes += 16 * d * d + 4 * d;
  }
  return bytes;
}

BlockJacobi::BlockJacobi(const CompressedOperator& op) : layout_(op.layout) {
  const HierarchicalLayout& l = *layout_;
  const int clusters = static_cast<int>(l.preconditioner_clusters.size());
  offset_.resize(clusters + 1, 0);
  for (int k = 0; k < clusters; ++k) {
    const std::size_t d = 3 * l.rows.clusters[l.preconditioner_clusters[k]].size();
    offset_[k + 1] = offset_[k] + d * d;
  }
  factors_.assign(offset_[clusters], Complex());
  pivots_.assign(3 * l.rows.order.size(), 0);
  // Row leaves of each cluster (the cut lies at or above the leaves).
  std::vector<std::vector<int>> leaves_of(clusters);
  for (std::size_t k = 0; k < l.row_leaves.size(); ++k) {
    const Cluster& leaf = l.rows.clusters[l.row_leaves[k]];
    for (int c = 0; c < clusters; ++c) {
      const Cluster& pi = l.rows.clusters[l.preconditioner_clusters[c]];
      if (leaf.begin >= pi.begin && leaf.end <= pi.end) {
        leaves_of[c].push_back(static_cast<int>(k));
        break;
      }
    }
  }
  std::vector<int> failures(clusters, 0);
#pragma omp parallel for schedule(dynamic, 1)
  for (int c = 0; c < clusters; ++c) {
    const Cluster& pi = l.rows.clusters[l.preconditioner_clusters[c]];
    const int d = 3 * pi.size();
    Complex* block = factors_.data() + offset_[c];
    for (const int k : leaves_of[c]) {
      const Cluster& leaf = l.rows.clusters[l.row_leaves[k]];
      const int leaf_row = 3 * (leaf.begin - pi.begin), rows = 3 * leaf.size();
      for (int q = l.row_leaf_offset[k]; q < l.row_leaf_offset[k + 1]; ++q) {
        const LayoutBlock& leaf_block = l.blocks[l.row_leaf_blocks[q]];
        const int first_row = 3 * (leaf.begin - l.rows.clusters[leaf_block.row_cluster].begin);
        const int* unknowns = l.cluster_unknowns(leaf_block.column_cluster);
        const int count = l.unknown_count[leaf_block.column_cluster];
        const int from = static_cast<int>(std::lower_bound(unknowns, unknowns + count, pi.begin) - unknowns);
        const int to = static_cast<int>(std::lower_bound(unknowns, unknowns + count, pi.end) - unknowns);
        if (from == to) continue;
        const Complex* dense = nullptr;
        const Complex *u = nullptr, *w = nullptr;
        int rank = 0;
        if (!leaf_block.admissible) {
          if (!op.near_kept[leaf_block.slot]) continue;
          dense = op.near.data() + leaf_block.near_offset;
        } else if (op.form[leaf_block.slot] == LeafForm::dense) {
          dense = op.factors.data() + op.factor_offset[leaf_block.slot];
        } else if (op.form[leaf_block.slot] == LeafForm::low_rank) {
          rank = op.rank[leaf_block.slot];
          u = op.factors.data() + op.factor_offset[leaf_block.slot];
          w = u + static_cast<std::size_t>(leaf_block.rows) * rank;
        } else {
          continue;
        }
        for (int local = from; local < to; ++local)
          for (int j = 0; j < 3; ++j) {
            const int column = 3 * local + j, target = 3 * (unknowns[local] - pi.begin) + j;
            Complex* out = block + static_cast<std::size_t>(target) * d + leaf_row;
            if (dense) {
              const Complex* in = dense + static_cast<std::size_t>(column) * leaf_block.rows + first_row;
              for (int i = 0; i < rows; ++i) out[i] += in[i];
            } else {
              for (int r = 0; r < rank; ++r) {
                const Complex wr = w[column + static_cast<std::size_t>(r) * leaf_block.columns];
                const Complex* in = u + static_cast<std::size_t>(r) * leaf_block.rows + first_row;
                for (int i = 0; i < rows; ++i) out[i] += in[i] * wr;
              }
            }
          }
      }
    }
    for (int p = pi.begin; p < pi.end; ++p)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          block[3 * (p - pi.begin) + i + static_cast<std::size_t>(3 * (p - pi.begin) + j) * d] +=
              op.diagonal[9 * p + 3 * i + j];
    int info = 0;
    zgetrf_(&d, &d, block, &d, pivots_.data() + 3 * pi.begin, &info);
    failures[c] = info;
  }
  for (int c = 0; c < clusters; ++c)
    if (failures[c] != 0)
      throw std::runtime_error("hierarchical preconditioner: the diagonal block of positions " +
                               std::to_string(l.rows.clusters[l.preconditioner_clusters[c]].begin) + "-" +
                               std::to_string(l.rows.clusters[l.preconditioner_clusters[c]].end - 1) +
                               " is singular (LAPACK zgetrf info " + std::to_string(failures[c]) + ")");
}

void BlockJacobi::apply(const Complex* x, Complex* y) const {
  const HierarchicalLayout& l = *layout_;
  const int clusters = static_cast<int>(l.preconditioner_clusters.size());
#pragma omp parallel for schedule(dynamic, 4) if (3 * l.rows.order.size() >= parallel_from_unknowns)
  for (int c = 0; c < clusters; ++c) {
    const Cluster& pi = l.rows.clusters[l.preconditioner_clusters[c]];
    const int d = 3 * pi.size(), one = 1;
    std::copy(x + 3 * pi.begin, x + 3 * pi.end, y + 3 * pi.begin);
    int info = 0;
    zgetrs_("N", &d, &one, factors_.data() + offset_[c], &d, pivots_.data() + 3 * pi.begin, y + 3 * pi.begin, &d,
            &info, 1);
  }
}

}  // namespace geobem::bem::hierarchical
