#pragma once
// The degree-7 Genz–Malik cubature rule on an n-dimensional box (Genz & Malik,
// J. Comput. Appl. Math. 6 (1980) 295–302, with the embedded degree-5 rule
// and the fourth-difference choice of split axis of their section 3), written
// once as GEOBEM_HD code for the CPU driver and the CUDA kernels.
//
// Error estimate: |I7 − I5|, the difference of the degree-7 and embedded
// degree-5 rules (the "simpler" CUHRE-family estimate; CUHRE proper,
// Berntsen, Espelid & Genz 1991, combines several null rules). Split axis: the
// largest fourth difference of f along the axis, measured from the rule's own
// axis points; the widest axis when all are negligible.
#include <cmath>
#include <cstdint>

#include "gpu/core/host_device.hpp"

namespace geobem::quadrature {

/// Dimensions the cubature supports: 2 ≤ n ≤ kMaxCubatureDim.
constexpr int kMinCubatureDim = 2;
constexpr int kMaxCubatureDim = 10;

/// A box given by its centre and half-widths, with the rule's results on it.
struct CubatureRegion {
  double center[kMaxCubatureDim];
  double halfwidth[kMaxCubatureDim];
  double estimate;  ///< degree-7 estimate of the integral over the box
  double error;     ///< |I7 − I5|
  int split_axis;   ///< axis of largest fourth difference
};

/// Points of the rule: 2^n + 2n² + 2n + 1.
GEOBEM_HD inline int genz_malik_point_count(int n) { return (1 << n) + 2 * n * n + 2 * n + 1; }

/// Generator scale factors λ2 = √(9/70), λ3 = λ4 = √(9/10), λ5 = √(9/19)
/// (Genz & Malik 1980, eq. (3.1)); points are centre ± λ·halfwidth.
struct GenzMalikLambda {
  static constexpr double l2 = 0.35856858280031809199;  // sqrt(9/70)
  static constexpr double l4 = 0.94868329805051379960;  // sqrt(9/10)
  static constexpr double l5 = 0.68824720161168529772;  // sqrt(9/19)
};

/// Point classes, in index order: the centre (1), ±λ2 on each axis (2n),
/// ±λ4 on each axis (2n), ±λ4 on each pair of axes (2n(n−1)), all (±λ5)^n vertices (2^n).
enum class GenzMalikClass { Center, Axis2, Axis4, Pair, Vertex };

/// Class of point k of the rule in n dimensions and, for the axis classes,
/// the slot 2·axis + (0 for +, 1 for −) that stores its value.
GEOBEM_HD inline GenzMalikClass genz_malik_class(int k, int n, int* axis_slot) {
  if (k == 0) return GenzMalikClass::Center;
  if (k < 1 + 2 * n) {
    *axis_slot = k - 1;
    return GenzMalikClass::Axis2;
  }
  if (k < 1 + 4 * n) {
    *axis_slot = k - 1 - 2 * n;
    return GenzMalikClass::Axis4;
  }
  if (k < 1 + 4 * n + 2 * n * (n - 1)) return GenzMalikClass::Pair;
  return GenzMalikClass::Vertex;
}

/// Writes point k (0 ≤ k < genz_malik_point_count(n)) of the rule on the
/// region into x[0..n).
GEOBEM_HD inline void genz_malik_point(int k, int n, const CubatureRegion& region, double* x) {
  for (int i = 0; i < n; ++i) x[i] = region.center[i];
  if (k == 0) return;
  if (k < 1 + 4 * n) {
    const int j = k < 1 + 2 * n ? k - 1 : k - 1 - 2 * n;
    const double lambda = k < 1 + 2 * n ? GenzMalikLambda::l2 : GenzMalikLambda::l4;
    const int axis = j / 2;
    x[axis] += (j % 2 == 0 ? lambda : -lambda) * region.halfwidth[axis];
    return;
  }
  if (k < 1 + 4 * n + 2 * n * (n - 1)) {
    int pair = (k - 1 - 4 * n) / 4;
    const int signs = (k - 1 - 4 * n) % 4;
    int a = 0;
    while (pair >= n - 1 - a) pair -= n - 1 - a++;
    const int b = a + 1 + pair;
    x[a] += ((signs & 1) ? -GenzMalikLambda::l4 : GenzMalikLambda::l4) * region.halfwidth[a];
    x[b] += ((signs & 2) ? -GenzMalikLambda::l4 : GenzMalikLambda::l4) * region.halfwidth[b];
    return;
  }
  const int bits = k - 1 - 4 * n - 2 * n * (n - 1);
  for (int i = 0; i < n; ++i)
    x[i] += (((bits >> i) & 1) ? -GenzMalikLambda::l5 : GenzMalikLambda::l5) * region.halfwidth[i];
}

/// Function values of one region gathered by class: the centre, the axis
/// points by slot (2·axis + sign), and the sums over pair and vertex points.
struct GenzMalikValues {
  double center;
  double axis2[2 * kMaxCubatureDim];
  double axis4[2 * kMaxCubatureDim];
  double pair_sum;
  double vertex_sum;
};

/// Files value f of point k into the gathered values (pair and vertex values
/// are added; the caller zeroes the sums first).
GEOBEM_HD inline void genz_malik_file_value(int k, int n, double f, GenzMalikValues& values) {
  int slot = 0;
  switch (genz_malik_class(k, n, &slot)) {
    case GenzMalikClass::Center: values.center = f; break;
    case GenzMalikClass::Axis2: values.axis2[slot] = f; break;
    case GenzMalikClass::Axis4: values.axis4[slot] = f; break;
    case GenzMalikClass::Pair: values.pair_sum += f; break;
    case GenzMalikClass::Vertex: values.vertex_sum += f; break;
  }
}

/// Combines the gathered values into the region's estimate, error and split
/// axis. Weights of the degree-7 rule and the embedded degree-5 rule on
/// [−1, 1]^n divided by 2^n (Genz & Malik 1980, eqs. (3.2)–(3.3)); the
/// region's volume 2^n·Πh_i scales them.
GEOBEM_HD inline void genz_malik_combine(int n, const GenzMalikValues& values, CubatureRegion& region) {
  const double dn = n;
  const double w1 = (12824.0 - 9120.0 * dn + 400.0 * dn * dn) / 19683.0;
  const double w2 = 980.0 / 6561.0;
  const double w3 = (1820.0 - 400.0 * dn) / 19683.0;
  const double w4 = 200.0 / 19683.0;
  const double w5 = 6859.0 / 19683.0 / static_cast<double>(1 << n);
  const double v1 = (729.0 - 950.0 * dn + 50.0 * dn * dn) / 729.0;
  const double v2 = 245.0 / 486.0;
  const double v3 = (265.0 - 100.0 * dn) / 1458.0;
  const double v4 = 25.0 / 729.0;
  // Second differences at λ2 and λ4 combined so that the h² term cancels:
  // (λ2/λ4)² = 1/7 (Genz & Malik 1980, section 3).
  constexpr double ratio = 1.0 / 7.0;
  double sum2 = 0.0, sum4 = 0.0, volume = 1.0, best = -1.0;
  int axis = 0;
  double widest = -1.0;
  int widest_axis = 0;
  for (int i = 0; i < n; ++i) {
    const double s2 = values.axis2[2 * i] + values.axis2[2 * i + 1];
    const double s4 = values.axis4[2 * i] + values.axis4[2 * i + 1];
    sum2 += s2;
    sum4 += s4;
    volume *= 2.0 * region.halfwidth[i];
    const double difference = fabs(s2 - 2.0 * values.center - ratio * (s4 - 2.0 * values.center));
    // Differences equal to rounding (symmetric integrands) count as ties and
    // go to the wider axis, then the lower index, so that the CPU and the GPU
    // (whose math libraries round differently) split alike.
    const bool tie = fabs(difference - best) <= 1e-9 * best;
    if ((!tie && difference > best) || (tie && region.halfwidth[i] > region.halfwidth[axis])) {
      best = difference;
      axis = i;
    }
    if (region.halfwidth[i] > widest) {
      widest = region.halfwidth[i];
      widest_axis = i;
    }
  }
  const double rule7 = w1 * values.center + w2 * sum2 + w3 * sum4 + w4 * values.pair_sum + w5 * values.vertex_sum;
  const double rule5 = v1 * values.center + v2 * sum2 + v3 * sum4 + v4 * values.pair_sum;
  region.estimate = volume * rule7;
  region.error = fabs(volume * (rule7 - rule5));
  // Negligible fourth differences everywhere (f locally polynomial of degree
  // ≤ 3 along every axis): halve the widest side instead.
  region.split_axis = best <= 1e-14 * (fabs(values.center) + 1e-300) ? widest_axis : axis;
}

/// Splits `parent` in two along its split axis.
GEOBEM_HD inline void split_region(int n, const CubatureRegion& parent, CubatureRegion& lower, CubatureRegion& upper) {
  for (int i = 0; i < n; ++i) {
    lower.center[i] = upper.center[i] = parent.center[i];
    lower.halfwidth[i] = upper.halfwidth[i] = parent.halfwidth[i];
  }
  const int a = parent.split_axis;
  const double h = 0.5 * parent.halfwidth[a];
  lower.halfwidth[a] = upper.halfwidth[a] = h;
  lower.center[a] = parent.center[a] - h;
  upper.center[a] = parent.center[a] + h;
}

/// Two-level error check after a split (a heuristic of ours in the spirit of
/// CUHRE's use of the parent's result, Berntsen, Espelid & Genz 1991): the
/// change |I_parent − I_lower − I_upper| measures the parent's real error, which
/// |I7 − I5| can miss at kinks and jumps the rule points straddle; each child's
/// error is raised to at least that change. For smooth f the change (the
/// parent's degree-7 error, O(h^8)) stays below the children's |I7 − I5|
/// (O(h^6)), so this only acts where f is not smooth.
GEOBEM_HD inline void apply_two_level_error(const CubatureRegion& parent, CubatureRegion& lower, CubatureRegion& upper) {
  const double change = fabs(parent.estimate - lower.estimate - upper.estimate);
  lower.error = fmax(lower.error, change);
  upper.error = fmax(upper.error, change);
}

/// Applies the whole rule to one region sequentially (the CPU path; the CUDA
/// kernels spread the same points over a thread block).
template <class Integrand>
GEOBEM_HD inline void apply_genz_malik(const Integrand& f, int n, CubatureRegion& region) {
  GenzMalikValues values{};
  double x[kMaxCubatureDim];
  const int count = genz_malik_point_count(n);
  for (int k = 0; k < count; ++k) {
    genz_malik_point(k, n, region, x);
    genz_malik_file_value(k, n, f(x, n), values);
  }
  genz_malik_combine(n, values, region);
}

}  // namespace geobem::quadrature
