#pragma once
// Adaptive cross approximation with partial pivoting (Bebendorf 2000,
// "Approximation of boundary element matrices", Numer. Math. 86, 565–589;
// Hackbusch 2015, §9.4): M ≈ Σ_l u_l v_lᵀ from k rows and k columns of M.
// Step l takes the residual of row i_l, its largest entry (i_l, j_l) as the
// pivot, v_l = residual row / pivot, u_l = residual column j_l, and the next
// row where |u_l| is largest. It stops on the block's Frobenius estimate:
// ‖u_l‖·‖v_l‖ ≤ δ, the remainder's estimate below the block's share δ of the
// whole matrix's error (an absolute bound, so that a block far smaller than
// the matrix takes few terms; Bebendorf 2008, "Hierarchical Matrices", §3.4).
// Since that estimate can stop early on blocks whose rows differ in kind
// (the three components of a collocation point), it is then checked on rows
// not yet used: the residual of two sampled collocation points' rows, scaled
// to the block, must meet the same bound, or ACA goes on from the worst of
// them (in the manner of ACA+, Grasedyck 2005, Computing 74, 205–223). The
// reported error is the larger of the two estimates.
//
// A Provider supplies the block by groups: rows come `row_group()` at a time
// (the 3 equations of a collocation point), columns `column_group()` at a time
// (an element's 12 columns), since the pair integrals yield them together;
// both are cached, so a pivot among them costs nothing more.
//   int rows(), columns(), row_group(), column_group();
//   void compute_rows(int group, Complex* out)     group's rows, row-major (row_group × columns)
//   void compute_columns(int group, Complex* out)  group's columns, column-major (column_group × rows)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "gpu/bem/complex.hpp"
#include "gpu/bem/hierarchical/low_rank.hpp"

