#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gpu/bem/hierarchical/aca.hpp"
#include "gpu/bem/hierarchical/element_columns.hpp"
#include "gpu/bem/hierarchical/error_budget.hpp"
#include "gpu/bem/hierarchical/hierarchical_assembly.hpp"
#include "gpu/bem/hierarchical/low_rank.hpp"

namespace geobem::bem::hierarchical {

namespace {

/// Adds pair (p, e)'s integrals into a dense leaf (scatter_pair's Adder): the
/// rows of p in the leaf, the element's unknowns' local columns, a fixed
/// element's traction column scaled by w, its right-hand side per case.
struct LeafAdder {
  Complex* block;        ///< column-major, `leading` rows
  Complex* rhs_values;   ///< leading × cases
  int leading = 0, row_base = 0;
  int global[4] = {-1, -1, -1, -1}, local[4] = {-1, -1, -1, -1};
  double traction_scale = 1.0;
  void matrix(int row, int column, Complex value) {
    for (int k = 0; k < 4; ++k)
      if (global[k] == column / 3) {
        block[(row - row_base) + static_cast<std::size_t>(3 * local[k] + column % 3) * leading] +=
            k == 3 ? traction_scale * value : value;
        return;
      }
  }
  void rhs(int row, int load_case, Complex value) {
    rhs_values[(row - row_base) + static_cast<std::size_t>(load_case) * leading] += value;
  }
};

/// The pair integrals of a dense leaf (or an admissible one kept dense) into
/// `block` (rows × columns, zeroed here) and `rhs` (rows × cases).
template <class Solution>
std::uint64_t assemble_dense_leaf(const ModelView& mv, const HierarchicalLayout& layout, const LayoutBlock& leaf,
                                  Complex s, const QuadratureTable& table, Complex* block, Complex* rhs) {
  std::fill(block, block + static_cast<std::size_t>(leaf.rows) * leaf.columns, Complex());
  std::fill(rhs, rhs + static_cast<std::size_t>(leaf.rows) * mv.load_case_count, Complex());
  const Cluster& tau = layout.rows.clusters[leaf.row_cluster];
  const Cluster& sigma = layout.elements.clusters[leaf.column_cluster];
  LeafAdder adder{block, rhs, leaf.rows};
  adder.traction_scale = layout.traction_scale;
  std::uint64_t pairs = 0;
  for (int k = tau.begin; k < tau.end; ++k) {
    const int p = layout.rows.order[k];
    adder.row_base = 3 * p - 3 * (k - tau.begin);
    for (int j = sigma.begin; j < sigma.end; ++j) {
      const int e = layout.elements.order[j];
      DynamicIntegrand<Solution> integrand;
      if (!integrate_pair(mv, p, e, s, table, integrand)) continue;
      ++pairs;
      const int* local = layout.cluster_local_columns(leaf.column_cluster, j - sigma.begin);
      for (int b = 0; b < 3; ++b) adder.global[b] = mv.node_block[mv.triangles[3 * e + b]];
      adder.global[3] = mv.element_block[e];
      std::copy(local, local + 4, adder.local);
      scatter_pair(mv, p, e, integrand, adder);
    }
  }
  return pairs;
}

/// An admissible leaf's element columns, by collocation point (3 rows) and element (12 columns).
template <class Solution>
struct LeafColumns {
  const ModelView& mv;
  const HierarchicalLayout& layout;
  const Cluster &tau, &sigma;
  Complex s;
  const QuadratureTable& table;
  std::uint64_t* pairs;  ///< counts the pair integrals of the rows and columns computed
  int rows() const { return 3 * tau.size(); }
  int columns() const { return columns_per_element * sigma.size(); }
  int row_group() const { return 3; }
  int column_group() const { return columns_per_element; }
  void compute_rows(int group, Complex* out) const {
    const int p = layout.rows.order[tau.begin + group], n = columns();
    *pairs += sigma.size();
    Complex e_block[3][12];
    for (int k = 0; k < sigma.size(); ++k) {
      element_columns<Solution>(mv, p, layout.elements.order[sigma.begin + k], s, table, layout.traction_scale,
                                e_block);
      for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 12; ++c) out[static_cast<std::size_t>(i) * n + 12 * k + c] = e_block[i][c];
    }
  }
  void compute_columns(int group, Complex* out) const {
    const int e = layout.elements.order[sigma.begin + group], m = rows();
    *pairs += tau.size();
    Complex e_block[3][12];
    for (int k = 0; k < tau.size(); ++k) {
      element_columns<Solution>(mv, layout.rows.order[tau.begin + k], e, s, table, layout.traction_scale, e_block);
      for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 12; ++c) out[static_cast<std::size_t>(c) * m + 3 * k + i] = e_block[i][c];
    }
  }
};

