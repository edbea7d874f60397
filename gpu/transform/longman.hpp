#pragma once
// Longman's method for one oscillatory improper integral int_a^inf f(x) dx,
// as a GEOBEM_HD template over an integrand functor: the CUDA launcher
// (longman_cuda.cuh) and the OpenMP driver (longman_cpu.hpp) both call
// longman_integrate() for each integral of a batch.
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
//   GEOBEM_HD int panels(double lo, double hi) const;  // Gauss panels for [lo, hi] (>= 1)
// and, for the parameter-table drivers (longman_integrate_cuda_rows):
//   GEOBEM_HD static F from_parameters(const double* row);
#include <cmath>
#include <cstdint>

#include "gpu/core/host_device.hpp"
#include "gpu/transform/accelerators.hpp"

namespace geobem::transform {

/// Largest number of half-cycle areas one integral may use (fixes the
/// per-integral scratch storage on the device).
constexpr int kMaxAreas = 256;
/// Largest Gauss-Legendre order.
constexpr int kMaxGaussOrder = 64;

enum class Accelerator : std::int32_t { Euler = 0, Epsilon = 1, SidiMW = 2 };

enum class LongmanStatus : std::int32_t {
  Converged = 0,   ///< error estimate <= tolerance
  CapReached = 1,  ///< max_areas used without meeting the tolerance (value is the best estimate)
  NonFinite = 2,   ///< an area or the accelerated sum was NaN or infinite
  RoundingLimited = 3,  ///< the accelerator's error fell below the rounding floor, which alone exceeds the tolerance
};

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
  LongmanStatus status;
};

/// Milliseconds one batch spent on the device (CUDA events; zero on the CPU),
/// each phase summed over the batch's chunks, whose phases overlap.
struct LongmanTimings {
  double upload_ms = 0.0, kernel_ms = 0.0, download_ms = 0.0;
};

/// True for finite x (false for NaN and +-inf); the same on host and device.
GEOBEM_HD inline bool is_finite(double x) { return fabs(x) <= 1.7976931348623157e308; }

/// int_lo^hi f by the Gauss rule on `panels` equal panels; adds the evaluations.
template <class F>
GEOBEM_HD double gauss_area(const F& f, const GaussRule& rule, double lo, double hi, int panels, int& evaluations) {
  const double width = (hi - lo) / panels;
  double total = 0.0;
  for (int p = 0; p < panels; ++p) {
    const double center = lo + (p + 0.5) * width, half = 0.5 * width;
    double sum = 0.0;
    for (int i = 0; i < rule.order; ++i) sum += rule.weights[i] * f(center + half * rule.nodes[i]);
    total += half * sum;
  }
  evaluations += panels * rule.order;
  return total;
}

/// One integral int_{f.lower()}^inf f(x) dx by Longman's method with the chosen
/// accelerator. Options must be valid (validate_options in transform.hpp).
template <class F>
GEOBEM_HD LongmanResult longman_integrate(const F& f, const GaussRule& rule, const LongmanOptions& options) {
  double scratch[3 * (kMaxAreas + 1)];
  EulerSum euler(scratch);
  WynnEpsilon epsilon(scratch);
  SidiMW sidi(scratch, kMaxAreas + 1);

  LongmanResult result{0.0, HUGE_VAL, 0, 0, LongmanStatus::CapReached};
  int evaluations = 0;
  const double a = f.lower();
  double x_low = f.partition(0);
  const double initial = x_low > a ? gauss_area(f, rule, a, x_low, f.panels(a, x_low), evaluations) : 0.0;
  double partial = initial;  // int_a^{x_n}
  // Rounding floor: the integrand at a rounded node x carries an error of
  // about eps * |x f'(x)|, i.e. eps * (phase) * |f| with a phase of about
  // (n + 1) pi in area n, so cancellation between areas bounds the attainable
  // absolute accuracy. Those errors are uncorrelated between nodes and areas,
  // so they add in quadrature: floor = 2 eps sqrt(sum_n ((1 + (n + 1) pi) V_n)^2).
  const double pi = 3.14159265358979323846;
  double magnitude_squared = 4.0 * initial * initial;
  for (int n = 0; n < options.max_areas; ++n) {
    const double x_high = f.partition(n + 1);
    const double area = gauss_area(f, rule, x_low, x_high, f.panels(x_low, x_high), evaluations);
    const double weighted = (1.0 + (n + 1) * pi) * area;
    magnitude_squared += weighted * weighted;
    double value, error;
    switch (options.accelerator) {
      case Accelerator::Euler:
        euler.add(area);
        value = initial + euler.value();
        error = euler.error();
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
    x_low = x_high;
    const double rounding = 2.0 * 2.220446049250313e-16 * sqrt(magnitude_squared);
    result.value = value;
    result.error = error + rounding;
    result.areas = n + 1;
    if (!is_finite(area) || !is_finite(value)) {
      result.status = LongmanStatus::NonFinite;
      break;
    }
    const double tolerance = fmax(options.relative_tolerance * fabs(value), options.absolute_tolerance);
    if (n + 1 >= options.min_areas) {
      if (result.error <= tolerance) {
        result.status = LongmanStatus::Converged;
        break;
      }
      if (error <= 0.1 * rounding && n >= 4) {  // more areas cannot help
        result.status = LongmanStatus::RoundingLimited;
        break;
      }
    }
  }
  result.evaluations = evaluations;
  return result;
}

}  // namespace geobem::transform
