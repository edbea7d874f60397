#pragma once
// Quadrature over flat triangles for the collocation BEM: collapsed
// Gauss–Legendre products (Duffy 1982, "Quadrature over a pyramid or cube of
// integrands with a singularity at a vertex", SIAM J. Numer. Anal. 19) whose
// collapsed vertex removes a 1/r (and, against a shape function vanishing
// there, a 1/r²) singularity; fully symmetric rules (Dunavant 1985) of the
// same polynomial degree with about two thirds of the points where the
// integrand is smooth (a point off the element); and uniform subdivision for
// nearly singular elements. The degree grows as the collocation point nears
// the element (distance / longest edge) and with the wave number |s|·h/c_s of
// the Laplace parameter, since e^{−s r/c} oscillates across an element.
#include <cmath>

#include "gpu/bem/vec3.hpp"
#include "gpu/core/host_device.hpp"

namespace geobem::bem {

/// Symmetric triangle rule r (0 ≤ r < QuadratureTable::symmetric_rule_count)
/// integrates polynomials of this total degree exactly: 4, 6, …, 14.
GEOBEM_HD constexpr int symmetric_rule_degree(int r) { return 4 + 2 * r; }

/// Points of symmetric rule r (Dunavant 1985, Table I: degrees 4, 6, …, 14).
GEOBEM_HD constexpr int symmetric_rule_points(int r) {
  return r == 0 ? 6 : r == 1 ? 12 : r == 2 ? 16 : r == 3 ? 25 : r == 4 ? 33 : 42;
}

/// Gauss–Legendre rules of orders 1…max_order mapped to [0, 1] (rule n starts
/// at index n(n−1)/2) and the symmetric triangle rules (rule r's points are
/// symmetric_start[r]…symmetric_start[r + 1] − 1: barycentric coordinates and
/// weights that sum to 1 over the rule). Filled on the host by
/// make_quadrature_table().
struct QuadratureTable {
  static constexpr int max_order = 20;
  static constexpr int size = max_order * (max_order + 1) / 2;
  static constexpr int symmetric_rule_count = 6;
  static constexpr int symmetric_point_count = 6 + 12 + 16 + 25 + 33 + 42;
  double node[size];
  double weight[size];
  int symmetric_start[symmetric_rule_count + 1];
  double symmetric_lambda[symmetric_point_count][3];
  double symmetric_weight[symmetric_point_count];
};

/// The table: Gauss–Legendre from geobem::gauss_legendre_rule (A&S 25.4.29
/// nodes), symmetric rules from Dunavant (1985), Table I (triangle_quadrature.cpp).
QuadratureTable make_quadrature_table();

/// A point closer to an element's centroid than this many longest edges takes
/// a subdivided (near) rule, a farther one a single collapsed product.
constexpr double near_distance_ratio = 1.5;

/// The share of a rule's points that one of `stride` cooperating threads
/// evaluates: those whose running index is `first` modulo `stride` (the
/// default, 0 of 1, is every point). Lets a warp split one pair's points.
struct PointShare {
  int first = 0, stride = 1;
  int index = 0;  ///< points of the rule before the current product
  /// The first of the next `count` points this share takes (index relative
  /// to them; ≥ count when none), and moves past them.
  GEOBEM_HD int begin(int count) {
    const int offset = ((first - index) % stride + stride) % stride;
    index += count;
    return offset;
  }
};

/// How one (collocation point, element) pair is integrated.
struct QuadraturePlan {
  int order = 3;         ///< Gauss–Legendre points per direction of each collapsed product
  int subdivisions = 1;  ///< the element is split into subdivisions² similar triangles
  /// ≥ 0: each (sub-)triangle takes symmetric rule `symmetric_rule` instead
  /// of the collapsed product (the same degree 2·order − 2); −1: the product.
  int symmetric_rule = -1;
  /// Points per (sub-)triangle.
  GEOBEM_HD int triangle_points() const {
    return symmetric_rule >= 0 ? symmetric_rule_points(symmetric_rule) : order * order;
  }
};

/// What the Laplace parameter s does across one element (longest edge h) seen
/// from one point, for the S and the P wave (speed c): the wave number times
/// the edge κ = |s|·h/c, and the net decay exponent of the kernel's dynamic
/// part against its static (Kelvin) size, Re s·r_min/c − ln(1 + |s|·r_max/c)
/// (r_min, r_max: the nearest and farthest the element can be; the logarithm
/// is the traction's s/c factor). All zero for statics.
struct PairWaves {
  double kappa_s = 0.0, decay_s = 0.0, kappa_p = 0.0, decay_p = 0.0;
};

/// Relative accuracy asked of the dynamic factor e^{−s r/c} of a regular
/// pair, measured against the kernel's static (Kelvin) size there.
constexpr double wave_tolerance = 1e-4;

/// Polynomial degree (even) that the factor e^{−κt}, t ∈ [0, 1], of one wave
/// needs across an element, damped by e^{−decay}. Its Chebyshev coefficients
/// on [0, 1] are 2 e^{−κ/2} I_n(κ/2) (A&S 9.6.34), and by the series A&S
/// 9.6.10, |I_n(κ/2)| ≤ (|κ|/4)^n / n! · e^{|κ|²/(16(n+1))}: the degree is the
/// first n − 1 past |κ|/4 at which 2 e^{−decay} times that bound falls below
/// wave_tolerance; 0 when 2 e^{−decay} does already.
GEOBEM_HD inline int wave_degree(double kappa, double decay) {
  double bound = 2.0 * ::exp(-decay);
  if (bound <= wave_tolerance) return 0;
  const double quarter = 0.25 * kappa;
  for (int n = 1;; ++n) {
    bound *= quarter / n;
    // The exponential factor is ≥ 1: only evaluated once the rest is small.
    if (n > quarter && bound <= wave_tolerance && bound * ::exp(quarter * quarter / (n + 1)) <= wave_tolerance)
      return n - 1 + (n - 1) % 2;
  }
}

/// Plan for a point at distance `distance` from the element's centroid, longest
/// edge `edge` (m), the pair's `waves` (PairWaves{} for statics); `singular`
/// when the point lies on the element (Duffy rule). The Gauss–Legendre order
/// per direction grows by ⌈κ_s/2⌉ (a degree 2⌈κ_s/2⌉ for the waves); off the
/// element it grows by no more than the degree that the decayed waves need
/// (wave_degree): far from the point, where the S wave has died out, the
/// element needs the degree of its static kernel and of the slower-varying P
/// wave only.
GEOBEM_HD inline QuadraturePlan quadrature_plan(double distance, double edge, const PairWaves& waves, bool singular) {
  int extra = static_cast<int>(ceil(0.5 * waves.kappa_s));
  if (!singular) {
    const int s_degree = wave_degree(waves.kappa_s, waves.decay_s), p_degree = wave_degree(waves.kappa_p, waves.decay_p);
    const int needed = (s_degree > p_degree ? s_degree : p_degree) / 2;
    if (needed < extra) extra = needed;
  }
  QuadraturePlan plan;
  const double ratio = distance / edge;
  if (singular) {
    plan.order = 8 + extra;
  } else if (ratio >= near_distance_ratio) {
    plan.order = (ratio >= 5.0 ? 3 : ratio >= 3.0 ? 4 : ratio >= 2.0 ? 5 : 7) + extra;
  } else {
    // Sub-triangles about 1.5× smaller than the point's distance: halving
    // them again (3/ratio) changes the rod's x̂ by under 4e-8 relative at
    // twice the points.
    plan.subdivisions = ratio > 0.0 ? static_cast<int>(ceil(1.5 / ratio)) : 8;
    if (plan.subdivisions > 8) plan.subdivisions = 8;
    plan.order = 5 + (extra + plan.subdivisions - 1) / plan.subdivisions;
  }
  if (plan.order > QuadratureTable::max_order) plan.order = QuadratureTable::max_order;
  // A collapsed product of order n integrates polynomials of degree 2n − 2
  // over the triangle exactly; off the element the integrand is smooth, and
  // a symmetric rule of that degree does as well with fewer points.
  const int degree = 2 * plan.order - 2;
  if (!singular && degree <= symmetric_rule_degree(QuadratureTable::symmetric_rule_count - 1))
    plan.symmetric_rule = degree > 4 ? (degree - 4) / 2 : 0;
  return plan;
}

/// Collapsed product rule on the sub-triangle with barycentric vertices l0
/// (collapsed, where a singularity may sit), l1, l2 of the element `v`;
/// `twice_area` is twice the sub-triangle's area (m²). Calls
/// f(point, weight, barycentric[3]); the weight includes the Jacobian
/// 2·area·u of the map (u, w) ↦ l0 + u(l1 − l0 + w(l2 − l1)); only at the
/// points `share` takes.
template <class F>
GEOBEM_HD inline void collapsed_rule(const double l0[3], const double l1[3], const double l2[3], double twice_area,
                                     const Vec3 v[3], int order, const QuadratureTable& table, F& f,
                                     PointShare& share) {
  const int start = order * (order - 1) / 2, count = order * order;
  for (int point = share.begin(count); point < count; point += share.stride) {
    const int a = point / order, b = point - a * order;
    const double u = table.node[start + a], wu = table.weight[start + a] * u * twice_area;
    const double w = table.node[start + b];
    double lam[3];
    for (int k = 0; k < 3; ++k) lam[k] = l0[k] + u * ((l1[k] - l0[k]) + w * (l2[k] - l1[k]));
    const Vec3 x = lam[0] * v[0] + lam[1] * v[1] + lam[2] * v[2];
    f(x, wu * table.weight[start + b], lam);
  }
}

/// Symmetric rule `rule` on the sub-triangle with barycentric vertices l0, l1,
/// l2 of the element `v`; `area` is the sub-triangle's area (m²). Calls
/// f(point, weight, barycentric[3]) at the points `share` takes.
template <class F>
GEOBEM_HD inline void symmetric_rule(const double l0[3], const double l1[3], const double l2[3], double area,
                                     const Vec3 v[3], int rule, const QuadratureTable& table, F& f,
                                     PointShare& share) {
  const int start = table.symmetric_start[rule], count = table.symmetric_start[rule + 1] - start;
  for (int point = share.begin(count); point < count; point += share.stride) {
    const double* b = table.symmetric_lambda[start + point];
    double lam[3];
    for (int k = 0; k < 3; ++k) lam[k] = b[0] * l0[k] + b[1] * l1[k] + b[2] * l2[k];
    const Vec3 x = lam[0] * v[0] + lam[1] * v[1] + lam[2] * v[2];
    f(x, area * table.symmetric_weight[start + point], lam);
  }
}

/// Integrates f over the triangle `v` (area `area`, m²) by `plan`:
/// singular_vertex 0..2 collapses the product rule at that vertex; a point
/// strictly inside the element (`inner`, barycentric `inner_lam`) splits it
/// into three triangles collapsed at the point; otherwise subdivisions² equal
/// triangles, each with the plan's symmetric rule or collapsed product. With
/// `share`, only its points.
template <class F>
GEOBEM_HD inline void integrate_triangle(const Vec3 v[3], double area, int singular_vertex, bool inner,
                                         const double inner_lam[3], const QuadraturePlan& plan,
                                         const QuadratureTable& table, F& f, PointShare share = {}) {
  const double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  if (singular_vertex >= 0) {
    const int a = singular_vertex;
    collapsed_rule(e[a], e[(a + 1) % 3], e[(a + 2) % 3], 2.0 * area, v, plan.order, table, f, share);
    return;
  }
  if (inner) {
    // Sub-triangle (ξ, v_k, v_k+1) has area λ_{k+2}·area.
    for (int k = 0; k < 3; ++k)
      collapsed_rule(inner_lam, e[k], e[(k + 1) % 3], 2.0 * area * inner_lam[(k + 2) % 3], v, plan.order, table, f,
                     share);
    return;
  }
  const int m = plan.subdivisions;
  const double h = 1.0 / m, twice_sub = 2.0 * area / (m * m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m - i; ++j) {
      // Grid point (i, j) has λ1 = i/m, λ2 = j/m: an "up" triangle, and a "down" one where it fits.
      const double p00[3] = {1 - (i + j) * h, i * h, j * h};
      const double p10[3] = {1 - (i + j + 1) * h, (i + 1) * h, j * h};
      const double p01[3] = {1 - (i + j + 1) * h, i * h, (j + 1) * h};
      const double p11[3] = {1 - (i + j + 2) * h, (i + 1) * h, (j + 1) * h};
      const bool down = j < m - i - 1;
      if (plan.symmetric_rule >= 0) {
        symmetric_rule(p00, p10, p01, 0.5 * twice_sub, v, plan.symmetric_rule, table, f, share);
        if (down) symmetric_rule(p10, p11, p01, 0.5 * twice_sub, v, plan.symmetric_rule, table, f, share);
      } else {
        collapsed_rule(p00, p10, p01, twice_sub, v, plan.order, table, f, share);
        if (down) collapsed_rule(p10, p11, p01, twice_sub, v, plan.order, table, f, share);
      }
    }
}

}  // namespace geobem::bem
