#pragma once
// Series accelerators for the half-cycle areas of an oscillatory integral,
// GEOBEM_HD and incremental: each new area costs O(table length), and the
// storage is a caller-provided scratch array (no allocation on the device).
#include <cmath>

#include "gpu/core/host_device.hpp"

namespace geobem::transform {

/// Longman's Euler-difference sum (Longman 1956; Mesquita et al.) of the signed
/// areas V_0, V_1, ...: sum_k D_k / 2^(k+1) with D_k = sum_j C(k,j) V_j, which is
/// (-1)^k Delta^k v_0 for the alternating series v_n = |V_n|. The scaled
/// antidiagonal U_m = T^(m)/2^m of the binomial table is kept (one new entry per
/// area, U_m = (U_{m-1} + U_{m-1}^old)/2). Remainder bound |R_N| <= 2^-N |Delta^N v_0|
/// (docs/references.md#longman), reported for the sum without its last term.
class EulerSum {
 public:
  /// `scratch` holds at least as many doubles as areas will be added.
  GEOBEM_HD explicit EulerSum(double* scratch) : diagonal_(scratch) {}
  GEOBEM_HD void add(double area) {
    double previous_old = diagonal_[0];
    diagonal_[0] = area;
    for (int m = 1; m <= count_; ++m) {
      const double old = diagonal_[m];
      diagonal_[m] = 0.5 * (previous_old + diagonal_[m - 1]);
      previous_old = old;
    }
    const double term = 0.5 * diagonal_[count_];
    sum_ += term;
    recent_[0] = recent_[1];
    recent_[1] = fabs(term);
    ++count_;
  }
  GEOBEM_HD double value() const { return sum_; }
  /// 2^-(N-1) |Delta^(N-1) v_0| = 2 |last term| bounds the remainder of the sum
  /// without its last term when the areas are completely monotone (Longman).
  /// Areas that are not (early half cycles of 1/(1+x^2), Bessel phases) make
  /// the terms oscillate, so the larger of the last two terms is used; and when
  /// the terms shrink slowly (ratio rho of the last two above 1/2) the
  /// geometric tail rho/(1-rho) of the terms, doubled, replaces the factor 2.
  GEOBEM_HD double error() const {
    const double largest = fmax(recent_[0], recent_[1]);
    const double ratio = fmin(recent_[1] / recent_[0], 0.95);
    return largest * fmax(2.0, 2.0 * ratio / (1.0 - ratio));
  }

 private:
  double* diagonal_;
  double sum_ = 0.0;
  double recent_[2] = {HUGE_VAL, HUGE_VAL};
  int count_ = 0;
};

/// Wynn's epsilon algorithm on the partial sums S_n (Wynn 1956), with
/// safeguards in the spirit of QUADPACK's QELG (Piessens et al. 1983, sec. 2.2.3)
/// but written here: the table is cut at the first column whose difference
/// vanishes to rounding (that column has converged), it keeps at most
/// kMaxColumns columns, and the error estimate is the summed distance of the
/// latest extrapolated value to the four before it (QUADPACK uses the last
/// three; the Bessel-product kernel, whose extrapolants drift slowly, needs
/// more), floored at 50 ulp of the value. The recursion is
/// eps_{k+1}^(n) = eps_{k-1}^(n+1) + 1/(eps_k^(n+1) - eps_k^(n)); only the latest
/// antidiagonal e[k] = eps_k^(n-k) is stored.
class WynnEpsilon {
 public:
  static constexpr int kMaxColumns = 48;
  /// `scratch` holds at least kMaxColumns doubles.
  GEOBEM_HD explicit WynnEpsilon(double* scratch) : diagonal_(scratch) {}
  GEOBEM_HD void add(double partial_sum) {
    double before_previous_old = 0.0;  // eps_{-1} = 0
    double previous_old = diagonal_[0];
    diagonal_[0] = partial_sum;
    int length = 1;
    const int limit = count_ + 1 < kMaxColumns ? count_ + 1 : kMaxColumns;
    for (int k = 1; k < limit && k < length_ + 1; ++k) {
      const double difference = diagonal_[k - 1] - previous_old;
      const double size = fabs(diagonal_[k - 1]) + fabs(previous_old);
      if (!(fabs(difference) > 4.0 * 2.220446049250313e-16 * size)) break;  // column converged
      const double old = k < length_ ? diagonal_[k] : 0.0;
      diagonal_[k] = before_previous_old + 1.0 / difference;
      before_previous_old = previous_old;
      previous_old = old;
      length = k + 1;
    }
    length_ = length;
    ++count_;
    const double estimate = diagonal_[(length_ - 1) & ~1];  // highest even column
    for (int i = 0; i + 1 < kHistory; ++i) history_[i] = history_[i + 1];
    history_[kHistory - 1] = estimate;
    error_ = 0.0;
    for (int i = 0; i + 1 < kHistory; ++i) error_ += fabs(estimate - history_[i]);
    if (count_ < kHistory) error_ = HUGE_VAL;
    const double floor = 50.0 * 2.220446049250313e-16 * fabs(estimate);
    if (error_ < floor) error_ = floor;
  }
  GEOBEM_HD double value() const { return history_[kHistory - 1]; }
  GEOBEM_HD double error() const { return error_; }

