#pragma once
// The degree-9 fully symmetric rule of Genz & Malik's embedded family (A. Genz
// and A. Malik, "An imbedded family of fully symmetric numerical integration
// rules", SIAM J. Numer. Anal. 20 (1983) 580–588), the basic rule of DCUHRE's
// degree-9 key (Berntsen, Espelid & Genz, ACM TOMS 17 (1991) 452–456). Used
// as a check of the degree-7 rule: on a region where both are in their
// asymptotic regime Q9 − Q7 is the degree-7 rule's error to O(h²).
//
// Generators on [−1, 1]^n (squared parameters λ, from the paper's
// construction with λ0 = 0.4707, λp unused by the basic rule):
// the centre; (±√λ1, 0…), (±√λ2, 0…), (±√λ3, 0…) on each axis; (±√λ1, ±√λ1)
// on each pair of axes; (±√λ1, ±√λ2) on each ordered pair; (±√λ1, ±√λ1, ±√λ1)
// on each triple (n ≥ 3); the 2^n vertices (±√λ0)^n.
// Points: 1 + 6n + 6n(n − 1) + 4n(n − 1)(n − 2)/3 + 2^n (8D: 1,089).
#include <cmath>

#include "gpu/core/host_device.hpp"
#include "gpu/quadrature/final_region_sums.hpp"
#include "gpu/quadrature/genz_malik_rule.hpp"

