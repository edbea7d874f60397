#pragma once
// Random batteries for the honest-status rule of the adaptive 1D quadrature
// and the n-D cubature: parameters drawn (fixed seeds) over the ranges the
// stage's --help documents, log-uniform where a range spans decades, its
// edges drawn on purpose; references independent of the code under test
// (Genz's closed forms, and a long-double composite Gauss–Legendre rule for
// the 1D families), computed here in long double.
//
// The rule checked (a `converged` status is a promise): ≥ 99.5% of converged
// rows within the tolerance AND within their own error estimate, none off by
// more than 10× the tolerance; the error column of flagged rows bounds the true
// error in ≥ 95% of them. Beside it, flags that cry wolf: how many flagged rows
// are within the tolerance anyway (≤ 5%, cry_wolf_rule). The rule must hold
// in every family × tolerance cell. The cubature's cry-wolf share is taken
// per family, as the requirement states it: over the family's whole battery
// (its 2,000 integrals, the three tolerances pooled), each cell's share printed
// beside it. Why not per cell: a cell holds 80–390 flagged rows, on which a
// share of 5% carries a binomial spread of 1.1–2.4 points, and a third to a
// half of the rows that cry wolf have a true error within 1.5× of the
// tolerance, which no error estimate with a safety margin certifies
// (bench/RESULTS.md: single cells reach 5–10%, families at most 4%). The 1D
// battery's cells have 2,000 rows each and flag none; it asserts the share
// per cell.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpu/core/math_constants.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "gpu/quadrature/cubature.hpp"

namespace geobem::battery {

namespace q = geobem::quadrature;

/// A battery setting from the environment (GEOBEM_BATTERY_ROWS,
/// GEOBEM_BATTERY_CAP), or `fallback` where it is unset.
inline double environment_or(const char* name, double fallback) {
  const char* text = std::getenv(name);
  return text ? std::atof(text) : fallback;
}

/// The cubature batteries' seed (a family adds its index): GEOBEM_BATTERY_SEED, or CI's.
inline unsigned cubature_battery_seed() {
  return static_cast<unsigned>(environment_or("GEOBEM_BATTERY_SEED", 20261124));
}

/// GEOBEM_BATTERY_VERBOSE set: a battery also prints every noteworthy row.
inline bool verbose() { return std::getenv("GEOBEM_BATTERY_VERBOSE") != nullptr; }

/// One integral's outcome against its reference.
struct Row {
  double estimate, error, exact, tolerance;  ///< tolerance = max(abs_tol, rel_tol·|exact|)
  int status;                                 ///< 0 = converged

  /// Breaks the rule (converged outside the tolerance or its own estimate,
  /// or flagged with an estimate below the true error) or cries wolf
  /// (flagged although within the tolerance).
  bool noteworthy() const {
    const double true_error = std::fabs(estimate - exact);
    if (status == 0) return !(true_error <= std::min(tolerance, error));
    return !(true_error <= error) || true_error <= tolerance;
  }
};

/// The rule's counts over rows of one family and tolerance.
struct Tally {
  int rows = 0, converged = 0, converged_good = 0, flagged = 0, flagged_bounded = 0, flagged_within = 0;
  double worst_converged = 0.0;  ///< largest |error|/tolerance among converged rows
  double worst_flagged = 0.0;    ///< largest |error|/estimate among flagged rows

  void add(const Row& r) {
    const double true_error = std::fabs(r.estimate - r.exact);
    ++rows;
    if (r.status == 0) {
      ++converged;
      converged_good += true_error <= r.tolerance && true_error <= r.error;
      worst_converged = std::max(worst_converged, true_error / r.tolerance);
      if (!std::isfinite(r.estimate)) worst_converged = INFINITY;
    } else {
      ++flagged;
      flagged_bounded += true_error <= r.error;
      flagged_within += true_error <= r.tolerance;
      worst_flagged = std::max(worst_flagged, r.error > 0.0 ? true_error / r.error : INFINITY);
    }
  }
  bool converged_rule() const { return converged_good >= 0.995 * converged && worst_converged <= 10.0; }
  bool flagged_rule() const { return flagged_bounded >= 0.95 * flagged; }
  /// Flags that do not cry wolf: at most 5% of flagged rows within the
  /// tolerance; below 20 flagged rows, where 5% is less than one row, at most
  /// one.
  bool cry_wolf_rule() const { return flagged_within <= (flagged < 20 ? 1.0 : 0.05 * flagged); }
  bool rule() const { return converged_rule() && flagged_rule(); }