 private:
  double* diagonal_;
  static constexpr int kHistory = 5;
  double history_[kHistory] = {};
  double error_ = HUGE_VAL;
  int count_ = 0, length_ = 0;
};

/// Sidi's mW transformation (Sidi, Math. Comp. 51 (1988) 249-266) computed by
/// the W-algorithm (Sidi, Numer. Math. 38 (1982) 299-307): with partition
/// points x_l, partial integrals F_l = int_a^{x_l} f and psi_l = F_{l+1} - F_l,
/// M_0^(l) = F_l/psi_l, N_0^(l) = 1/psi_l,
/// M_p^(l) = (M_{p-1}^(l) - M_{p-1}^(l+1)) / (1/x_l - 1/x_{l+p}), same for N,
/// W_p^(l) = M_p^(l)/N_p^(l). The table is kept to kMaxDepth levels (a moving
/// window over the latest points: deeper levels divide by ever smaller
/// differences of 1/x and overflow); the estimate is the deepest level of the
/// latest antidiagonal. Error estimate: spread of the last three W values.
class SidiMW {
 public:
  static constexpr int kMaxDepth = 32;
  /// `scratch` holds at least kMaxDepth + 1 doubles for M and N and `capacity`
  /// (the number of points added) for 1/x, laid out as [M | N | 1/x] with M and
  /// N given `capacity` each.
  GEOBEM_HD SidiMW(double* scratch, int capacity)
      : m_(scratch), n_(scratch + capacity), inverse_x_(scratch + 2 * capacity) {}
  /// Adds partition point x_l > 0, the partial integral F_l up to it, and the
  /// area psi_l from x_l to the next point.
  GEOBEM_HD void add(double x, double partial_integral, double area) {
    inverse_x_[count_] = 1.0 / x;
    if (area == 0.0) area = 1e-300;  // an exactly zero area would divide by zero
    double previous_m = m_[0], previous_n = n_[0];
    m_[0] = partial_integral / area;
    n_[0] = 1.0 / area;
    const int depth = count_ < kMaxDepth ? count_ : kMaxDepth;
    for (int p = 1; p <= depth; ++p) {
      const double old_m = m_[p], old_n = n_[p];
      const double step = inverse_x_[count_ - p] - inverse_x_[count_];
      m_[p] = (previous_m - m_[p - 1]) / step;
      n_[p] = (previous_n - n_[p - 1]) / step;
      previous_m = old_m;
      previous_n = old_n;
    }
    const double estimate = m_[depth] / n_[depth];
    ++count_;
    history_[0] = history_[1];
    history_[1] = history_[2];
    history_[2] = estimate;
    error_ = count_ >= 3 ? fabs(estimate - history_[1]) + fabs(estimate - history_[0]) : HUGE_VAL;
    const double floor = 50.0 * 2.220446049250313e-16 * fabs(estimate);
    if (error_ < floor) error_ = floor;
  }
  GEOBEM_HD double value() const { return history_[2]; }
  GEOBEM_HD double error() const { return error_; }

 private:
  double *m_, *n_, *inverse_x_;
  double history_[3] = {0.0, 0.0, 0.0};
  double error_ = HUGE_VAL;
  int count_ = 0;
};

}  // namespace geobem::transform
