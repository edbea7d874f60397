#pragma once
// Longman's method for one oscillatory improper integral int_a^inf f(x) dx,
// as a GEOBEM_HD template over an integrand functor: the CUDA launcher
// (longman_cuda.cuh) and the OpenMP driver (longman_cpu.hpp) both call
// integrate_one() for each integral of a batch: longman_integrate() unless the
// family brings its own (halfspace_disk.hpp).
//
// Method (Longman 1956; Mesquita & Labaki 2009; docs/references.md#longman):
//   int_a^inf f = int_a^{x_0} f + sum_n V_n,   V_n = int_{x_n}^{x_{n+1}} f,
// x_n the zeros of the oscillating factor (the family's partition), each V_n by
// Gauss-Legendre on one or more panels, the sum accelerated by Euler's
// transformation (Longman), Wynn's epsilon or Sidi's mW (accelerators.hpp).
// Areas are added until the accelerator's error estimate meets the tolerance
// (after at least min_areas) or max_areas is reached.
//
// Integrand functor concept (a library user writes one per family):
//   GEOBEM_HD double operator()(double x) const;   // f(x)
//   GEOBEM_HD double lower() const;                // a
//   GEOBEM_HD double partition(int n) const;       // x_n, n >= 0, increasing, x_0 >= a, x_n > 0
//   GEOBEM_HD double panel_width(double x) const;  // widest Gauss panel starting at x (> 0)
//   GEOBEM_HD double decay_length() const;         // L: |f(x)| <= C e^{-(x-a)/L} (1 + x), HUGE_VAL if not damped
// and, for the parameter-table drivers (longman_integrate_cuda_rows):
//   GEOBEM_HD static F from_parameters(const double* row);
#include <cmath>
#include <cstdint>

#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/core/integration_status.hpp"
#include "gpu/transform/accelerators.hpp"
#include "gpu/transform/checked_area.hpp"

