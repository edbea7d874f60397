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

/// out[k] −= Σ_l coefficients[first + l·stride]·terms[k + l·length] for
/// k < length, l < rank: the residual of a row (coefficients: U, first the
/// row; terms: V) or of a column (coefficients: V, first the column; terms: U).
inline void subtract_terms(Complex* out, int length, const std::vector<Complex>& coefficients, std::size_t first,
                           std::size_t stride, const std::vector<Complex>& terms, int rank) {
  for (int l = 0; l < rank; ++l) {
    const Complex a = coefficients[first + static_cast<std::size_t>(l) * stride];
    const Complex* t = terms.data() + static_cast<std::size_t>(l) * length;
    for (int k = 0; k < length; ++k) out[k] -= a * t[k];
  }
}

/// The first index of the largest |values[k]| above `floor` among those not
/// `used`; −1 for none.
inline int largest_unused(const std::vector<Complex>& values, const std::vector<char>& used, double floor) {
  int index = -1;
  double largest = floor;
  for (std::size_t k = 0; k < values.size(); ++k)
    if (!used[k] && abs(values[k]) > largest) {
      largest = abs(values[k]);
      index = static_cast<int>(k);
    }
  return index;
}

/// The sampled check's outcome: the remainder's estimate from the sampled
/// rows, and the sampled row of the largest residual (−1 for none).
struct SampledCheck {
  double estimate = 0.0;
  int worst = -1;
};

/// One ACA in progress: the provider's block, the factors so far (in the
/// result), the rows and columns computed, the residual row and column of the
/// current step, which rows and columns were pivots, and the check rows'
/// random state.
template <class Provider>
class CrossApproximation {
 public:
  CrossApproximation(Provider& provider, AcaResult& result, std::uint64_t seed)
      : provider_(provider), f_(result.factors), row_cache_(result.rows), m_(provider.rows()), n_(provider.columns()),
        row_(n_), column_(m_), used_row_(m_, 0), used_column_(n_, 0), state_(seed) {
    f_.rows = m_;
    f_.columns = n_;
  }

  /// Marks row i a pivot row and forms its residual M(i, :) − Σ_l u_l(i) v_l.
  void take_row(int i) {
    used_row_[i] = 1;
    residual_row(i);
  }

  /// The residual row's largest entry among unused columns (−1: it vanishes there).
  int pivot_column() const { return largest_unused(row_, used_column_, 0.0); }

  /// Adds the cross through the residual row and column `pivot`:
  /// u = residual column, v = residual row / pivot. Returns ‖u‖·‖v‖.
  double add_cross(int pivot) {
    const Complex inverse_pivot = Complex(1.0) / row_[pivot];
    const Complex* raw = raw_column(pivot);
    std::copy(raw, raw + m_, column_.begin());
    subtract_terms(column_.data(), m_, f_.v, pivot, n_, f_.u, f_.rank);
    used_column_[pivot] = 1;
    for (int j = 0; j < n_; ++j) row_[j] = row_[j] * inverse_pivot;
    const double u2 = squared_norm(column_.data(), m_), v2 = squared_norm(row_.data(), n_);
    f_.u.insert(f_.u.end(), column_.begin(), column_.end());
    f_.v.insert(f_.v.end(), row_.begin(), row_.end());
    ++f_.rank;
    return std::sqrt(u2 * v2);
  }

  /// The next pivot row after a cross: the largest |u| among unused rows.
  int row_of_largest_u() const { return largest_unused(column_, used_row_, -1.0); }

  int unused_rows() const {
    int unused = 0;
    for (int k = 0; k < m_; ++k) unused += !used_row_[k];
    return unused;
  }

  /// A pseudo-random one of the `unused` unused rows.
  int random_unused_row(int unused) {
    const int skip = static_cast<int>(next_random(state_) % unused);
    int row = -1;
    for (int k = 0, seen = 0; k < m_; ++k)
      if (!used_row_[k] && seen++ == skip) row = k;
    return row;
  }

