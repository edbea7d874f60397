#pragma once
// Bessel functions J0, J1, J_n, Y0, Y1 of real argument and the zeros of
// J0, J1, as GEOBEM_HD functions (host and device from one source), accurate
// to about 1e-15 absolute (J_n, Y0, Y1: relative to the largest of their
// neighbours' size) for every x.
//
// Method (no library on the device has them at this accuracy):
//  - |x| < 20: Miller's backward recurrence J_{n-1} = (2n/x) J_n - J_{n+1}
//    started far above the order, normalised by 1 = J0 + 2 sum_k J_{2k}
//    (Abramowitz & Stegun 9.1.27 and 9.1.46; Miller's algorithm, e.g.
//    Gautschi, SIAM Review 9 (1967) 24-82).
//  - |x| >= 20: Hankel's asymptotic expansion J_nu = sqrt(2/(pi x))
//    (P cos chi - Q sin chi), chi = x - (nu/2 + 1/4) pi (A&S 9.2.5, 9.2.9,
//    9.2.10; DLMF 10.17.3), summed until the terms fall below 1e-17.
//  - J_n, integer n: upward recurrence from J0, J1 where |x| > |n| (stable
//    there), else Miller's backward recurrence as above.
//  - Y0, Y1 for 0 < x < 20: Neumann's series Y0 = (2/pi)(ln(x/2) + gamma) J0
//    - (4/pi) sum_k (-1)^k J_2k / k (A&S 9.1.88) over the same backward
//    recurrence, and Y1 = -Y0' term by term (J0' = -J1, J_m' = (J_{m-1} -
//    J_{m+1})/2, A&S 9.1.27); x >= 20: Hankel's expansion.
//  - zeros j_{nu,s}: McMahon's expansion (A&S 9.5.12, DLMF 10.21.19) refined
//    by Newton's method with J0' = -J1 and J1' = J0 - J1/x (A&S 9.1.27).
#include <cmath>

#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"