namespace geobem::transform {

/// Largest number of half-cycle areas one integral may use (fixes the
/// per-integral scratch storage on the device).
constexpr int kMaxAreas = 256;
/// Largest Gauss-Legendre order.
constexpr int kMaxGaussOrder = 64;
/// Decay lengths after which a damped integrand is dropped: e^{-60} = 9e-27,
/// far below double rounding even with the (1 + x) growth the concept allows.
constexpr double kDecayLengths = 60.0;

enum class Accelerator : std::int32_t { Euler = 0, Epsilon = 1, SidiMW = 2 };

// Statuses (geobem::IntegrationStatus): Converged (error <= tolerance);
// EvaluationCapReached (max_areas used, value the best estimate, error the
// accelerator's); RoundingLimited (the rounding floor alone exceeds the
// tolerance; error is that floor plus the accelerator's); ExtrapolationUnreliable
// (the accelerator's value was not finite: value is the plain partial sum, error
// its last area); NonFinite (an area was NaN or infinite).

/// Gauss-Legendre nodes and weights on [-1, 1], by value (fits a kernel argument).
struct GaussRule {
  int order = 0;
  double nodes[kMaxGaussOrder];
  double weights[kMaxGaussOrder];
};

struct LongmanOptions {
  Accelerator accelerator = Accelerator::Euler;
  double relative_tolerance = 1e-12;  ///< converged when error <= max(relative * |value|, absolute)
  double absolute_tolerance = 0.0;
  int min_areas = 4;                  ///< areas always used (min_areas = max_areas: fixed N as in the paper)
  int max_areas = 200;                ///< cap, <= kMaxAreas
};

struct LongmanResult {
  double value;        ///< the integral
  double error;        ///< the accelerator's error estimate (absolute)
  std::int32_t evaluations;  ///< integrand evaluations
  std::int32_t areas;        ///< half-cycle areas used
  IntegrationStatus status;
};

/// Milliseconds one batch spent on the device (CUDA events; zero on the CPU).
/// upload_ms, kernel_ms, download_ms: each phase summed over the batch's
/// chunks. The chunks run on concurrent streams, so one chunk's kernel
/// interval also covers the time other chunks' kernels held the GPU, and
/// kernel_ms exceeds the kernel work by up to the number of chunks in flight.
/// kernel_span_ms: from the first chunk's kernel start to the last chunk's
/// kernel end, the figure to set beside one launch over the whole batch;
/// device_span_ms: from the first upload's start to the last download's end.
struct LongmanTimings {
  double upload_ms = 0.0, kernel_ms = 0.0, download_ms = 0.0;
  double kernel_span_ms = 0.0, device_span_ms = 0.0;
};

/// True for finite x (false for NaN and +-inf); the same on host and device.
GEOBEM_HD inline bool is_finite(double x) { return fabs(x) <= 1.7976931348623157e308; }

/// int_lo^hi f by the Gauss rule on panels no wider than f.panel_width at
/// their left end (the last panel stretches to hi when less than half a panel
/// would be left, or when kMaxPanels are used); adds the evaluations.
template <class F>
GEOBEM_HD double gauss_area(const F& f, const GaussRule& rule, double lo, double hi, int& evaluations) {
  double total = 0.0, left = lo;
  for (int panel = 0; left < hi; ++panel) {
    const double width = f.panel_width(left);
    const double right = (hi - left <= 1.5 * width || panel == kMaxPanels - 1) ? hi : left + width;
    const double center = 0.5 * (left + right), half = 0.5 * (right - left);
    double sum = 0.0;
    for (int i = 0; i < rule.order; ++i) sum += rule.weights[i] * f(center + half * rule.nodes[i]);
    total += half * sum;
    evaluations += rule.order;
    left = right;
  }
  return total;
}

/// Rounding floor of the sum, in units of eps * sqrt(sum_n ((1 + (n + 1) pi) V_n)^2):
/// the node x is rounded to eps |x|, which moves the phase of area n by about
/// eps (n + 1) pi, and a 16-point Gauss sum averages those errors down to
/// about 0.12 of that (weights' root-sum-square x rounding's spread); 0.3
/// bounds the true error of 99% of the weakly damped exp-cos and hankel-exp
/// rows of bench/transform/longman_battery.
constexpr double kRoundingFactor = 0.3;
/// Ulps of the value added to the floor: the final sums' own rounding.
constexpr double kValueUlps = 8.0;
/// Ratio p of the geometric allowances of checked areas (QUADPACK's QAWF: 0.9).
constexpr double kAreaShareRatio = 0.9;

/// Double precision's unit roundoff ε (2^-52).
constexpr double kDoubleEpsilon = 2.220446049250313e-16;

/// Rounding floor of a sum of areas: the integrand at a rounded node x carries
/// an error of about eps * |x f'(x)|, i.e. eps * (phase) * |f| with a phase of
/// about (n + 1) pi in area n, so cancellation between areas bounds the
/// attainable absolute accuracy. Those errors are uncorrelated between nodes
/// and areas, so they add in quadrature (magnitude_squared, the sum of the
/// squared weighted areas); the final sum's own rounding is added.
GEOBEM_HD inline double rounding_floor(double magnitude_squared, double partial) {
  return kRoundingFactor * kDoubleEpsilon * sqrt(magnitude_squared) + kValueUlps * kDoubleEpsilon * fabs(partial);
}

/// The areas of one integral: Gauss panels (gauss_area), or with kCheckedAreas
/// checked_area with each area's geometric share of the tolerance, whose own
/// errors are summed in `errors`.
template <bool kCheckedAreas, class F>
struct LongmanAreas {
  // Checked areas: the sum of their own errors, the next one's share of the
  // tolerance, and the scale the relative tolerance applies to: the running
  // value, or the last area where that is larger (the first area, or the
  // interval before it, is most of the integral so far; before it, a Gauss
  // value over the whole first interval stands in).
  double errors = 0.0;
  double allowance_factor = 0.5 * (1.0 - kAreaShareRatio);
  double last_area = 0.0, area_before = 0.0;