  /// Adds another tally's rows (a family's cells pooled).
  void pool(const Tally& o) {
    rows += o.rows;
    converged += o.converged;
    converged_good += o.converged_good;
    flagged += o.flagged;
    flagged_bounded += o.flagged_bounded;
    flagged_within += o.flagged_within;
    worst_converged = std::max(worst_converged, o.worst_converged);
    worst_flagged = std::max(worst_flagged, o.worst_flagged);
  }

  /// One markdown table row: family, tolerance, rows, converged (good), worst, flagged (bounded, within).
  std::string line(const std::string& family, double rel_tol) const {
    char tolerance[16];
    std::snprintf(tolerance, sizeof tolerance, "%.0e", rel_tol);
    return line(family, std::string(tolerance));
  }
  /// The same with the tolerance column given as text ("all" for a family's cells pooled).
  std::string line(const std::string& family, const std::string& tolerance) const {
    char text[320];
    std::snprintf(text, sizeof text, "| %s | %s | %d | %d (%d good) | %.2g | %d (%d bounded, %d within tol) | %s |",
                  family.c_str(), tolerance.c_str(), rows, converged, converged_good, worst_converged, flagged,
                  flagged_bounded, flagged_within,
                  !rule() ? "MISSED" : (cry_wolf_rule() ? "met" : "met, flags cry wolf"));
    return text;
  }
};

inline const char* tally_header() {
  return "| family | rel_tol | rows | converged (within tol and own estimate) | worst converged error / tol | "
         "flagged (estimate bounds error, within tol) | rule |";
}

/// Log-uniform in [lo, hi] with the edges lo and hi each drawn 5% of the time.
inline double log_uniform(std::mt19937_64& random, double lo, double hi) {
  const double pick = std::uniform_real_distribution<double>(0.0, 1.0)(random);
  if (pick < 0.05) return lo;
  if (pick > 0.95) return hi;
  return std::exp(std::log(lo) + (pick - 0.05) / 0.9 * (std::log(hi) - std::log(lo)));
}

/// Uniform in [lo, hi] with the edges each drawn 5% of the time.
inline double uniform_with_edges(std::mt19937_64& random, double lo, double hi) {
  const double pick = std::uniform_real_distribution<double>(0.0, 1.0)(random);
  if (pick < 0.05) return lo;
  if (pick > 0.95) return hi;
  return lo + (pick - 0.05) / 0.9 * (hi - lo);
}

// ---------------------------------------------------------------- cubature

/// Genz's closed forms over [0,1]^n with a_i = a, u_i = u (Genz 1984), in long
/// double. Corner peak with equal a_i: the n-th forward difference of
/// 1/(1 + k a) gives 1/Π_{k=1..n}(1 + k a), free of the alternating sum's cancellation.
inline long double genz_closed_form(q::CubatureFamily family, int n, long double a, long double u) {
  const long double pi = acosl(-1.0L);
  long double product = 1.0L;
  switch (family) {
    case q::cubature_family<q::GenzOscillatory>:
      return powl(2.0L * sinl(0.5L * a) / a, n) * cosl(2.0L * pi * u + 0.5L * n * a);
    case q::cubature_family<q::GenzProductPeak>:
      return powl(a * (atanl(a * (1.0L - u)) + atanl(a * u)), n);
    case q::cubature_family<q::GenzCornerPeak>:
      for (int k = 1; k <= n; ++k) product *= 1.0L + k * a;
      return 1.0L / product;
    case q::cubature_family<q::GenzGaussian>:
      return powl(sqrtl(pi) / (2.0L * a) * (erfl(a * (1.0L - u)) + erfl(a * u)), n);
    case q::cubature_family<q::GenzContinuous>:
      return powl((2.0L - expl(-a * u) - expl(-a * (1.0L - u))) / a, n);
    case q::cubature_family<q::GenzDiscontinuous>:
      return powl(expm1l(a * u) / a, 2) * powl(expm1l(a) / a, n - 2);
    default: return NAN;
  }
}

struct CubatureDraw {
  q::CubatureFamily family;
  int dim;
  double a, u;
};

/// Genz families, dimensions 2..max_dim, a over [kGenzMinA, genz_max_a(family, dim)], u over [0, 1].
inline CubatureDraw draw_cubature(std::mt19937_64& random, q::CubatureFamily family, int max_dim) {
  CubatureDraw d{family, 2 + static_cast<int>(random() % (max_dim - 1)), 0.0, 0.0};
  d.a = log_uniform(random, q::kGenzMinA, q::genz_max_a(family, d.dim));
  d.u = uniform_with_edges(random, 0.0, 1.0);
  return d;
}

/// The integrand of a draw.
inline q::CubatureIntegrand cubature_integrand(const CubatureDraw& d) {
  return q::make_cubature_integrand(d.family, d.dim, d.a, d.u);
}

/// The options of a draw at a relative tolerance and an evaluation cap.
inline q::CubatureOptions cubature_options(const CubatureDraw& d, double rel_tol, double cap) {
  q::CubatureOptions o;
  o.dim = d.dim;
  o.rel_tol = rel_tol;
  o.max_evaluations = static_cast<std::uint64_t>(cap);
  return o;
}

/// A draw's result against its closed form.
inline Row cubature_row(const CubatureDraw& d, double rel_tol, const q::CubatureResult& r) {
  const double exact = static_cast<double>(genz_closed_form(d.family, d.dim, d.a, d.u));
  return Row{r.estimate, r.error, exact, rel_tol * std::fabs(exact), static_cast<int>(r.status)};
}

/// With GEOBEM_BATTERY_VERBOSE, prints a noteworthy row (Row::noteworthy) with its draw, and
/// the degree-9 check's parts of every row that made it.
inline void print_if_noteworthy(const CubatureDraw& d, double rel_tol, const q::CubatureResult& r) {
  const Row row = cubature_row(d, rel_tol, r);
  if (verbose() && row.noteworthy())
    std::printf("  %s n=%d a=%.17g u=%.17g tol=%g: %.17g exact %.17g error %.3g status %s evals %llu\n",
                q::to_string(d.family).c_str(), d.dim, d.a, d.u, rel_tol, r.estimate, row.exact, r.error,
                geobem::to_string(r.status).c_str(), static_cast<unsigned long long>(r.evaluations));
  if (verbose() && r.checked_regions > 0)  // the degree-9 check's parts, for studies of its margin
    std::printf("  check %s n=%d a=%.6g u=%.6g tol=%g: true %.4g tolerance %.4g error %.4g status %d "
                "change %.4g abs %.4g credit %.4g rounding %.4g unchecked %.4g regions %llu\n",
                q::to_string(d.family).c_str(), d.dim, d.a, d.u, rel_tol, std::fabs(r.estimate - row.exact),
                row.tolerance, r.error, static_cast<int>(r.status), r.check_change, r.check_abs_change,
                r.check_credit, r.check_rounding, r.unchecked_error,
                static_cast<unsigned long long>(r.checked_regions));
}

/// Relative tolerances of the cubature batteries: those the honest-status
/// rule is stated for. Rows beyond what a degree-7 rule reaches within the
/// cap (1e-12 in 8D) must end flagged, with an estimate that bounds their error.
inline const double kCubatureTolerances[3] = {1e-6, 1e-10, 1e-12};

/// One cubature family's battery: prints each tolerance's line and the
/// family's pooled line, expects the honest-status rule in every cell and
/// the cry-wolf rule over the pooled cells (the file comment says why).
inline void expect_family_rules(const std::string& family, const Tally (&by_tolerance)[3]) {
  Tally pooled;
  for (int t = 0; t < 3; ++t) {
    const std::string line = by_tolerance[t].line(family, kCubatureTolerances[t]);
    std::printf("%s\n", line.c_str());
    EXPECT_TRUE(by_tolerance[t].rule()) << line;
    pooled.pool(by_tolerance[t]);
  }
  const std::string line = pooled.line(family, "all");
  std::printf("%s\n", line.c_str());
  EXPECT_TRUE(pooled.cry_wolf_rule()) << line;
  std::fflush(stdout);
}

/// Every registered family that takes a and u (Genz's six), in registration order.
inline const std::vector<q::CubatureFamily> kGenzFamilies = [] {
  std::vector<q::CubatureFamily> families;
  for (const std::string& name : q::cubature_family_names())
    if (q::is_genz_family(q::parse_cubature_family(name))) families.push_back(q::parse_cubature_family(name));
  return families;
}();

// ---------------------------------------------------------------------- 1D

/// Quad precision (GCC's __float128; arithmetic only, no libquadmath) for
/// the panel ends, phases and exponents of the 1D reference.
using Quad = __float128;

/// t − period·n for the integer n nearest t/period, in quad precision, as
/// long double (|t| up to ~1e5 here).
inline long double reduced_phase(Quad t, Quad period) {
  const Quad turns = t / period;
  const long long n = static_cast<long long>(turns + (turns >= 0 ? 0.5 : -0.5));
  return static_cast<long double>(t - period * static_cast<Quad>(n));
}

/// e^{t} for t in quad precision: e^{high}·(1 + low), high + low = t.
inline long double exp_quad(Quad t) {
  const long double high = static_cast<long double>(t);
  return expl(high) * (1.0L + static_cast<long double>(t - high));
}

/// One 1D family near a panel start `a`: f(a + d) for a small offset d in
/// long double. The parts of the phase and the exponent at `a` are formed in
/// quad precision and reduced once per panel, so that neither the node's
/// rounding to long double (up to 5e-20·|x|, which moves nodes and opens
/// gaps between panels: ~5e-18 of ∫|f| on 2,000 panels) nor a phase of
/// hundreds of radians enters the values; what is left is long double's
/// rounding of each value, ~1e-19 of it.
struct PanelIntegrand1D {
  const q::Integrand1D& f;
  long double x;          ///< a rounded to long double (only where a relative error of the value follows)
  long double phase;      ///< the phase at a, reduced (radians, or units of π for exp_cos and sinc)
  long double growth;     ///< e^{p0 a} (exp_sin) or e^{−p0 a} (exp_cos)
  long double shifted;    ///< a − p2 (poly_cos)

