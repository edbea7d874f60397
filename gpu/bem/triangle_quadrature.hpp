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
/// evaluates: those whose index is `first` modulo `stride` (the default, 0 of
/// 1, is every point). Lets a warp split one pair's points.
struct PointShare {
  int first = 0, stride = 1;
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
/// wave_tolerance; 0 when 2 e^{−decay} does already. Degrees from
/// max_wave_degree on all give the largest rule (quadrature_plan caps the
/// order at QuadratureTable::max_order even for 8² sub-triangles), so the
/// search stops there, and where the bound overflows (|κ|/4 beyond about
/// 700: a wave far shorter than the element, a time step far below the
/// mesh's) it returns max_wave_degree at once.
constexpr int max_wave_degree = 256;
GEOBEM_HD inline int wave_degree(double kappa, double decay) {
  double bound = 2.0 * ::exp(-decay);
  if (bound <= wave_tolerance) return 0;
  const double quarter = 0.25 * kappa;
  for (int n = 1; n <= max_wave_degree; ++n) {
    bound *= quarter / n;
    if (!(bound <= 1e300)) return max_wave_degree;  // overflowed (or NaN): the largest rule
    // The exponential factor is ≥ 1: only evaluated once the rest is small.
    if (n > quarter && bound <= wave_tolerance && bound * ::exp(quarter * quarter / (n + 1)) <= wave_tolerance)
      return n - 1 + (n - 1) % 2;
  }
  return max_wave_degree;
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
  // Clamped before the conversion: any extra past max_wave_degree / 2 gives the largest rule.
  const double half_kappa = ceil(0.5 * waves.kappa_s);
  int extra = half_kappa < max_wave_degree / 2 ? static_cast<int>(half_kappa) : max_wave_degree / 2;
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

/// Sub-triangle `sub` of the element split into m² similar triangles:
/// barycentric vertices l0, l1, l2 (the m(m+1)/2 "up" triangles row by row,
/// then the m(m−1)/2 "down" ones).
GEOBEM_HD inline void subdivision_triangle(int m, int sub, double l0[3], double l1[3], double l2[3]) {
  const int up = m * (m + 1) / 2;
  const bool down = sub >= up;
  int rest = down ? sub - up : sub, i = 0;
  for (int row = down ? m - 1 : m; rest >= row; --row, ++i) rest -= row;
  const int j = rest;
  const double h = 1.0 / m;
  // Grid point (i, j) has λ1 = i/m, λ2 = j/m: the up triangle (i, j), (i+1, j),
  // (i, j+1); the down one (i+1, j), (i+1, j+1), (i, j+1).
  const int a[3][2] = {{down ? i + 1 : i, j}, {i + 1, down ? j + 1 : j}, {i, j + 1}};
  double* out[3] = {l0, l1, l2};
  for (int k = 0; k < 3; ++k) {
    out[k][1] = a[k][0] * h;
    out[k][2] = a[k][1] * h;
    out[k][0] = 1.0 - out[k][1] - out[k][2];
  }
}

/// The points of one rule over the triangle `v` (area `area`, m²) by
/// `plan`, numbered 0 … count − 1: singular_vertex 0..2 collapses the
/// product rule at that vertex; a point strictly inside the element
/// (`inner`, barycentric `inner_lam`) splits it into three triangles
/// collapsed at the point; otherwise subdivisions² equal triangles, each
/// with the plan's symmetric rule or collapsed product. point() caches the
/// current sub-triangle, so walking the indices in increasing order sets
/// each one up once.
///
/// The collapsed product of order n on a sub-triangle with barycentric
/// vertices l0 (collapsed, where a singularity may sit), l1, l2 maps (u, w)
/// in [0, 1]² to l0 + u(l1 − l0 + w(l2 − l1)), weight 2·area·u times the
/// Gauss–Legendre weights.
class TrianglePoints {
 public:
  GEOBEM_HD TrianglePoints(const Vec3 v[3], double area, int singular_vertex, bool inner, const double inner_lam[3],
                           const QuadraturePlan& plan, const QuadratureTable& table)
      : v_{v[0], v[1], v[2]}, area_(area), singular_vertex_(singular_vertex), inner_lam_(inner_lam), table_(table),
        collapsed_(singular_vertex >= 0 || inner), product_(collapsed_ || plan.symmetric_rule < 0),
        order_(plan.order), m_(plan.subdivisions),
        per_triangle_(product_ ? order_ * order_ : symmetric_rule_points(plan.symmetric_rule)),
        triangles_(singular_vertex >= 0 ? 1 : inner ? 3 : m_ * m_), gauss_start_(order_ * (order_ - 1) / 2),
        symmetric_start_(product_ ? 0 : table.symmetric_start[plan.symmetric_rule]) {}
  /// Number of points.
  GEOBEM_HD int count() const { return triangles_ * per_triangle_; }
  /// Point `index` (0 ≤ index < count()): position x, weight w (m²) and barycentric coordinates lam.
  GEOBEM_HD void point(int index, Vec3& x, double& w, double lam[3]) {
    const int sub = index / per_triangle_, q = index - sub * per_triangle_;
    if (sub != current_) set_sub_triangle(sub);
    double b[3];  // barycentric coordinates in the sub-triangle
    if (product_) {
      const int i = q / order_, j = q - i * order_;
      const double u = table_.node[gauss_start_ + i], t = table_.node[gauss_start_ + j];
      b[0] = 1.0 - u;
      b[1] = u * (1.0 - t);
      b[2] = u * t;
      w = 2.0 * sub_area_ * u * table_.weight[gauss_start_ + i] * table_.weight[gauss_start_ + j];
    } else {
      const double* rule = table_.symmetric_lambda[symmetric_start_ + q];
      b[0] = rule[0];
      b[1] = rule[1];
      b[2] = rule[2];
      w = sub_area_ * table_.symmetric_weight[symmetric_start_ + q];
    }
    for (int c = 0; c < 3; ++c) lam[c] = b[0] * l0_[c] + b[1] * l1_[c] + b[2] * l2_[c];
    x = lam[0] * v_[0] + lam[1] * v_[1] + lam[2] * v_[2];
  }

 private:
  GEOBEM_HD void set_sub_triangle(int sub) {
    current_ = sub;
    if (collapsed_) {
      // At the singular vertex k: (v_k, v_k+1, v_k+2). At ξ inside: the
      // sub-triangle (ξ, v_k, v_k+1) of area λ_{k+2}·area, k = sub.
      const int k = singular_vertex_ >= 0 ? singular_vertex_ : sub;
      const int k1 = singular_vertex_ >= 0 ? (k + 1) % 3 : k, k2 = (k1 + 1) % 3;
      for (int c = 0; c < 3; ++c) {
        l0_[c] = singular_vertex_ >= 0 ? (c == k ? 1.0 : 0.0) : inner_lam_[c];
        l1_[c] = c == k1 ? 1.0 : 0.0;
        l2_[c] = c == k2 ? 1.0 : 0.0;
      }
      sub_area_ = singular_vertex_ >= 0 ? area_ : area_ * inner_lam_[(k + 2) % 3];
    } else {
      subdivision_triangle(m_, sub, l0_, l1_, l2_);
      sub_area_ = area_ / (m_ * m_);
    }
  }
  Vec3 v_[3];
  double area_;
  int singular_vertex_;
  const double* inner_lam_;
  const QuadratureTable& table_;
  bool collapsed_, product_;
  int order_, m_, per_triangle_, triangles_, gauss_start_, symmetric_start_;
  int current_ = -1;
  double l0_[3] = {}, l1_[3] = {}, l2_[3] = {}, sub_area_ = 0.0;
};

/// Integrates f over the triangle `v` by `plan` (TrianglePoints), calling
/// f(point, weight, barycentric[3]) at the points `share` takes. Every rule
/// goes through one call of f, so the pair kernel is inlined once (on the
/// GPU, a small instruction footprint).
template <class F>
GEOBEM_HD inline void integrate_triangle(const Vec3 v[3], double area, int singular_vertex, bool inner,
                                         const double inner_lam[3], const QuadraturePlan& plan,
                                         const QuadratureTable& table, F& f, PointShare share = {}) {
  TrianglePoints points(v, area, singular_vertex, inner, inner_lam, plan, table);
  const int count = points.count();
  for (int index = share.first; index < count; index += share.stride) {
    Vec3 x;
    double w, lam[3];
    points.point(index, x, w, lam);
    f(x, w, lam);
  }
}

}  // namespace geobem::bem