/// What compressing one admissible leaf gave.
struct LeafResult {
  LeafForm form = LeafForm::dropped;
  LowRank factors;              ///< low_rank: U (rows × rank), W (columns × rank)
  std::vector<Complex> dense;   ///< dense: rows × columns
  std::vector<Complex> rhs;     ///< rows × cases
  double error_squared = 0.0, norm_squared = 0.0;
  std::uint64_t pairs = 0;      ///< pair integrals computed for it
};

/// Sums element columns (row-major, `rows` rows × 12 per element of the
/// leaf's column cluster; `count` of them from `first`) into the leaf's
/// unknowns' columns, G (a node's K_eb, a fixed element's −w·V_e), and the
/// right-hand side (a loaded element's V_e times its traction: its scaled
/// column times traction/w).
void sum_element_columns(const ModelView& mv, const HierarchicalLayout& layout, const LayoutBlock& leaf,
                         const Complex* e_rows, int rows, int first, int count, Complex* block, Complex* rhs) {
  const Cluster& sigma = layout.elements.clusters[leaf.column_cluster];
  const int n = columns_per_element * sigma.size();
  for (int k = 0; k < sigma.size(); ++k) {
    const int element = layout.elements.order[sigma.begin + k];
    const int* local = layout.cluster_local_columns(leaf.column_cluster, k);
    const int load_case = mv.element_load_case[element];
    const Vec3 t = (1.0 / layout.traction_scale) * mv.element_traction[element];
    for (int r = 0; r < count; ++r) {
      const Complex* e = e_rows + static_cast<std::size_t>(r) * n + 12 * k;
      const int row = first + r;
      for (int b = 0; b < 3; ++b)
        if (local[b] >= 0)
          for (int j = 0; j < 3; ++j) block[row + static_cast<std::size_t>(3 * local[b] + j) * rows] += e[3 * b + j];
      if (local[3] >= 0)
        for (int j = 0; j < 3; ++j) block[row + static_cast<std::size_t>(3 * local[3] + j) * rows] -= e[9 + j];
      if (load_case >= 0) rhs[row + static_cast<std::size_t>(load_case) * rows] += e[9] * t.x + e[10] * t.y + e[11] * t.z;
    }
  }
}