namespace geobem::bem::hierarchical {

struct AcaResult {
  LowRank factors;
  double error_estimate = 0.0;  ///< estimated ‖M − U·Vᵀ‖_F
  bool converged = false;       ///< false: `max_rank` reached first
  /// The row groups computed (row-major, row_group × columns each), for a
  /// caller that takes the block dense after all.
  std::map<int, std::vector<Complex>> rows;
};

namespace detail {

inline double squared_norm(const Complex* x, int n) {
  double sum = 0.0;
  for (int k = 0; k < n; ++k) sum += x[k].re * x[k].re + x[k].im * x[k].im;
  return sum;
}

/// Reproducible pseudo-random sequence (SplitMix64) for the check rows.
inline std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Entry `index` of a block computed a group at a time (`group` rows or
/// columns of `length` values each, by compute(group index, out)), each group
/// once: the start of its values in `cache`.
template <class Compute>
const Complex* grouped_entries(std::map<int, std::vector<Complex>>& cache, int index, int group, int length,
                               Compute compute) {
  std::vector<Complex>& values = cache[index / group];
  if (values.empty()) {
    values.resize(static_cast<std::size_t>(group) * length);
    compute(index / group, values.data());
  }
  return values.data() + static_cast<std::size_t>(index % group) * length;
}

}  // namespace detail

/// ACA of the provider's block to an estimated Frobenius error of at most
/// `tolerance` (absolute), at most `max_rank` terms; `seed` picks the check
/// rows (the same seed, the same factors).
template <class Provider>
AcaResult adaptive_cross_approximation(Provider& provider, double tolerance, int max_rank, std::uint64_t seed) {
  const int m = provider.rows(), n = provider.columns();
  const int row_group = provider.row_group(), column_group = provider.column_group();
  AcaResult result;
  LowRank& f = result.factors;
  f.rows = m;
  f.columns = n;
  std::map<int, std::vector<Complex>>& row_cache = result.rows;
  std::map<int, std::vector<Complex>> column_cache;
  auto raw_row = [&](int i) {
    return detail::grouped_entries(row_cache, i, row_group, n,
                                   [&](int group, Complex* out) { provider.compute_rows(group, out); });
  };
  auto raw_column = [&](int j) {
    return detail::grouped_entries(column_cache, j, column_group, m,
                                   [&](int group, Complex* out) { provider.compute_columns(group, out); });
  };
  // The residual of row i: M(i, :) − Σ_l u_l(i) v_l.
  std::vector<Complex> row(n), column(m);
  auto residual_row = [&](int i) {
    const Complex* raw = raw_row(i);
    std::copy(raw, raw + n, row.begin());
    for (int l = 0; l < f.rank; ++l) {
      const Complex a = f.u[i + static_cast<std::size_t>(l) * m];
      const Complex* v = f.v.data() + static_cast<std::size_t>(l) * n;
      for (int j = 0; j < n; ++j) row[j] -= a * v[j];
    }
  };
  std::vector<char> used_row(m, 0), used_column(n, 0);
  std::uint64_t state = seed;
  int next_row = 0, zero_rows = 0;
  for (;;) {
    // A row whose residual vanishes is already reproduced: another one is
    // tried, and three such in a row count as a converged step.
    bool converged_step = false;
    int i = next_row;
    used_row[i] = 1;
    residual_row(i);
    int pivot = -1;
    double largest = 0.0;
    for (int j = 0; j < n; ++j)
      if (!used_column[j] && abs(row[j]) > largest) {
        largest = abs(row[j]);
        pivot = j;
      }
    double step = 0.0;
    if (pivot < 0) {
      converged_step = ++zero_rows >= 3;
    } else {
      zero_rows = 0;
      if (f.rank == max_rank) return result;  // not converged within max_rank
      const Complex inverse_pivot = Complex(1.0) / row[pivot];
      const Complex* raw = raw_column(pivot);
      std::copy(raw, raw + m, column.begin());
      for (int l = 0; l < f.rank; ++l) {
        const Complex b = f.v[pivot + static_cast<std::size_t>(l) * n];
        const Complex* u = f.u.data() + static_cast<std::size_t>(l) * m;
        for (int k = 0; k < m; ++k) column[k] -= b * u[k];
      }
      used_column[pivot] = 1;
      for (int j = 0; j < n; ++j) row[j] = row[j] * inverse_pivot;
      const double u2 = detail::squared_norm(column.data(), m), v2 = detail::squared_norm(row.data(), n);
      f.u.insert(f.u.end(), column.begin(), column.end());
      f.v.insert(f.v.end(), row.begin(), row.end());
      ++f.rank;
      step = std::sqrt(u2 * v2);
      converged_step = step <= tolerance;
    }
    // The next pivot row: the largest |u| among unused rows (any unused row after a zero one).
    next_row = -1;
    double largest_u = -1.0;
    if (pivot >= 0)
      for (int k = 0; k < m; ++k)
        if (!used_row[k] && abs(column[k]) > largest_u) {
          largest_u = abs(column[k]);
          next_row = k;
        }
    int unused = 0;
    for (int k = 0; k < m; ++k) unused += !used_row[k];
    if (unused == 0) {  // every row is a pivot row: the approximation interpolates the whole block
      result.converged = true;
      result.error_estimate = 0.0;
      return result;
    }
    if (next_row < 0 || (pivot < 0 && !converged_step)) {
      const int skip = static_cast<int>(detail::next_random(state) % unused);
      for (int k = 0, seen = 0; k < m; ++k)
        if (!used_row[k] && seen++ == skip) next_row = k;
    }
    if (!converged_step) continue;
    // Check: the residual of two sampled collocation points' rows (unused
    // rows only), scaled by the rows they stand for, against the same bound.
    const int groups = m / row_group;
    double sampled = 0.0;
    int sampled_rows = 0, worst = -1;
    double worst_norm = -1.0;
    for (int trial = 0; trial < 2; ++trial) {
      const int group = static_cast<int>(detail::next_random(state) % groups);
      for (int r = 0; r < row_group; ++r) {
        const int k = group * row_group + r;
        if (used_row[k]) continue;
        residual_row(k);
        const double norm2 = detail::squared_norm(row.data(), n);
        sampled += norm2;
        ++sampled_rows;
        if (norm2 > worst_norm) {
          worst_norm = norm2;
          worst = k;
        }
      }
    }
    const double sampled_estimate = sampled_rows ? std::sqrt(sampled * unused / sampled_rows) : 0.0;
    if (sampled_estimate <= tolerance) {
      result.converged = true;
      result.error_estimate = std::max(step, sampled_estimate);
      return result;
    }
    next_row = worst;
    zero_rows = 0;
  }
}

}  // namespace geobem::bem::hierarchical