  PanelIntegrand1D(const q::Integrand1D& integrand, Quad a) : f(integrand), x(static_cast<long double>(a)) {
    const Quad two_pi = 2 * 3.14159265358979323846264338327950288Q;
    const Quad p0 = f.p[0], p1 = f.p[1];
    switch (f.family) {
      case q::integrand_1d_family<q::ExpSin>: phase = reduced_phase(p1 * a, two_pi), growth = exp_quad(p0 * a); break;
      case q::integrand_1d_family<q::PolyCos>: phase = reduced_phase(p1 * a, two_pi), shifted = static_cast<long double>(a - f.p[2]); break;
      case q::integrand_1d_family<q::ExpCos>: phase = reduced_phase(p1 * a, 2), growth = exp_quad(-p0 * a); break;
      case q::integrand_1d_family<q::Sinc>: phase = reduced_phase(p0 * a, 2); break;
    }
  }

  long double operator()(long double d) const {
    const long double pi = acosl(-1.0L);
    const long double p0 = f.p[0], p1 = f.p[1];
    switch (f.family) {
      case q::integrand_1d_family<q::ExpSin>: return growth * expl(p0 * d) * sinl(phase + p1 * d);
      case q::integrand_1d_family<q::PolyCos>: {
        const long double parabola = (shifted + d) * (shifted + d);
        return p0 * (x + d) * cosl(phase + p1 * d) - parabola;
      }
      case q::integrand_1d_family<q::ExpCos>: return growth * expl(-p0 * d) * cosl(pi * (phase + p1 * d));
      case q::integrand_1d_family<q::Sinc>: {
        const long double at = x + d;
        return at == 0.0L ? p0 : sinl(pi * (phase + p0 * d)) / (pi * at);
      }
    }
    return NAN;
  }
};

/// 30-point Gauss–Legendre nodes and weights on [−1, 1]: Newton on P_30 from
/// Chebyshev guesses in quad precision, rounded to long double (in long
/// double itself the weights next to ±1 err by ~5e-18).
struct GaussLegendre30 {
  long double node[30], weight[30];
  GaussLegendre30() {
    const int n = 30;
    const long double pi = acosl(-1.0L);
    for (int i = 0; i < n; ++i) {
      Quad x = cosl(pi * (i + 0.75L) / (n + 0.5L)), derivative = 0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        Quad p0 = 1, p1 = x;
        for (int k = 2; k <= n; ++k) {
          const Quad p = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
          p0 = p1;
          p1 = p;
        }
        derivative = n * (x * p1 - p0) / (x * x - 1);
        const Quad step = p1 / derivative;
        x -= step;
        if (step < 1e-32Q && step > -1e-32Q) break;
      }
      node[i] = static_cast<long double>(x);
      weight[i] = static_cast<long double>(2 / ((1 - x * x) * derivative * derivative));
    }
  }
};

