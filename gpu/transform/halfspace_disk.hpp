#pragma once
// The half-space disk kernel int_0^inf J1(k a) J0(k r) / k dk for Longman's
// method, with its own integrate_one: near the rim (r/a in [kRimLow, kRimHigh])
// the product J1(ak) J0(rk) beats with frequencies a + r and |a - r|, its
// areas between zeros of either factor stop alternating and every
// accelerator's error estimate goes wrong. There the integral is split as in
// Lucas (J. Comput. Appl. Math. 64 (1995) 269-282) for products of Bessel
// functions: past k0 = 20 / min(a, r),
//   J1(ak) J0(rk) = (J1 J0 - Y1 Y0)/2 + (J1 J0 + Y1 Y0)/2,
// two terms that each behave like one sinusoid, of frequency a + r and a - r,
// times a smooth amplitude; each is integrated by Longman's method with
// partition points spaced by its own half period, and [0, k0] directly.
#include <cmath>

#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/transform/bessel.hpp"
#include "gpu/transform/family_trait.hpp"
#include "gpu/transform/longman.hpp"

namespace geobem::transform {

/// Half-space kernel of a uniform pressure on a disk of radius a_disk seen at
/// radius r: int_0^inf J1(k a) J0(k r) / k dk (Timoshenko & Goodier; the
/// vertical surface displacement is 2(1-nu^2) p a / E times this). a > 0, r >= 0.
/// Partition: zeros of the faster factor, J0(k r) for r > a, else J1(k a)
/// (away from the rim; near it, integrate_one below splits the integral).
struct HalfSpaceDisk {
  static constexpr const char* name = "halfspace-disk";
  static constexpr const char* parameter_names[] = {"a", "r"};
  static constexpr const char* integral = "int_0^inf J1(k a) J0(k r) / k dk: disk load on a half-space";
  /// Scale a, ratio r/a (r = 0 also allowed).
  static constexpr ParameterRange range{1e-6, 1e6, 1e-3, 1e3};
  static constexpr const char* range_text = "1e-6 <= a <= 1e6; r = 0 or 1e-3 <= r/a <= 1e3 (the rim r = a included)";
#if !defined(__CUDACC_RTC__)
  static std::string check(const double* p) {
    std::string problem = outside_range("a", p[0], range.scale_min, range.scale_max);
    if (problem.empty() && p[1] != 0.0) problem = outside_range("r/a", p[1] / p[0], range.ratio_min, range.ratio_max, " (or r = 0)");
    return problem;
  }
#endif
  double a, r;
  /// From a parameter row (a, r).
  GEOBEM_HD static HalfSpaceDisk from_parameters(const double* p) { return {p[0], p[1]}; }
  GEOBEM_HD double operator()(double k) const {
    if (k == 0.0) return 0.5 * a;  // J1(ka)/k -> a/2
    double j0a, j1a, j0r, j1r;
    bessel_j01(k * a, j0a, j1a);
    bessel_j01(k * r, j0r, j1r);
    return j1a * j0r / k;
  }
  GEOBEM_HD double lower() const { return 0.0; }
  GEOBEM_HD double partition(int n) const {
    return r > a ? bessel_zero(0, n + 1) / r : bessel_zero(1, n + 1) / a;
  }
  GEOBEM_HD double panel_width(double) const { return HUGE_VAL; }
  GEOBEM_HD double decay_length() const { return HUGE_VAL; }
};

/// r/a range in which integrate_one splits the half-space kernel (outside it
/// the zeros of the faster factor give alternating areas: measured with
/// bench/transform/longman_battery).
constexpr double kRimLow = 0.5, kRimHigh = 2.0;
/// Arguments a k, r k above which Hankel's expansion (bessel_hankel_pq) is used.
constexpr double kAsymptoticArgument = 20.0;

/// One of the two single-frequency terms of J1(ak) J0(rk)/k past k0 (see the
/// file comment), from Hankel's expansions with A = 2/(pi k sqrt(a r)),
/// s = a + r, d = a - r, P_1, Q_1 at ak and P_0, Q_0 at rk:
///   (J1 J0 - Y1 Y0)/(2k) = A/(2k) [-(P1 P0 - Q1 Q0) cos(s k) + (P1 Q0 + Q1 P0) sin(s k)],
///   (J1 J0 + Y1 Y0)/(2k) = A/(2k) [ (P1 P0 + Q1 Q0) sin(d k) - (P1 Q0 - Q1 P0) cos(d k)]
/// (the product formulas of cos/sin with chi_1 + chi_0 = s k - pi and
/// chi_1 - chi_0 = d k - pi/2). d k is formed from d = a - r, exact near the
/// rim, so the slow phase carries no cancellation. Partition points
/// k0 + (n + 1) pi / frequency (equally spaced half periods: what mW and the
/// epsilon algorithm need, Sidi 1988); for d = 0 the slow term does not
/// oscillate and decays like k^-3, so the spacing is capped at 1e14 / (a + r)
/// and the first area holds it all.
struct BesselProductTerm {
  double a, r, k0;
  bool sum_frequency;  ///< true: frequency a + r; false: a - r
  GEOBEM_HD double frequency() const {
    const double f = sum_frequency ? a + r : fabs(a - r);
    return fmax(f, 1e-14 * (a + r));
  }
  GEOBEM_HD double operator()(double k) const {
    double p1[2], q1[2], p0[2], q0[2];
    bessel_hankel_pq(a * k, p1, q1);
    bessel_hankel_pq(r * k, p0, q0);
    const double half_amplitude = 1.0 / (kPi * k * k * sqrt(a * r));
    const double pp = p1[1] * p0[0], qq = q1[1] * q0[0], pq = p1[1] * q0[0], qp = q1[1] * p0[0];
    if (sum_frequency) {
      const double phase = (a + r) * k;
      return half_amplitude * (-(pp - qq) * cos(phase) + (pq + qp) * sin(phase));
    }
    const double phase = (a - r) * k;
    return half_amplitude * ((pp + qq) * sin(phase) - (pq - qp) * cos(phase));
  }
  GEOBEM_HD double lower() const { return k0; }
  GEOBEM_HD double partition(int n) const { return k0 + (n + 1) * kPi / frequency(); }
  /// Half the distance to k = 0 (where the expansion's amplitude is singular)
  /// and at most a half period.
  GEOBEM_HD double panel_width(double k) const { return fmin(0.5 * k, kPi / frequency()); }
  GEOBEM_HD double decay_length() const { return HUGE_VAL; }
};

/// int_0^k0 J1(ak) J0(rk)/k dk: panels of half a period of the faster factor.
struct HalfSpaceDiskHead {
  HalfSpaceDisk kernel;
  double k0;
  GEOBEM_HD double operator()(double k) const { return kernel(k); }
  GEOBEM_HD double panel_width(double) const {
    return kPi / fmax(kernel.a, kernel.r);
  }
};

/// The half-space kernel: Longman's method on the zeros of the faster factor
/// away from the rim (with Wynn's epsilon where mW was asked for); near it, the head [0, k0] by Gauss panels plus the two
/// single-frequency terms, each by Longman's method with the chosen
/// accelerator, to a quarter of the tolerance each (the head's value, within a
/// few per cent of the total, sets the relative scale). Error: the sum of the
/// three; status: converged when that sum meets the tolerance, else the first
/// term's failure.
GEOBEM_HD inline LongmanResult integrate_one(const HalfSpaceDisk& f, const GaussRule& rule,
                                             const LongmanOptions& options) {
  const double ratio = f.r / f.a;
  if (!(ratio >= kRimLow && ratio <= kRimHigh)) {
    // Sidi's mW presumes one frequency and, on the zeros of one factor of a
    // two-frequency product, its estimate goes wrong (bench/transform/
    // longman_battery: a fifth of converged rows off); Wynn's epsilon does not.
    LongmanOptions single = options;
    if (single.accelerator == Accelerator::SidiMW) single.accelerator = Accelerator::Epsilon;
    return longman_integrate(f, rule, single);
  }
  const double k0 = kAsymptoticArgument / fmin(f.a, f.r);
  int evaluations = 0;
  const HalfSpaceDiskHead head{f, k0};
  const double head_value = gauss_area(head, rule, 0.0, k0, evaluations);
  const double eps = 2.220446049250313e-16;
  LongmanOptions part = options;
  part.relative_tolerance = 1e-300;  // the absolute share below decides
  part.absolute_tolerance = 0.25 * fmax(options.relative_tolerance * fabs(head_value), options.absolute_tolerance);
  const LongmanResult fast = longman_integrate(BesselProductTerm{f.a, f.r, k0, true}, rule, part);
  const LongmanResult slow = longman_integrate(BesselProductTerm{f.a, f.r, k0, false}, rule, part);
  LongmanResult result;
  result.value = head_value + fast.value + slow.value;
  result.error = 16.0 * eps * fabs(head_value) + fast.error + slow.error;
  result.evaluations = evaluations + fast.evaluations + slow.evaluations;
  result.areas = fast.areas + slow.areas;
  const double tolerance = fmax(options.relative_tolerance * fabs(result.value), options.absolute_tolerance);
  result.status = !is_finite(result.value)                         ? IntegrationStatus::NonFinite
                  : result.error <= tolerance                       ? IntegrationStatus::Converged
                  : fast.status != IntegrationStatus::Converged     ? fast.status
                  : slow.status != IntegrationStatus::Converged     ? slow.status
                                                                    : IntegrationStatus::NotConverged;
  return result;
}

}  // namespace geobem::transform