/// ACA of leaf's element columns, summed into its unknowns' columns and
/// right-hand side (the same sums on the factors), recompressed; `target` is
/// the leaf's share of the error (absolute, Frobenius), half for ACA (through
/// G), half for the truncation. Where ACA does not converge within
/// aca_rank_cap, the block is formed dense from its element columns (the rows
/// ACA computed, and the others).
template <class Solution>
LeafResult compress_leaf(const ModelView& mv, const HierarchicalLayout& layout, const LayoutBlock& leaf, Complex s,
                         const QuadratureTable& table, double target, std::uint64_t seed) {
  const Cluster& tau = layout.rows.clusters[leaf.row_cluster];
  const Cluster& sigma = layout.elements.clusters[leaf.column_cluster];
  const int cases = mv.load_case_count;
  LeafResult out;
  out.rhs.assign(static_cast<std::size_t>(leaf.rows) * cases, Complex());
  const int cap = aca_rank_cap(leaf);
  LeafColumns<Solution> provider{mv, layout, tau, sigma, s, table, &out.pairs};
  const double share = target / std::sqrt(2.0);
  AcaResult aca =
      adaptive_cross_approximation(provider, share / std::sqrt(double(layout.largest_valence)), cap, seed);
  if (aca.converged) {
    const LowRank& e = aca.factors;
    LowRank a;
    a.rows = leaf.rows;
    a.columns = leaf.columns;
    a.rank = e.rank;
    a.u = e.u;
    // G on the factors: E ≈ U Vᵀ, so A = U (Vᵀ G) and b = U (Vᵀ t): the rows
    // of Vᵀ (V's columns, contiguous) summed as element columns into Wᵀ and r.
    a.v.assign(static_cast<std::size_t>(leaf.columns) * e.rank, Complex());
    std::vector<Complex> r(static_cast<std::size_t>(e.rank) * cases);
    std::vector<Complex> w_transposed(static_cast<std::size_t>(e.rank) * leaf.columns);
    sum_element_columns(mv, layout, leaf, e.v.data(), e.rank, 0, e.rank, w_transposed.data(), r.data());
    for (int l = 0; l < e.rank; ++l)
      for (int j = 0; j < leaf.columns; ++j)
        a.v[j + static_cast<std::size_t>(l) * leaf.columns] = w_transposed[l + static_cast<std::size_t>(j) * e.rank];
    for (int c = 0; c < cases; ++c)
      for (int l = 0; l < e.rank; ++l) {
        const Complex rl = r[l + static_cast<std::size_t>(c) * e.rank];
        const Complex* u = e.u.data() + static_cast<std::size_t>(l) * leaf.rows;
        for (int i = 0; i < leaf.rows; ++i) out.rhs[i + static_cast<std::size_t>(c) * leaf.rows] += u[i] * rl;
      }
    const double truncated = recompress(a, share);
    if (a.rank <= cap) {
      out.form = LeafForm::low_rank;
      out.error_squared = layout.largest_valence * aca.error_estimate * aca.error_estimate + truncated * truncated;
      out.norm_squared = frobenius_norm_squared(a);
      out.factors = std::move(a);
      return out;
    }
    std::fill(out.rhs.begin(), out.rhs.end(), Complex());
  }
  // Dense from the element columns of every collocation point of the leaf.
  out.form = LeafForm::dense;
  out.dense.assign(static_cast<std::size_t>(leaf.rows) * leaf.columns, Complex());
  std::vector<Complex> missing;
  for (int g = 0; g < tau.size(); ++g) {
    const Complex* e_rows;
    const auto cached = aca.rows.find(g);
    if (cached != aca.rows.end()) {
      e_rows = cached->second.data();
    } else {
      missing.resize(static_cast<std::size_t>(3) * provider.columns());
      provider.compute_rows(g, missing.data());
      e_rows = missing.data();
    }
    sum_element_columns(mv, layout, leaf, e_rows, leaf.rows, 3 * g, 3, out.dense.data(), out.rhs.data());
  }
  for (const Complex& v : out.dense) out.norm_squared += v.re * v.re + v.im * v.im;
  return out;
}

/// The relative rounding every compressed operator carries: 4 units of double precision.
constexpr double rounding_error = 4 * 2.220446049250313e-16;

/// What the near field's leaves add besides their values: per dense leaf its
/// part of the right-hand sides, its squared Frobenius norm, its pair integrals.
struct NearLeaves {
  std::vector<std::vector<Complex>> rhs;
  std::vector<double> norm_squared;
  std::vector<std::uint64_t> pairs;
};