/// ∫_a^b f by composite 30-point Gauss–Legendre, panels no wider than 1
/// radian of phase or 1 e-fold of growth (or 1/30 of the interval), their
/// ends in quad precision, each panel's nodes as offsets from its start
/// (PanelIntegrand1D), the panels summed with Kahan compensation: an
/// independent reference, accurate far beyond 1e-12 relative to ∫|f|
/// (checked against mpmath's antiderivatives in bench/RESULTS.md).
inline long double reference_1d(const q::Integrand1D& f, double lower, double upper) {
  static const GaussLegendre30 rule;
  double rate = 1.0;  // phase or growth per unit length
  switch (f.family) {
    case q::integrand_1d_family<q::ExpSin>: rate = std::fabs(f.p[0]) + std::fabs(f.p[1]); break;
    case q::integrand_1d_family<q::PolyCos>: rate = std::fabs(f.p[1]) + 1.0 / (1.0 + std::fabs(upper - lower)); break;
    case q::integrand_1d_family<q::ExpCos>: rate = std::fabs(f.p[0]) + geobem::kPi * std::fabs(f.p[1]); break;
    case q::integrand_1d_family<q::Sinc>: rate = geobem::kPi * std::fabs(f.p[0]) + 1.0; break;
  }
  const long long panels =
      static_cast<long long>(std::max(30.0L, ceill((static_cast<long double>(upper) - lower) * rate)));
  const Quad h = (static_cast<Quad>(upper) - static_cast<Quad>(lower)) / panels;
  const long double half = static_cast<long double>(h / 2);
  long double sum = 0.0L, compensation = 0.0L;
  for (long long k = 0; k < panels; ++k) {
    const PanelIntegrand1D panel_f(f, static_cast<Quad>(lower) + k * h);
    long double panel = 0.0L;
    for (int i = 0; i < 30; ++i) panel += rule.weight[i] * panel_f(half * (1.0L + rule.node[i]));
    const long double y = half * panel - compensation;
    const long double t = sum + y;
    compensation = (t - sum) - y;
    sum = t;
  }
  return sum;
}