  /// The residual of two sampled collocation points' unused rows, scaled by
  /// the `unused` rows they stand for.
  SampledCheck check_sampled_rows(int unused) {
    const int row_group = provider_.row_group(), groups = m_ / row_group;
    double sampled = 0.0, worst_norm = -1.0;
    int sampled_rows = 0;
    SampledCheck check;
    for (int trial = 0; trial < 2; ++trial) {
      const int group = static_cast<int>(next_random(state_) % groups);
      for (int r = 0; r < row_group; ++r) {
        const int k = group * row_group + r;
        if (used_row_[k]) continue;
        residual_row(k);
        const double norm2 = squared_norm(row_.data(), n_);
        sampled += norm2;
        ++sampled_rows;
        if (norm2 > worst_norm) {
          worst_norm = norm2;
          check.worst = k;
        }
      }
    }
    check.estimate = sampled_rows ? std::sqrt(sampled * unused / sampled_rows) : 0.0;
    return check;
  }

 private:
  const Complex* raw_row(int i) {
    return grouped_entries(row_cache_, i, provider_.row_group(), n_,
                           [&](int group, Complex* out) { provider_.compute_rows(group, out); });
  }
  const Complex* raw_column(int j) {
    return grouped_entries(column_cache_, j, provider_.column_group(), m_,
                           [&](int group, Complex* out) { provider_.compute_columns(group, out); });
  }
  void residual_row(int i) {
    const Complex* raw = raw_row(i);
    std::copy(raw, raw + n_, row_.begin());
    subtract_terms(row_.data(), n_, f_.u, i, m_, f_.v, f_.rank);
  }

  Provider& provider_;
  LowRank& f_;
  std::map<int, std::vector<Complex>>& row_cache_;
  std::map<int, std::vector<Complex>> column_cache_;
  int m_, n_;
  std::vector<Complex> row_, column_;
  std::vector<char> used_row_, used_column_;
  std::uint64_t state_;
};

}  // namespace detail

/// ACA of the provider's block to an estimated Frobenius error of at most
/// `tolerance` (absolute), at most `max_rank` terms; `seed` picks the check
/// rows (the same seed, the same factors).
template <class Provider>
AcaResult adaptive_cross_approximation(Provider& provider, double tolerance, int max_rank, std::uint64_t seed) {
  AcaResult result;
  detail::CrossApproximation<Provider> aca(provider, result, seed);
  int next_row = 0, zero_rows = 0;
  for (;;) {
    // A row whose residual vanishes is already reproduced: another one is
    // tried, and three such in a row count as a converged step.
    aca.take_row(next_row);
    const int pivot = aca.pivot_column();
    bool converged_step = false;
    double step = 0.0;
    if (pivot < 0) {
      converged_step = ++zero_rows >= 3;
    } else {
      zero_rows = 0;
      if (result.factors.rank == max_rank) return result;  // not converged within max_rank
      step = aca.add_cross(pivot);
      converged_step = step <= tolerance;
    }
    // The next pivot row: the largest |u| among unused rows (any unused row after a zero one).
    next_row = pivot >= 0 ? aca.row_of_largest_u() : -1;
    const int unused = aca.unused_rows();
    if (unused == 0) {  // every row is a pivot row: the approximation interpolates the whole block
      result.converged = true;
      result.error_estimate = 0.0;
      return result;
    }
    if (next_row < 0 || (pivot < 0 && !converged_step)) next_row = aca.random_unused_row(unused);
    if (!converged_step) continue;
    // Check: the residual of two sampled collocation points' rows (unused
    // rows only), scaled by the rows they stand for, against the same bound.
    const detail::SampledCheck check = aca.check_sampled_rows(unused);
    if (check.estimate <= tolerance) {
      result.converged = true;
      result.error_estimate = std::max(step, check.estimate);
      return result;
    }
    next_row = check.worst;
    zero_rows = 0;
  }
}

}  // namespace geobem::bem::hierarchical
