// The matvec of a compressed operator on the CPU: first Wᵀ x over every
// low-rank leaf, then each row leaf's rows from every leaf above it, so that
// each thread owns the rows it writes.
#include "gpu/bem/hierarchical/compressed_operator.hpp"

#include <vector>

namespace geobem::bem::hierarchical {

namespace {

/// y[rows] += M x[columns of the element cluster], M the column-major
/// `leading` × (3 × unknowns) block from its row `first_row`, `rows` rows.
void add_dense(const Complex* m, int leading, int first_row, int rows, const int* unknowns, int unknown_count,
               const Complex* x, Complex* y) {
  for (int u = 0; u < unknown_count; ++u)
    for (int j = 0; j < 3; ++j) {
      const Complex xj = x[3 * unknowns[u] + j];
      if (xj.re == 0.0 && xj.im == 0.0) continue;
      const Complex* column = m + static_cast<std::size_t>(3 * u + j) * leading + first_row;
      for (int i = 0; i < rows; ++i) y[i] += column[i] * xj;
    }
}

}  // namespace

void CompressedOperator::apply(const Complex* x, Complex* y) const {
  const HierarchicalLayout& l = *layout;
  const int admissible = static_cast<int>(l.admissible_blocks.size());
  // t_b = W_bᵀ x_σ for every low-rank leaf.
  std::vector<std::size_t> t_offset(admissible + 1, 0);
  for (int a = 0; a < admissible; ++a) t_offset[a + 1] = t_offset[a] + (form[a] == LeafForm::low_rank ? rank[a] : 0);
  std::vector<Complex> t(t_offset[admissible]);
  const bool parallel = size() >= parallel_from_unknowns;
#pragma omp parallel for schedule(dynamic, 8) if (parallel)
  for (int a = 0; a < admissible; ++a) {
    if (form[a] != LeafForm::low_rank) continue;
    const LayoutBlock& block = l.blocks[l.admissible_blocks[a]];
    const int* unknowns = l.cluster_unknowns(block.column_cluster);
    const Complex* w = factors.data() + factor_offset[a] + static_cast<std::size_t>(block.rows) * rank[a];
    for (int r = 0; r < rank[a]; ++r) {
      Complex sum;
      const Complex* column = w + static_cast<std::size_t>(r) * block.columns;
      for (int c = 0; c < block.columns; ++c) sum += column[c] * x[3 * unknowns[c / 3] + c % 3];
      t[t_offset[a] + r] = sum;
    }
  }
  const int leaves = static_cast<int>(l.row_leaves.size());
#pragma omp parallel for schedule(dynamic, 4) if (parallel)
  for (int k = 0; k < leaves; ++k) {
    const Cluster& leaf = l.rows.clusters[l.row_leaves[k]];
    Complex* y_leaf = y + 3 * leaf.begin;
    const int rows = 3 * leaf.size();
    for (int i = 0; i < rows; ++i) y_leaf[i] = Complex();
    for (int p = leaf.begin; p < leaf.end; ++p)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) y[3 * p + i] += diagonal[9 * p + 3 * i + j] * x[3 * p + j];
    for (int q = l.row_leaf_offset[k]; q < l.row_leaf_offset[k + 1]; ++q) {
      const int b = l.row_leaf_blocks[q];
      const LayoutBlock& block = l.blocks[b];
      const int first_row = 3 * (leaf.begin - l.rows.clusters[block.row_cluster].begin);
      const int* unknowns = l.cluster_unknowns(block.column_cluster);
      const int unknown_count = l.unknown_count[block.column_cluster];
      if (!block.admissible) {
        if (near_kept[block.slot])
          add_dense(near.data() + block.near_offset, block.rows, first_row, rows, unknowns, unknown_count, x, y_leaf);
        continue;
      }
      const int a = block.slot;
      if (form[a] == LeafForm::dense) {
        add_dense(factors.data() + factor_offset[a], block.rows, first_row, rows, unknowns, unknown_count, x, y_leaf);
      } else if (form[a] == LeafForm::low_rank) {
        const Complex* u = factors.data() + factor_offset[a];
        for (int r = 0; r < rank[a]; ++r) {
          const Complex tr = t[t_offset[a] + r];
          const Complex* column = u + static_cast<std::size_t>(r) * block.rows + first_row;
          for (int i = 0; i < rows; ++i) y_leaf[i] += column[i] * tr;
        }
      }
    }
  }
}

std::vector<Complex> CompressedOperator::expand() const {
  const HierarchicalLayout& l = *layout;
  const std::size_t n = size();
  std::vector<Complex> m(n * n);
  for (std::size_t p = 0; p < n / 3; ++p)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m[3 * p + i + (3 * p + j) * n] += diagonal[9 * p + 3 * i + j];
  for (const LayoutBlock& block : l.blocks) {
    const int first_row = 3 * l.rows.clusters[block.row_cluster].begin;
    const int* unknowns = l.cluster_unknowns(block.column_cluster);
    const Complex *dense = nullptr, *u = nullptr, *w = nullptr;
    int r = 0;
    if (!block.admissible) {
      if (!near_kept[block.slot]) continue;
      dense = near.data() + block.near_offset;
    } else if (form[block.slot] == LeafForm::dense) {
      dense = factors.data() + factor_offset[block.slot];
    } else if (form[block.slot] == LeafForm::low_rank) {
      r = rank[block.slot];
      u = factors.data() + factor_offset[block.slot];
      w = u + static_cast<std::size_t>(block.rows) * r;
    } else {
      continue;
    }
    for (int c = 0; c < block.columns; ++c) {
      Complex* column = m.data() + (3 * static_cast<std::size_t>(unknowns[c / 3]) + c % 3) * n + first_row;
      for (int i = 0; i < block.rows; ++i) {
        if (dense) {
          column[i] += dense[i + static_cast<std::size_t>(c) * block.rows];
        } else {
          for (int k = 0; k < r; ++k)
            column[i] += u[i + static_cast<std::size_t>(k) * block.rows] * w[c + static_cast<std::size_t>(k) * block.columns];
        }
      }
    }
  }
  return m;
}

}  // namespace geobem::bem::hierarchical
