#pragma once
// Bessel functions J0, J1 of real argument and the zeros of J0, J1, as
// GEOBEM_HD functions (host and device from one source), accurate to about
// 1e-15 absolute for every x.
//
// Method (no library on the device has them at this accuracy):
//  - |x| < 20: Miller's backward recurrence J_{n-1} = (2n/x) J_n - J_{n+1}
//    started far above the order, normalised by 1 = J0 + 2 sum_k J_{2k}
//    (Abramowitz & Stegun 9.1.27 and 9.1.46; Miller's algorithm, e.g.
//    Gautschi, SIAM Review 9 (1967) 24-82).
//  - |x| >= 20: Hankel's asymptotic expansion J_nu = sqrt(2/(pi x))
//    (P cos chi - Q sin chi), chi = x - (nu/2 + 1/4) pi (A&S 9.2.5, 9.2.9,
//    9.2.10; DLMF 10.17.3), summed until the terms fall below 1e-17.
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
    const double two_over_x = 2.0 / ax;
    double above = 0.0, current = 1e-30, even_sum = 0.0, value_j1 = 0.0;
    for (int n = start; n > 0; --n) {
      const double below = n * two_over_x * current - above;  // J_{n-1}
      above = current;
      current = below;
      if (n == 2) value_j1 = current;
      if ((n - 1) % 2 == 0 && n - 1 > 0) even_sum += current;
      if (fabs(current) > 1e250) {  // rescale before overflow; ratios are what matter
        current *= 1e-250;
        above *= 1e-250;
        even_sum *= 1e-250;
        value_j1 *= 1e-250;
      }
    }
    const double norm = current + 2.0 * even_sum;
    j0 = current / norm;
    j1 = sign * value_j1 / norm;
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