namespace geobem::transform {

/// Hankel's asymptotic factors P_nu(x), Q_nu(x), nu = 0, 1, for x >= 20:
/// J_nu = sqrt(2/(pi x)) (P cos chi - Q sin chi), Y_nu = sqrt(2/(pi x)) (P sin chi
/// + Q cos chi), chi = x - (nu/2 + 1/4) pi (A&S 9.2.5, 9.2.6, 9.2.9, 9.2.10).
/// Terms t_k = t_{k-1} (mu - (2k-1)^2) / (k 8x): P takes even k with sign
/// (-1)^(k/2), Q odd k with sign (-1)^((k-1)/2); summed until below 1e-17 or
/// the smallest term.
GEOBEM_HD inline void bessel_hankel_pq(double x, double p[2], double q[2]) {
  for (int nu = 0; nu < 2; ++nu) {
    const double mu = 4.0 * nu * nu;
    double term = 1.0, sum_p = 1.0, sum_q = 0.0, last = 1.0;
    for (int k = 1; k < 40; ++k) {
      const double odd = 2.0 * k - 1.0;
      term *= (mu - odd * odd) / (8.0 * k * x);
      if (fabs(term) > fabs(last) || fabs(term) < 1e-17) break;  // smallest term reached
      last = term;
      const double signed_term = ((k / 2) % 2 == 0) ? term : -term;
      if (k % 2 == 0) sum_p += signed_term; else sum_q += signed_term;
    }
    p[nu] = sum_p;
    q[nu] = sum_q;
  }
}

/// Miller's backward recurrence J_{m-1} = (2m/x) J_m - J_{m+1}, x > 0,
/// started from J_start = 1e-30 and J_{start+1} = 0 (start even, far enough
/// above max(order, x) that the start's error has decayed below rounding by
/// the wanted orders): calls visit(m, J_m) for m = start - 1 down to 0 with
/// the unnormalised J_m, and rescale(f) with f = 1e-250 whenever |J_m|
/// passes 1e250 (the caller multiplies what it has kept from earlier visits
/// by f; the ratios are what matter). Returns the unnormalised J0 and the
/// norm J0 + 2 sum_k J_2k (A&S 9.1.46), by which every J_m is divided.
struct MillerRecurrence {
  double j0, norm;
};
template <class Visit, class Rescale>
GEOBEM_HD inline MillerRecurrence bessel_miller_recurrence(double x, int start, Visit visit, Rescale rescale) {
  const double two_over_x = 2.0 / x;
  double above = 0.0, current = 1e-30, even_sum = 0.0;
  for (int k = start; k > 0; --k) {
    const double below = k * two_over_x * current - above;  // J_{k-1}
    above = current;
    current = below;
    const int m = k - 1;
    if (m % 2 == 0 && m > 0) even_sum += current;
    visit(m, current);
    if (fabs(current) > 1e250) {  // rescale before overflow
      current *= 1e-250;
      above *= 1e-250;
      even_sum *= 1e-250;
      rescale(1e-250);
    }
  }
  return {current, current + 2.0 * even_sum};
}

/// J0(x) and J1(x) together (they share the work); any finite x.
GEOBEM_HD inline void bessel_j01(double x, double& j0, double& j1) {
  const double ax = fabs(x);
  const double sign = x < 0 ? -1.0 : 1.0;  // J0 even, J1 odd
  if (ax < 1e-8) {
    j0 = 1.0 - 0.25 * ax * ax;
    j1 = sign * 0.5 * ax;
    return;
  }
  if (ax < 20.0) {
    // Start order: J_n(x) ~ (x/2)^n / n! is below 1e-20 of the largest J for n > x + 40.
    const int start = 2 * ((static_cast<int>(ax) + 40) / 2);
    double value_j1 = 0.0;
    const MillerRecurrence miller = bessel_miller_recurrence(
        ax, start, [&](int m, double j) { if (m == 1) value_j1 = j; }, [&](double f) { value_j1 *= f; });
    j0 = miller.j0 / miller.norm;
    j1 = sign * value_j1 / miller.norm;
    return;
  }
  double p[2], q[2];
  bessel_hankel_pq(ax, p, q);
  // cos/sin of x - pi/4 and x - 3pi/4 from sin x, cos x: no rounding of x - c.
  const double s = sin(ax), c = cos(ax), r = sqrt(0.5);
  const double amplitude = sqrt(2.0 / (kPi * ax));
  const double cos0 = r * (c + s), sin0 = r * (s - c);   // chi = x - pi/4
  const double cos1 = r * (s - c), sin1 = -r * (s + c);  // chi = x - 3pi/4
  j0 = amplitude * (p[0] * cos0 - q[0] * sin0);
  j1 = sign * amplitude * (p[1] * cos1 - q[1] * sin1);
}

/// J0(x).
GEOBEM_HD inline double bessel_j0(double x) {
  double j0, j1;
  bessel_j01(x, j0, j1);
  return j0;
}

/// J1(x).
GEOBEM_HD inline double bessel_j1(double x) {
  double j0, j1;
  bessel_j01(x, j0, j1);
  return j1;
}

/// Largest |n| bessel_jn takes (its cost grows like max(|n|, |x|)).
constexpr int kMaxBesselOrder = 1000;

/// J_n(x) for integer |n| <= kMaxBesselOrder and finite x (NaN otherwise):
/// J_{-n} = (-1)^n J_n, J_n(-x) = (-1)^n J_n(x).
GEOBEM_HD inline double bessel_jn(int n, double x) {
  if (n < -kMaxBesselOrder || n > kMaxBesselOrder || !(fabs(x) <= 1.7976931348623157e308)) return nan("");
  double sign = 1.0;
  if (n < 0) {
    n = -n;
    if (n & 1) sign = -sign;
  }
  if (x < 0.0 && (n & 1)) sign = -sign;
  const double ax = fabs(x);
  double j0, j1;
  if (n < 2 || ax > n) {
    bessel_j01(ax, j0, j1);
    if (n == 0) return sign * j0;
    double below = j0, current = j1;
    for (int k = 1; k < n; ++k) {  // J_{k+1} = (2k/x) J_k - J_{k-1}
      const double above = (2.0 * k / ax) * current - below;
      below = current;
      current = above;
    }
    return sign * current;
  }
  if (ax < 1e-300) return 0.0;
  // Start far enough above max(n, x) that J_start / J_n is below rounding.
  const int start = 2 * ((n + 40 + static_cast<int>(4.0 * sqrt(static_cast<double>(n)))) / 2);
  double value = 0.0;
  const MillerRecurrence miller = bessel_miller_recurrence(
      ax, start, [&](int m, double j) { if (m == n) value = j; }, [&](double f) { value *= f; });
  return sign * value / miller.norm;
}

/// Y0(x) and Y1(x) together, x > 0 (NaN for x < 0 or NaN, -infinity at 0).
GEOBEM_HD inline void bessel_y01(double x, double& y0, double& y1) {
  if (!(x > 0.0)) {
    y0 = y1 = x == 0.0 ? -HUGE_VAL : nan("");
    return;
  }
  if (x < 20.0) {
    const double euler_gamma = 0.57721566490153286061;
    const double log_term = log(0.5 * x) + euler_gamma;
    const int start = 2 * ((static_cast<int>(x) + 40) / 2);
    // Over the unnormalised J_m of the backward recurrence, the sums
    // s0 = sum (-1)^k J_2k / k and
    // s1 = sum_{k>=1} (-1)^k (J_{2k-1} - J_{2k+1}) / k = sum_j c_j J_j over odd j.
    double s0 = 0.0, s1 = 0.0, value_j1 = 0.0;
    const MillerRecurrence miller = bessel_miller_recurrence(
        x, start,
        [&](int m, double j) {
          if (m > 0 && m % 2 == 0) {
            const int half = m / 2;
            s0 += (half % 2 ? -j : j) / half;
          } else if (m % 2 == 1) {
            const int up = (m + 1) / 2, down = (m - 1) / 2;  // m = 2 up - 1 = 2 down + 1
            s1 += (up % 2 ? -j : j) / up;
            if (down >= 1) s1 -= (down % 2 ? -j : j) / down;
            if (m == 1) value_j1 = j;
          }
        },
        [&](double f) {
          s0 *= f;
          s1 *= f;
          value_j1 *= f;
        });
    const double norm = miller.norm;
    const double j0 = miller.j0 / norm, j1 = value_j1 / norm;
    y0 = (2.0 / kPi) * (log_term * j0 - 2.0 * s0 / norm);
    y1 = (2.0 / kPi) * (log_term * j1 - j0 / x + s1 / norm);
    return;
  }
  double p[2], q[2];
  bessel_hankel_pq(x, p, q);
  const double s = sin(x), c = cos(x), r = sqrt(0.5);
  const double amplitude = sqrt(2.0 / (kPi * x));
  const double cos0 = r * (c + s), sin0 = r * (s - c);
  const double cos1 = r * (s - c), sin1 = -r * (s + c);
  y0 = amplitude * (p[0] * sin0 + q[0] * cos0);
  y1 = amplitude * (p[1] * sin1 + q[1] * cos1);
}

/// s-th positive zero j_{nu,s} of J_nu, nu = 0 or 1, s >= 1: McMahon's
/// expansion (A&S 9.5.12) then Newton steps until the step is below 1e-15
/// relative (3 or 4 steps from McMahon's start, which is good to ~1e-4 even at s = 1).
GEOBEM_HD inline double bessel_zero(int nu, int s) {
  const double mu = 4.0 * nu * nu;
  const double beta = (s + 0.5 * nu - 0.25) * kPi;
  const double e = 8.0 * beta;
  double x = beta - (mu - 1.0) / e - 4.0 * (mu - 1.0) * (7.0 * mu - 31.0) / (3.0 * e * e * e) -
             32.0 * (mu - 1.0) * (83.0 * mu * mu - 982.0 * mu + 3779.0) / (15.0 * e * e * e * e * e);
  for (int iteration = 0; iteration < 8; ++iteration) {
    double j0, j1;
    bessel_j01(x, j0, j1);
    const double value = nu == 0 ? j0 : j1;
    const double slope = nu == 0 ? -j1 : j0 - j1 / x;
    const double step = value / slope;
    x -= step;
    if (fabs(step) <= 1e-15 * x) break;
  }
  return x;
}

}  // namespace geobem::transform
