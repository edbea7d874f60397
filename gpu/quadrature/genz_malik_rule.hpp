#pragma once
// The degree-7 Genz–Malik cubature rule on an n-dimensional box (Genz & Malik,
// J. Comput. Appl. Math. 6 (1980) 295–302, with the fourth-difference choice
// of split axis of their section 3), written once as GEOBEM_HD code for the
// CPU driver and the CUDA kernels.
//
// Error estimate: CUHRE's (Berntsen, Espelid & Genz, ACM TOMS 17 (1991)
// 437–451, section 4) on the rule's own points: a sequence of null rules of
// degree 5, 3 (a pair) and 1, orthogonal and scaled to the norm of the basic
// rule, gives E1 (degree 5), E2 (the largest estimate of a normalized null
// rule in the span of the degree-3 pair, Espelid) and E3 (degree 1). Where
// the whole sequence decays as the asymptotic theory says (5·E1 ≤ E2 and
// 5·E2 ≤ E3) the error is E1; where the top step decays (5·E1 ≤ E2) but not
// the bottom one it is 5·E1; where the top step does not decay it is
// 5·max(E1, E2, E3). These are DCUHRE's safety factors for its degree-7 rule
// (ERRCOF = 5, 5, 1, 5 of its DRLHRE), which takes 5·max whenever either step
// fails. The middle case is ours: the degree-7 rule's error is measured by
// the difference of the degree-7 and degree-5 rules (E1), and when that is
// five times below the degree-3 estimate the two high-degree rules agree; a
// degree-1 null rule larger than the degree-3 pair says only that the
// low-degree content is not asymptotic yet. With DCUHRE's rule Arumugam's f4
// (sin Π asin x_i, whose derivative is singular on the faces x_i = 1) took
// 5·E2 in most regions, 100–250× its true error, and stopped at the
// evaluation cap (bench/RESULTS.md). An earlier version extrapolated below
// E1 by the decay ratio (Berntsen & Espelid, ACM TOMS 17 (1991) 233–252);
// on peaked integrands the ratio was small by accident and the estimate
// collapsed (Genz's Gaussian, a = 29.5 in 3D: 1.5e-9 for a true 5.9e-8).
// After a split the parent's result enters as DCUHRE does (apply_two_level_error).
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
  double error;     ///< CUHRE null-rule error estimate (see the file comment)
  /// This region's share of its pair's two-level change
  /// |I_lower + I_upper − I_parent| (apply_two_level_error); NaN for a
  /// region without a parent (the first cells). Summed over the final
  /// regions it gives two_level_error (cubature.hpp).
  double change;
  double rounding;  ///< the rule's rounding floor: 50 ulp of Σ|w_k f(x_k)| (cuhre_error)
  int split_axis;   ///< axis of largest fourth difference
  /// The degree-5 null rule's value N1 over `error`, signed, in single
  /// precision (it fills the padding after split_axis): the degree-9 check
  /// measures how far the N1 of its regions cancel (degree9_cancellation_credit
  /// in cubature.hpp), for which six digits are plenty.
  float null_share;
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
/// region into x[0..n). The class of k is decoded first and x is then filled
/// in one loop over the axes without indexing by a computed axis, so that
/// with n known at compile time the loop unrolls and x stays in registers.
GEOBEM_HD inline void genz_malik_point(int k, int n, const CubatureRegion& region, double* x) {
  // Axis a (and b for pair points) at ±λ, or every axis at ±λ5 (vertex bits).
  int a = -1, b = -1, bits = -1;
  double lambda_a = 0.0, lambda_b = 0.0;
  if (k > 0 && k < 1 + 4 * n) {
    const int j = k < 1 + 2 * n ? k - 1 : k - 1 - 2 * n;
    const double lambda = k < 1 + 2 * n ? GenzMalikLambda::l2 : GenzMalikLambda::l4;
    a = j / 2;
    lambda_a = j % 2 == 0 ? lambda : -lambda;
  } else if (k >= 1 + 4 * n && k < 1 + 4 * n + 2 * n * (n - 1)) {
    int pair = (k - 1 - 4 * n) / 4;
    const int signs = (k - 1 - 4 * n) % 4;
    a = 0;
    while (pair >= n - 1 - a) pair -= n - 1 - a++;
    b = a + 1 + pair;
    lambda_a = (signs & 1) ? -GenzMalikLambda::l4 : GenzMalikLambda::l4;
    lambda_b = (signs & 2) ? -GenzMalikLambda::l4 : GenzMalikLambda::l4;
  } else if (k > 0) {
    bits = k - 1 - 4 * n - 2 * n * (n - 1);
  }
  for (int i = 0; i < n; ++i) {
    double offset = 0.0;
    if (bits >= 0)
      offset = ((bits >> i) & 1) ? -GenzMalikLambda::l5 : GenzMalikLambda::l5;
    else if (i == a)
      offset = lambda_a;
    else if (i == b)
      offset = lambda_b;
    x[i] = region.center[i] + offset * region.halfwidth[i];
  }
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

/// Orbits of the rule's points, in the order of GenzMalikValues: centre,
/// ±λ2 on an axis, ±λ4 on an axis, ±λ4 on a pair of axes, the vertices.
constexpr int kGenzMalikOrbits = 5;

/// Per-point weights on [−1, 1]^n divided by 2^n of the degree-7 rule
/// (`basic`) and of four null rules (`null[k]`: degrees 5, 3, 3, 1), which are
/// orthogonal in Σ_points u·v and have the basic rule's norm (Berntsen, Espelid
/// & Genz 1991, section 4). Null rule 1 is the difference of the degree-7 and
/// the embedded degree-5 rule (Genz & Malik 1980, eqs. (3.2)–(3.3)); 2 and 3
/// span the rest of the degree-3 null space, 4 the rest of the degree-1 one.
struct GenzMalikWeights {
  double basic[kGenzMalikOrbits];
  double null[4][kGenzMalikOrbits];
};

GEOBEM_HD inline GenzMalikWeights genz_malik_weights(int n) {
  const double dn = n;
  const double l2 = GenzMalikLambda::l2 * GenzMalikLambda::l2, l4 = GenzMalikLambda::l4 * GenzMalikLambda::l4,
               l5 = GenzMalikLambda::l5 * GenzMalikLambda::l5;
  GenzMalikWeights w{};
  const double basic[kGenzMalikOrbits] = {(12824.0 - 9120.0 * dn + 400.0 * dn * dn) / 19683.0, 980.0 / 6561.0,
                                          (1820.0 - 400.0 * dn) / 19683.0, 200.0 / 19683.0,
                                          6859.0 / 19683.0 / static_cast<double>(1 << n)};
  const double degree5[kGenzMalikOrbits] = {(729.0 - 950.0 * dn + 50.0 * dn * dn) / 729.0, 245.0 / 486.0,
                                            (265.0 - 100.0 * dn) / 1458.0, 25.0 / 729.0, 0.0};
  const double count[kGenzMalikOrbits] = {1.0, 2.0 * dn, 2.0 * dn, 2.0 * dn * (dn - 1.0),
                                          static_cast<double>(1 << n)};
  const auto dot = [&](const double* u, const double* v) {
    double s = 0.0;
    for (int o = 0; o < kGenzMalikOrbits; ++o) s += count[o] * u[o] * v[o];
    return s;
  };
  // Orthonormal basis built by Gram–Schmidt: the orbit means of 1 and of x_1²
  // (a rule orthogonal to both integrates every polynomial of degree ≤ 3 to
  // zero, being fully symmetric), then null rule 1, then the unit vectors.
  double basis[kGenzMalikOrbits][kGenzMalikOrbits] = {
      {1.0, 1.0, 1.0, 1.0, 1.0}, {0.0, l2 / dn, l4 / dn, 2.0 * l4 / dn, l5}, {}, {}, {}};
  for (int o = 0; o < kGenzMalikOrbits; ++o) {
    w.basic[o] = basic[o];
    basis[2][o] = basic[o] - degree5[o];
  }
  int filled = 0;
  const auto orthonormalize = [&](double* v) {
    for (int b = 0; b < filled; ++b) {
      const double c = dot(v, basis[b]);
      for (int o = 0; o < kGenzMalikOrbits; ++o) v[o] -= c * basis[b][o];
    }
    const double norm = sqrt(dot(v, v));
    for (int o = 0; o < kGenzMalikOrbits; ++o) v[o] /= norm;
    ++filled;
  };
  for (int b = 0; b < 3; ++b) orthonormalize(basis[b]);
  // Null rules 2 and 3: of the unit vectors, the one with the largest part
  // outside the span so far (a fixed, well-conditioned choice).
  for (int b = 3; b < 5; ++b) {
    double best = -1.0;
    for (int e = 0; e < kGenzMalikOrbits; ++e) {
      double v[kGenzMalikOrbits] = {};
      v[e] = 1.0;
      for (int k = 0; k < filled; ++k) {
        const double c = dot(v, basis[k]);
        for (int o = 0; o < kGenzMalikOrbits; ++o) v[o] -= c * basis[k][o];
      }
      const double size = dot(v, v);
      if (size > best) {
        best = size;
        for (int o = 0; o < kGenzMalikOrbits; ++o) basis[b][o] = v[o];
      }
    }
    orthonormalize(basis[b]);
  }
  const double scale = sqrt(dot(w.basic, w.basic));
  const int order[4] = {2, 3, 4, 1};  // degree 5, 3, 3, then the x_1² direction: degree 1
  for (int k = 0; k < 4; ++k)
    for (int o = 0; o < kGenzMalikOrbits; ++o) w.null[k][o] = scale * basis[order[k]][o];
  return w;
}

/// A rule's rounding floor per unit of its absolute sum Σ|w_k f(x_k)|: 50 ulp.
constexpr double kRuleRoundingUlps = 50.0 * 2.220446049250313e-16;

/// CUHRE's error from the null-rule values N1..N4 (already times the volume),
/// the decision of the file comment. The floor (kRuleRoundingUlps of the
/// rule's absolute sum) keeps rounding from reading as convergence.
GEOBEM_HD inline double cuhre_error(const double null_value[4], double rounding_floor) {
  const double e1 = fabs(null_value[0]);
  const double e2 = hypot(null_value[1], null_value[2]);  // no overflow where |N| > 1e154
  const double e3 = fabs(null_value[3]);
  const bool top_decays = 5.0 * e1 <= e2;
  const double error = top_decays ? (5.0 * e2 <= e3 ? e1 : 5.0 * e1) : 5.0 * fmax(e1, fmax(e2, e3));
  return fmax(error, rounding_floor);
}

/// Combines the gathered values into the region's estimate, CUHRE error and
/// split axis; w = genz_malik_weights(n) (computed once per run); the
/// region's volume 2^n·Πh_i scales the weights.
GEOBEM_HD inline void genz_malik_combine(int n, const GenzMalikWeights& w, const GenzMalikValues& values,
                                         CubatureRegion& region) {
  // Second differences at λ2 and λ4 combined so that the h² term cancels:
  // (λ2/λ4)² = 1/7 (Genz & Malik 1980, section 3).
  constexpr double ratio = 1.0 / 7.0;
  double sum2 = 0.0, sum4 = 0.0, abs2 = 0.0, abs4 = 0.0, volume = 1.0, best = -1.0;
  int axis = 0;
  double widest = -1.0;
  int widest_axis = 0;
  for (int i = 0; i < n; ++i) {
    const double s2 = values.axis2[2 * i] + values.axis2[2 * i + 1];
    const double s4 = values.axis4[2 * i] + values.axis4[2 * i + 1];
    sum2 += s2;
    sum4 += s4;
    abs2 += fabs(values.axis2[2 * i]) + fabs(values.axis2[2 * i + 1]);
    abs4 += fabs(values.axis4[2 * i]) + fabs(values.axis4[2 * i + 1]);
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
  const double orbit_sum[kGenzMalikOrbits] = {values.center, sum2, sum4, values.pair_sum, values.vertex_sum};
  double rule7 = 0.0, null_value[4] = {0.0, 0.0, 0.0, 0.0};
  for (int o = 0; o < kGenzMalikOrbits; ++o) {
    rule7 += w.basic[o] * orbit_sum[o];
    for (int k = 0; k < 4; ++k) null_value[k] += w.null[k][o] * orbit_sum[o];
  }
  for (int k = 0; k < 4; ++k) null_value[k] *= volume;
  // |f| summed over the points with the basic rule's weights (pair and vertex
  // sums stand in for their absolute sums: only a rounding scale is needed).
  const double rounding_scale =
      volume * (fabs(w.basic[0] * values.center) + fabs(w.basic[1]) * abs2 + fabs(w.basic[2]) * abs4 +
                fabs(w.basic[3] * values.pair_sum) + fabs(w.basic[4] * values.vertex_sum));
  region.estimate = volume * rule7;
  region.rounding = kRuleRoundingUlps * rounding_scale;
  region.error = cuhre_error(null_value, region.rounding);
  region.null_share = region.error > 0.0 ? static_cast<float>(null_value[0] / region.error) : 0.0f;
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

/// Volume Π 2h_i of a region.
GEOBEM_HD inline double region_volume(int n, const CubatureRegion& region) {
  double volume = 1.0;
  for (int i = 0; i < n; ++i) volume *= 2.0 * region.halfwidth[i];
  return volume;
}

/// DCUHRE's use of the parent after a split (Berntsen, Espelid & Genz 1991,
/// section 4; constants ERRCOF(5) = 1/2, ERRCOF(6) = 1/4 of their code): with
/// d = |I_parent − I_lower − I_upper|, the change that measures the parent's
/// real error, each child's error e becomes e·(1 + d/(2(e_lower + e_upper))) + d/4.
/// It catches kinks and jumps the rule points straddle, where the null rules
/// of one region see nothing.
GEOBEM_HD inline void apply_two_level_error(double parent_estimate, CubatureRegion& lower, CubatureRegion& upper) {
  const double change = fabs(parent_estimate - lower.estimate - upper.estimate);
  const double children = lower.error + upper.error;
  // The change goes to the children in proportion to their own errors, so
  // that a child split again takes its share with it.
  lower.change = children > 0.0 ? change * (lower.error / children) : 0.5 * change;
  upper.change = change - lower.change;
  if (children > 0.0) {
    const double factor = 1.0 + 0.5 * change / children;
    lower.error *= factor;
    upper.error *= factor;
  }
  lower.error += 0.25 * change;
  upper.error += 0.25 * change;
}

/// Applies the whole rule to one region sequentially (the CPU path; the CUDA
/// kernels spread the same points over a thread block); w = genz_malik_weights(n).
template <class Integrand>
GEOBEM_HD inline void apply_genz_malik(const Integrand& f, int n, const GenzMalikWeights& w, CubatureRegion& region) {
  GenzMalikValues values{};
  double x[kMaxCubatureDim];
  const int count = genz_malik_point_count(n);
  for (int k = 0; k < count; ++k) {
    genz_malik_point(k, n, region, x);
    genz_malik_file_value(k, n, f(x, n), values);
  }
  genz_malik_combine(n, w, values, region);
}

/// The same for a single region (computes the weights first).
template <class Integrand>
GEOBEM_HD inline void apply_genz_malik(const Integrand& f, int n, CubatureRegion& region) {
  apply_genz_malik(f, n, genz_malik_weights(n), region);
}

}  // namespace geobem::quadrature