  /// int_lo^hi f; `running` is the value so far; adds the evaluations.
  GEOBEM_HD double operator()(const F& f, const GaussRule& rule, const LongmanOptions& options, double lo, double hi,
                              double running, int& evaluations) {
    if constexpr (!kCheckedAreas) {
      return gauss_area(f, rule, lo, hi, evaluations);
    } else {
      if (last_area == 0.0) {
        double magnitude;
        last_area = gauss_piece(f, rule, lo, hi, &magnitude);
        evaluations += rule.order;
      }
      const double scale = fmax(fabs(running), fabs(last_area));
      const double allowance =
          allowance_factor * fmax(options.relative_tolerance * scale, options.absolute_tolerance);
      allowance_factor *= kAreaShareRatio;
      double error;
      area_before = last_area;
      last_area = checked_area(f, rule, lo, hi, allowance, evaluations, &error);
      errors += error;
      return last_area;
    }
  }

  /// Whether the areas have reached their tail. An expression's areas have
  /// only once they shrink: before a peak of the rest (e^{-b|x - c|} with c
  /// many half cycles out, or a rest that is 0 up to c) the first areas are
  /// tiny or growing, and an accelerator on them converges to the wrong value.
  GEOBEM_HD bool in_tail(double area) const {
    return !kCheckedAreas || (area != 0.0 && fabs(area) <= fabs(area_before));
  }
};

/// The result of a damped integral whose areas end at its cutoff: the plain
/// sum int_a^cutoff, its error the rounding floor and the areas' own errors.
GEOBEM_HD inline LongmanResult plain_sum_result(double partial, double magnitude_squared, double area_errors,
                                                int areas, const LongmanOptions& options) {
  const double rounding = rounding_floor(magnitude_squared, partial);
  const double tolerance = fmax(options.relative_tolerance * fabs(partial), options.absolute_tolerance);
  const IntegrationStatus status = !is_finite(partial)                   ? IntegrationStatus::NonFinite
                                   : rounding + area_errors <= tolerance ? IntegrationStatus::Converged
                                   : rounding > tolerance                ? IntegrationStatus::RoundingLimited
                                                                         : IntegrationStatus::NotConverged;
  return LongmanResult{partial, rounding + area_errors, 0, areas, status};
}

/// Adds one area, over [x_low, next zero), to the chosen accelerator and to
/// `partial` (int_a^{x_n} before, int_a^{x_{n+1}} after); `initial` is
/// int_a^{x_0}. Sets the accelerated value and its error estimate.
GEOBEM_HD inline void accelerate(Accelerator accelerator, EulerSum& euler, WynnEpsilon& epsilon, SidiMW& sidi,
                                 double initial, double x_low, double area, double& partial, double& value,
                                 double& error) {
  switch (accelerator) {
    case Accelerator::Euler:
      euler.add(area);
      value = initial + euler.value();
      error = euler.error();
      partial += area;
      break;
    case Accelerator::Epsilon:
      partial += area;
      epsilon.add(partial);
      value = epsilon.value();
      error = epsilon.error();
      break;
    default:
      sidi.add(x_low, partial, area);
      partial += area;
      value = sidi.value();
      error = sidi.error();
      break;
  }
}

/// The status that ends the sum after area n (past min_areas, in the tail),
/// or EvaluationCapReached to go on: converged; rounding-limited where the
/// accelerator's error is far below the rounding floor (more areas cannot
/// help); not converged where the areas already summed are off by more than
/// the tolerance (a pole or kink their bisection could not resolve).
GEOBEM_HD inline IntegrationStatus ending_status(double total_error, double accelerator_error, double rounding,
                                                 double area_errors, double tolerance, int n) {
  if (total_error <= tolerance) return IntegrationStatus::Converged;
  if (accelerator_error <= 0.1 * rounding && n >= 4) return IntegrationStatus::RoundingLimited;
  if (area_errors > tolerance && accelerator_error <= 0.1 * area_errors && n >= 4)
    return IntegrationStatus::NotConverged;
  return IntegrationStatus::EvaluationCapReached;
}

/// One integral int_{f.lower()}^inf f(x) dx by Longman's method with the chosen
/// accelerator. Options must be valid (validate_options in transform.hpp).
/// Damped integrands stop at a + kDecayLengths f.decay_length(): when that
/// point comes before the accelerator has converged (decay much faster than
/// the oscillation) the value is the plain sum of the areas up to it, over
/// panels that resolve the decay, since the concept's envelope bound leaves
/// less than e^-60 beyond; extrapolating areas that a short decay never fills
/// is what fails there (docs/references.md#longman).
/// kCheckedAreas: each area by checked_area (checked_area.hpp), its error
/// added to the accelerator's, for integrands (a user's expression) whose
/// smoothness over a half cycle is not known; the built-in families' panels
/// are designed for them and measured (bench/transform/longman_battery).
/// Area n's allowance is QAWF's geometric share (1 − p)p^n, p = 0.9, of half
/// the tolerance of the running value, so that the areas' errors sum to at
/// most half of it.
template <bool kCheckedAreas = false, class F>
GEOBEM_HD LongmanResult longman_integrate(const F& f, const GaussRule& rule, const LongmanOptions& options) {
  double scratch[3 * (kMaxAreas + 1)];
  EulerSum euler(scratch);
  WynnEpsilon epsilon(scratch);
  SidiMW sidi(scratch, kMaxAreas + 1);

  LongmanResult result{0.0, HUGE_VAL, 0, 0, IntegrationStatus::EvaluationCapReached};
  int evaluations = 0;
  const double a = f.lower();
  const double cutoff = a + kDecayLengths * f.decay_length();
  double x_low = fmin(f.partition(0), cutoff);
  LongmanAreas<kCheckedAreas, F> area_of;
  const double initial = x_low > a ? area_of(f, rule, options, a, x_low, 0.0, evaluations) : 0.0;
  double partial = initial;  // int_a^{x_n}
  double magnitude_squared = initial * initial;
  if (x_low >= cutoff) result = plain_sum_result(partial, magnitude_squared, area_of.errors, 0, options);
  for (int n = 0; n < options.max_areas && x_low < cutoff; ++n) {
    const double x_high = fmin(f.partition(n + 1), cutoff);
    const double area = area_of(f, rule, options, x_low, x_high, partial, evaluations);
    const double weighted = (1.0 + (n + 1) * kPi) * area;
    magnitude_squared += weighted * weighted;
    if (x_high >= cutoff) {
      partial += area;
      result = plain_sum_result(partial, magnitude_squared, area_of.errors, n + 1, options);
      break;
    }
    double value, error;
    accelerate(options.accelerator, euler, epsilon, sidi, initial, x_low, area, partial, value, error);
    x_low = x_high;
    const double rounding = rounding_floor(magnitude_squared, partial);
    result.areas = n + 1;
    if (!is_finite(area) || !is_finite(partial)) {  // this area, or the first interval before the partition
      result.value = value;
      result.error = HUGE_VAL;
      result.status = IntegrationStatus::NonFinite;
      break;
    }
    if (!is_finite(value) || error != error) {
      // The accelerator broke down (a division by a vanishing difference):
      // report the plain partial sum, whose error is about the next area.
      result.value = partial;
      result.error = fabs(area) + rounding + area_of.errors;
      result.status = IntegrationStatus::ExtrapolationUnreliable;
      if (n + 1 < options.max_areas) continue;
      break;
    }
    result.value = value;
    result.error = error + rounding + area_of.errors;
    result.status = IntegrationStatus::EvaluationCapReached;
    const double tolerance = fmax(options.relative_tolerance * fabs(value), options.absolute_tolerance);
    if (n + 1 >= options.min_areas && area_of.in_tail(area)) {
      result.status = ending_status(result.error, error, rounding, area_of.errors, tolerance, n);
      if (result.status != IntegrationStatus::EvaluationCapReached) break;
    }
  }
  result.evaluations = evaluations;
  return result;
}

/// One integral of a batch: longman_integrate, unless the functor's family
/// declares its own integrate_one overload in this namespace (found by
/// argument-dependent lookup at the drivers' call; the half-space disk kernel
/// splits near its rim, halfspace_disk.hpp).
template <class F>
GEOBEM_HD LongmanResult integrate_one(const F& f, const GaussRule& rule, const LongmanOptions& options) {
  return longman_integrate(f, rule, options);
}

}  // namespace geobem::transform