/// The dense leaves the damping keeps (`dropped` by block) at s, into
/// op.near and op.near_kept (OpenMP over leaves).
template <class Solution>
NearLeaves assemble_near_field(const ModelView& mv, const HierarchicalLayout& layout, const std::vector<char>& dropped,
                               Complex s, const QuadratureTable& table, CompressedOperator& op) {
  const int near = static_cast<int>(layout.near_blocks.size()), cases = mv.load_case_count;
  op.near.assign(layout.near_values, Complex());
  op.near_kept.assign(near, 0);
  NearLeaves out{std::vector<std::vector<Complex>>(near), std::vector<double>(near, 0.0),
                 std::vector<std::uint64_t>(near, 0)};
#pragma omp parallel for schedule(dynamic, 1)
  for (int k = 0; k < near; ++k) {
    const int b = layout.near_blocks[k];
    if (dropped[b]) continue;
    const LayoutBlock& leaf = layout.blocks[b];
    out.rhs[k].resize(static_cast<std::size_t>(leaf.rows) * cases);
    Complex* block = op.near.data() + leaf.near_offset;
    out.pairs[k] = assemble_dense_leaf<Solution>(mv, layout, leaf, s, table, block, out.rhs[k].data());
    for (std::size_t v = 0; v < static_cast<std::size_t>(leaf.rows) * leaf.columns; ++v)
      out.norm_squared[k] += block[v].re * block[v].re + block[v].im * block[v].im;
    op.near_kept[k] = 1;
  }
  return out;
}

/// Each admissible leaf's form, rank and first value in op.factors (sized to
/// hold them all) from the leaves' results.
void lay_out_factors(const HierarchicalLayout& layout, const std::vector<LeafResult>& results, CompressedOperator& op) {
  const int admissible = static_cast<int>(layout.admissible_blocks.size());
  op.form.assign(admissible, LeafForm::dropped);
  op.rank.assign(admissible, 0);
  op.factor_offset.assign(admissible, 0);
  std::size_t values = 0;
  for (int a = 0; a < admissible; ++a) {
    const LayoutBlock& leaf = layout.blocks[layout.admissible_blocks[a]];
    op.factor_offset[a] = values;
    op.form[a] = results[a].form;
    if (results[a].form == LeafForm::low_rank) {
      op.rank[a] = results[a].factors.rank;
      values += static_cast<std::size_t>(leaf.rows + leaf.columns) * op.rank[a];
    } else if (results[a].form == LeafForm::dense) {
      values += static_cast<std::size_t>(leaf.rows) * leaf.columns;
    }
  }
  op.factors.resize(values);
}

}  // namespace

FreeTerms free_terms_in_tree_order(const BemModel& model, const HierarchicalLayout& layout,
                                   const std::vector<double>& sums) {
  FreeTerms out;
  out.diagonal.assign(9 * layout.rows.order.size(), Complex());
  double squared = 0.0;
  for (std::size_t p = 0; p < model.free_nodes.size(); ++p) {
    const int position = layout.rows.position[p];
    for (int k = 0; k < 9; ++k) {
      out.diagonal[9 * position + k] = Complex(-sums[9 * p + k]);
      squared += sums[9 * p + k] * sums[9 * p + k];
    }
  }
  out.norm = std::sqrt(squared);
  return out;
}