namespace geobem::quadrature {

/// Orbits of the degree-9 rule, in the order of Degree9Rule::weight.
enum Degree9Orbit { kD9Center, kD9Axis1, kD9Axis2, kD9Axis3, kD9Pair11, kD9Pair12, kD9Triple, kD9Vertex, kD9Orbits };

/// The rule's generator parameters (square roots) and per-point weights
/// normalized to a unit volume (the weights of an orbit's points sum with
/// the centre's to 1).
struct Degree9Rule {
  double g0, g1, g2, g3;     ///< √λ0 (vertices), √λ1, √λ2, √λ3
  double weight[kD9Orbits];  ///< per point of each orbit
};

/// Points of the degree-9 rule in n dimensions.
GEOBEM_HD inline long degree9_point_count(int n) {
  const long m = n;
  return 1 + 6 * m + 6 * m * (m - 1) + 4 * m * (m - 1) * (m - 2) / 3 + (1L << n);
}

/// The rule's parameters and weights (Genz & Malik 1983, section 4: the
/// moment equations of the fully symmetric generators solved in closed form).
GEOBEM_HD inline Degree9Rule degree9_rule(int n) {
  const double dn = n;
  const double l0 = 0.4707;
  const double l1 = 4.0 / (15.0 - 5.0 / l0);
  double ratio = (1.0 - l1 / l0) / 27.0;
  const double l2 = (5.0 - 7.0 * l1 - 35.0 * ratio) / (7.0 - 35.0 * l1 / 3.0 - 35.0 * ratio / l0);
  ratio = ratio * (1.0 - l2 / l0) / 3.0;
  const double l3 = (7.0 - 9.0 * (l2 + l1) + 63.0 * l2 * l1 / 5.0 - 63.0 * ratio) /
                    (9.0 - 63.0 * (l2 + l1) / 5.0 + 21.0 * l2 * l1 - 63.0 * ratio / l0);
  const double vertices = static_cast<double>(1L << n);
  Degree9Rule r{};
  r.g0 = sqrt(l0);
  r.g1 = sqrt(l1);
  r.g2 = sqrt(l2);
  r.g3 = sqrt(l3);
  double* w = r.weight;
  w[kD9Vertex] = 1.0 / pow(3.0 * l0, 4) / vertices;
  w[kD9Triple] = n > 2 ? (1.0 - 1.0 / (3.0 * l0)) / pow(6.0 * l1, 3) : 0.0;
  w[kD9Pair12] = (1.0 - 7.0 * (l0 + l1) / 5.0 + 7.0 * l0 * l1 / 3.0) / (84.0 * l1 * l2 * (l2 - l0) * (l2 - l1));
  w[kD9Pair11] = (1.0 - 7.0 * (l0 + l2) / 5.0 + 7.0 * l0 * l2 / 3.0) / (84.0 * l1 * l1 * (l1 - l0) * (l1 - l2)) -
                 w[kD9Pair12] * l2 / l1 - 2.0 * (dn - 2.0) * w[kD9Triple];
  const auto axis_weight = [&](double a, double b, double c) {  // orbit at a, the others at b, c
    return (1.0 - 9.0 * ((l0 + b + c) / 7.0 - (l0 * b + l0 * c + b * c) / 5.0) - 3.0 * l0 * b * c) /
           (18.0 * a * (a - l0) * (a - b) * (a - c));
  };
  w[kD9Axis3] = axis_weight(l3, l1, l2);
  w[kD9Axis2] = axis_weight(l2, l1, l3) - 2.0 * (dn - 1.0) * w[kD9Pair12];
  w[kD9Axis1] = axis_weight(l1, l2, l3) -
                2.0 * (dn - 1.0) * (w[kD9Pair12] + w[kD9Pair11] + (dn - 2.0) * w[kD9Triple]);
  const double count[kD9Orbits] = {1.0, 2.0 * dn, 2.0 * dn, 2.0 * dn, 2.0 * dn * (dn - 1.0), 4.0 * dn * (dn - 1.0),
                                    4.0 * dn * (dn - 1.0) * (dn - 2.0) / 3.0, vertices};
  w[kD9Center] = 1.0;
  for (int o = 1; o < kD9Orbits; ++o) w[kD9Center] -= count[o] * w[o];
  return r;
}

/// Writes point k (0 ≤ k < degree9_point_count(n)) of the rule on the
/// region into x[0..n) and returns its weight (unit volume). The order:
/// centre, the three axis orbits, pairs (λ1, λ1), ordered pairs (λ1, λ2),
/// triples, vertices; signs run fastest.
GEOBEM_HD inline double degree9_point(long k, int n, const Degree9Rule& rule, const CubatureRegion& region,
                                      double* x) {
  int axis[3] = {-1, -1, -1};
  double offset[3] = {0.0, 0.0, 0.0};
  long bits = -1;
  double weight = rule.weight[kD9Center];
  const long m = n;
  const auto sign = [](long s, int bit) { return ((s >> bit) & 1) ? -1.0 : 1.0; };
  long j = k - 1;
  if (k == 0) {
  } else if (j < 6 * m) {
    const int orbit = static_cast<int>(j / (2 * m));
    const double g[3] = {rule.g1, rule.g2, rule.g3};
    axis[0] = static_cast<int>((j % (2 * m)) / 2);
    offset[0] = sign(j, 0) * g[orbit];
    weight = rule.weight[kD9Axis1 + orbit];
  } else if ((j -= 6 * m) < 2 * m * (m - 1)) {
    long pair = j / 4;
    int a = 0;
    while (pair >= n - 1 - a) pair -= n - 1 - a++;
    axis[0] = a;
    axis[1] = a + 1 + static_cast<int>(pair);
    offset[0] = sign(j, 0) * rule.g1;
    offset[1] = sign(j, 1) * rule.g1;
    weight = rule.weight[kD9Pair11];
  } else if ((j -= 2 * m * (m - 1)) < 4 * m * (m - 1)) {
    const long ordered = j / 4;
    axis[0] = static_cast<int>(ordered / (m - 1));
    const int b = static_cast<int>(ordered % (m - 1));
    axis[1] = b >= axis[0] ? b + 1 : b;
    offset[0] = sign(j, 0) * rule.g1;
    offset[1] = sign(j, 1) * rule.g2;
    weight = rule.weight[kD9Pair12];
  } else if ((j -= 4 * m * (m - 1)) < 4 * m * (m - 1) * (m - 2) / 3) {
    long triple = j / 8;  // index among the C(n, 3) triples a < b < c, lexicographic
    for (int a = 0; a < n && axis[0] < 0; ++a)
      for (int b = a + 1; b < n && axis[0] < 0; ++b) {
        const long rest = n - 1 - b;
        if (triple < rest) {
          axis[0] = a;
          axis[1] = b;
          axis[2] = b + 1 + static_cast<int>(triple);
        } else {
          triple -= rest;
        }
      }
    for (int t = 0; t < 3; ++t) offset[t] = sign(j, t) * rule.g1;
    weight = rule.weight[kD9Triple];
  } else {
    bits = j - 4 * m * (m - 1) * (m - 2) / 3;
    weight = rule.weight[kD9Vertex];
  }
  for (int i = 0; i < n; ++i) {
    double o = 0.0;
    if (bits >= 0)
      o = sign(bits, i) * rule.g0;
    else if (i == axis[0])
      o = offset[0];
    else if (i == axis[1])
      o = offset[1];
    else if (i == axis[2])
      o = offset[2];
    x[i] = region.center[i] + o * region.halfwidth[i];
  }
  return weight;
}

/// Q9 on one region, sequentially (the CPU path; the CUDA kernels spread the
/// same points over a thread block): Σ w_k f(x_k) times the region's volume;
/// *abs_sum receives Σ |w_k f(x_k)| times the volume (the rounding scale).
template <class Integrand>
GEOBEM_HD inline double apply_degree9(const Integrand& f, int n, const Degree9Rule& rule,
                                      const CubatureRegion& region, double* abs_sum) {
  double x[kMaxCubatureDim];
  double sum = 0.0, absolute = 0.0;
  const long count = degree9_point_count(n);
  for (long k = 0; k < count; ++k) {
    const double v = degree9_point(k, n, rule, region, x) * f(x, n);
    sum += v;
    absolute += fabs(v);
  }
  const double volume = region_volume(n, region);
  *abs_sum = volume * absolute;
  return volume * sum;
}

/// Adds the degree-9 check of one final region to `sums`: Q9 − Q7 and its
/// absolute value (q9 the region's degree-9 result, a9 its absolute sum,
/// apply_degree9), the region's degree-5 null rule value N1 and its absolute
/// value, and the rounding scales a7 and (a7² + a9²)/unit² (a7 the degree-7
/// rule's absolute sum, which region.rounding holds at kRuleRoundingUlps;
/// unit = PhaseTwoShares::check_unit).
GEOBEM_HD inline void add_degree9_check(double q9, double a9, const CubatureRegion& region, double unit,
                                        FinalRegionSums& sums) {
  const double a7 = region.rounding / kRuleRoundingUlps;
  sums.check_change += q9 - region.estimate;
  sums.check_abs_change += fabs(q9 - region.estimate);
  sums.check_scale += a7;
  sums.check_scale_squared += (a7 / unit) * (a7 / unit) + (a9 / unit) * (a9 / unit);
  const double null_value = static_cast<double>(region.null_share) * region.error;
  sums.check_null += null_value;
  sums.check_abs_null += fabs(null_value);
}

}  // namespace geobem::quadrature