/// Every registered 1D family, in registration order.
inline const std::vector<q::Integrand1DFamily> kFamilies1D = [] {
  std::vector<q::Integrand1DFamily> families;
  for (const q::Integrand1DDescription& description : q::integrand_1d_families()) families.push_back(description.family);
  return families;
}();

/// A 1D problem over the documented ranges of its family (adaptive_1d_state.hpp):
/// limits within ±kMaxLimit1D, width log-uniform down to 1e-3; rates log-uniform
/// over their decades with random sign where the sign is allowed.
inline q::Problem1D draw_1d(std::mt19937_64& random, q::Integrand1DFamily family) {
  const q::Integrand1DRanges r = q::integrand_1d_ranges(family);
  q::Problem1D p;
  p.integrand.family = family;
  const auto sign = [&] { return (random() & 1) ? 1.0 : -1.0; };
  for (int k = 0; k < 3; ++k) {
    if (r.max[k] <= 0.0) {
      p.integrand.p[k] = 0.0;
    } else if (r.min_magnitude[k] > 0.0) {
      p.integrand.p[k] = log_uniform(random, r.min_magnitude[k], r.max[k]) * (r.signed_parameter[k] ? sign() : 1.0);
    } else {
      p.integrand.p[k] = uniform_with_edges(random, -r.max[k], r.max[k]);
    }
  }
  const double limit = q::exp_family_limit(p.integrand);
  const double width = log_uniform(random, 1e-3, 2.0 * limit);
  p.lower = uniform_with_edges(random, -limit, limit - width);
  p.upper = std::min(limit, p.lower + width);
  return p;
}

}  // namespace geobem::battery
