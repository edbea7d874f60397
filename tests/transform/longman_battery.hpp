#pragma once
// Random batteries for Longman's method: parameter rows drawn over each
// built-in family's documented range (parameter_range), their closed forms in
// long double (the formulas of closed_forms.hpp; never the solver's output),
// and the tally of the honest-status rule. Shared by the CPU and GPU battery
// tests and by bench/transform/longman_battery (statistics for RESULTS.md).
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "gpu/core/integration_status.hpp"
#include "gpu/transform/transform.hpp"

namespace geobem::test {

/// The closed form of one integral of `family` (parameter row p), in long double.
inline long double closed_form_long(transform::TransformFamily family, const double* p) {
  using namespace transform;
  using Real = long double;
  const Real pi = 3.141592653589793238462643383279502884L;
  switch (family) {
    case transform_family<ExponentialCosine>: return Real(p[0]) / (Real(p[0]) * p[0] + Real(p[1]) * p[1]);
    case transform_family<ExponentialSine>: return Real(p[1]) / (Real(p[0]) * p[0] + Real(p[1]) * p[1]);
    case transform_family<LorentzianCosine>:
    case transform_family<LorentzianSine>: return pi / 2 * std::exp(-Real(p[0]));
    case transform_family<HankelExponential>: {
      const Real a = p[2], r = p[3], s = std::sqrt(a * a + r * r);
      if (p[0] == 0) return p[1] == 0 ? 1 / s : a / (s * s * s);
      return p[1] == 0 ? r / (s * (s + a)) : r / (s * s * s);
    }
    case transform_family<HalfSpaceDisk>: {
      const Real a = p[0], r = p[1];
      if (r == 0) return 1;
      if (r < a) return 2 / pi * std::comp_ellint_2(r / a);
      if (r == a) return 2 / pi;
      const Real k = a / r;
      return 2 * r / (pi * a) * (std::comp_ellint_2(k) - (1 - k * k) * std::comp_ellint_1(k));
    }
  }
  return NAN;
}

/// `count` parameter rows of `family` (row-major), log-uniform in the range's
/// scale and ratio, every tenth row on an edge of the ratio range; hankel-exp
/// with m = 0 also below the m = 1 floor down to a = 0; halfspace-disk with a
/// third of the rows within 30% of the rim (log-uniform distance 1e-4..0.3)
/// and some at r = 0.
inline std::vector<double> draw_battery(transform::TransformFamily family, std::size_t count, std::mt19937_64& random) {
  using namespace transform;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto log_uniform = [&](double lo, double hi) { return lo * std::pow(hi / lo, unit(random)); };
  const transform::ParameterRange range = transform::parameter_range(family);
  std::vector<double> rows;
  for (std::size_t i = 0; i < count; ++i) {
    const double scale = log_uniform(range.scale_min, range.scale_max);
    double ratio = log_uniform(range.ratio_min, range.ratio_max);
    if (i % 10 == 9)
      ratio = unit(random) < 0.5 ? range.ratio_min * log_uniform(1.0, 1.5) : range.ratio_max / log_uniform(1.0, 1.5);
    switch (family) {
      case transform_family<ExponentialCosine>:
      case transform_family<ExponentialSine>: rows.insert(rows.end(), {scale * ratio, scale}); break;  // lambda, omega
      case transform_family<LorentzianCosine>:
      case transform_family<LorentzianSine>: rows.push_back(ratio); break;  // omega
      case transform_family<HankelExponential>: {
        const double nu = std::floor(2 * unit(random)), m = std::floor(2 * unit(random));
        if (m == 0 && i % 4 == 3) ratio = log_uniform(1e-6, range.ratio_min);
        const double a = (m == 0 && i % 8 == 7) ? 0.0 : scale * ratio;
        rows.insert(rows.end(), {nu, m, a, scale});
        break;
      }
      case transform_family<HalfSpaceDisk>:
        if (i % 3 == 1) ratio = 1.0 + (unit(random) < 0.5 ? -1.0 : 1.0) * log_uniform(1e-4, 0.3);
        if (i % 50 == 7) ratio = 0.0;
        rows.insert(rows.end(), {scale, scale * ratio});  // a, r
        break;
    }
  }
  return rows;
}

/// Counts for the honest-status rule over one battery.
struct BatteryTally {
  std::size_t rows = 0;
  std::size_t converged = 0;
  std::size_t converged_good = 0;     ///< converged, within the tolerance and within its own estimate
  std::size_t converged_off_10x = 0;  ///< converged but off by more than 10x the tolerance
  std::size_t flagged = 0;            ///< any other status
  std::size_t flagged_bounded = 0;    ///< flagged, and the estimate bounds the true error
  std::size_t flagged_within = 0;     ///< flagged, yet within the tolerance
  double worst_converged = 0.0;       ///< largest |error| / tolerance of a converged row

  /// Flagged rows allowed within the tolerance (flags that cry wolf): 5%;
  /// below 20 flagged rows, where 5% is less than one row, one.
  std::size_t cry_wolf_allowed() const { return flagged < 20 ? 1 : flagged * 5 / 100; }

  /// Adds one row: its result against `exact`, at relative tolerance `tolerance`.
  void add(const transform::LongmanResult& r, long double exact, double tolerance) {
    const double error = static_cast<double>(std::fabs(static_cast<long double>(r.value) - exact));
    const double allowed = tolerance * static_cast<double>(std::fabs(exact));
    const bool within = error <= allowed;
    ++rows;
    if (r.status == IntegrationStatus::Converged) {
      ++converged;
      converged_good += within && error <= r.error;
      converged_off_10x += !(error <= 10 * allowed);
      worst_converged = std::fmax(worst_converged, error / allowed);
    } else {
      ++flagged;
      flagged_bounded += error <= r.error;
      flagged_within += within;
    }
  }
};

}  // namespace geobem::test