template <class Solution>
CompressedOperator assemble_compressed_cpu(const BemModel& model, const HierarchicalLayout& layout,
                                           const FreeTerms& free_terms, Complex s, double tolerance,
                                           std::vector<std::vector<Complex>>& rhs) {
  static const QuadratureTable table = make_quadrature_table();
  const ModelView mv = model.view();
  const int cases = mv.load_case_count, n = 3 * static_cast<int>(layout.rows.order.size());
  CompressedOperator op;
  op.layout = &layout;
  op.diagonal = free_terms.diagonal;
  CompressionReport& report = op.report;

  // 1. The leaves the damping drops (error_budget.hpp).
  const DroppedLeaves drops = dropped_leaves<Solution>(model, layout, s, tolerance, free_terms.norm);
  const std::vector<char>& dropped = drops.dropped;

  // 2. The near field.
  const int near = static_cast<int>(layout.near_blocks.size());
  const NearLeaves near_leaves = assemble_near_field<Solution>(mv, layout, dropped, s, table, op);
  const std::vector<std::vector<Complex>>& near_rhs = near_leaves.rhs;
  const std::vector<double>& near_norm = near_leaves.norm_squared;
  const std::vector<std::uint64_t>& near_pairs = near_leaves.pairs;

  // 3. The admissible leaves.
  const int admissible = static_cast<int>(layout.admissible_blocks.size());
  std::vector<LeafResult> results(admissible);
#pragma omp parallel for schedule(dynamic, 1)
  for (int a = 0; a < admissible; ++a) {
    const int b = layout.admissible_blocks[a];
    if (dropped[b]) continue;
    const LayoutBlock& leaf = layout.blocks[b];
    const double target = leaf_error_share(layout, leaf, tolerance, free_terms.norm);
    results[a] = compress_leaf<Solution>(mv, layout, leaf, s, table, target,
                                         0x5EED0000ull + static_cast<std::uint64_t>(b));
  }

  // Flat factors and the right-hand sides, in leaf order.
  rhs.assign(cases, std::vector<Complex>(n, Complex()));
  auto add_rhs = [&](const LayoutBlock& leaf, const std::vector<Complex>& values) {
    const int first = 3 * layout.rows.clusters[leaf.row_cluster].begin;
    for (int c = 0; c < cases; ++c)
      for (int i = 0; i < leaf.rows; ++i) rhs[c][first + i] += values[i + static_cast<std::size_t>(c) * leaf.rows];
  };
  double norm_squared = 0.0, error_squared = drops.error_squared;
  for (int k = 0; k < near; ++k)
    if (op.near_kept[k]) {
      add_rhs(layout.blocks[layout.near_blocks[k]], near_rhs[k]);
      norm_squared += near_norm[k];
      report.near_pairs += near_pairs[k];
      report.near_bytes += 16ull * layout.blocks[layout.near_blocks[k]].rows * layout.blocks[layout.near_blocks[k]].columns;
    }
  lay_out_factors(layout, results, op);
  double rank_sum = 0.0;
  for (int a = 0; a < admissible; ++a) {
    LeafResult& result = results[a];
    const LayoutBlock& leaf = layout.blocks[layout.admissible_blocks[a]];
    Complex* target = op.factors.data() + op.factor_offset[a];
    if (result.form == LeafForm::dropped) {
      ++report.dropped_blocks;
      continue;
    }
    add_rhs(leaf, result.rhs);
    norm_squared += result.norm_squared;
    report.aca_pairs += result.pairs;
    error_squared += result.error_squared;
    if (result.form == LeafForm::low_rank) {
      std::copy(result.factors.u.begin(), result.factors.u.end(), target);
      std::copy(result.factors.v.begin(), result.factors.v.end(), target + result.factors.u.size());
      ++report.low_rank_blocks;
      report.largest_rank = std::max(report.largest_rank, op.rank[a]);
      rank_sum += op.rank[a];
      report.low_rank_bytes += 16ull * (result.factors.u.size() + result.factors.v.size());
    } else {
      std::copy(result.dense.begin(), result.dense.end(), target);
      ++report.dense_admissible_blocks;
      report.dense_admissible_bytes += 16ull * result.dense.size();
    }
  }
  for (int k = 0; k < near; ++k) report.dropped_blocks += !op.near_kept[k];
  report.mean_rank = report.low_rank_blocks ? rank_sum / report.low_rank_blocks : 0.0;
  norm_squared += free_terms.norm * free_terms.norm;
  report.norm_estimate = std::sqrt(norm_squared);
  // Plus the rounding of summing a node's column in another order than the
  // dense path (a few units in the last place).
  report.error_estimate = (norm_squared > 0.0 ? std::sqrt(error_squared / norm_squared) : 0.0) + rounding_error;
  return op;
}

template CompressedOperator assemble_compressed_cpu<ElastodynamicFullSpace>(const BemModel&, const HierarchicalLayout&,
                                                                            const FreeTerms&, Complex, double,
                                                                            std::vector<std::vector<Complex>>&);

}  // namespace geobem::bem::hierarchical
