#pragma once
// Quadrature over flat triangles for the collocation BEM: collapsed
// Gauss–Legendre products (Duffy 1982, "Quadrature over a pyramid or cube of
// integrands with a singularity at a vertex", SIAM J. Numer. Anal. 19) whose
// collapsed vertex removes a 1/r (and, against a shape function vanishing
// there, a 1/r²) singularity, and uniform subdivision for nearly singular
// elements. The order grows as the collocation point nears the element
// (distance / longest edge) and with the wave number |s|·h/c_s of the
// Laplace parameter, since e^{−s r/c} oscillates across an element.
#include <cmath>

#include "gpu/bem/vec3.hpp"
#include "gpu/core/host_device.hpp"

namespace geobem::bem {

/// Gauss–Legendre rules of orders 1…max_order mapped to [0, 1]; rule n starts
/// at index n(n−1)/2. Filled on the host by make_quadrature_table().
struct QuadratureTable {
  static constexpr int max_order = 20;
  static constexpr int size = max_order * (max_order + 1) / 2;
  double node[size];
  double weight[size];
};

/// The table from geobem::gauss_legendre_rule (A&S 25.4.29 nodes).
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
};

/// Plan for a point at distance `distance` from the element's centroid, longest
/// edge `edge` (m), wave number times edge `kappa` = |s|·edge/c_s (0 for
/// statics); `singular` when the point lies on the element (Duffy rule).
GEOBEM_HD inline QuadraturePlan quadrature_plan(double distance, double edge, double kappa, bool singular) {
  const int extra = static_cast<int>(ceil(0.5 * kappa));
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

/// Integrates f over the triangle `v` (area `area`, m²) by `plan`:
/// singular_vertex 0..2 collapses the product rule at that vertex; a point
/// strictly inside the element (`inner`, barycentric `inner_lam`) splits it
/// into three triangles collapsed at the point; otherwise subdivisions² equal
/// triangles, each with a collapsed rule. With `share`, only its points.
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
      collapsed_rule(p00, p10, p01, twice_sub, v, plan.order, table, f, share);
      if (j < m - i - 1) {
        const double p11[3] = {1 - (i + j + 2) * h, (i + 1) * h, (j + 1) * h};
        collapsed_rule(p10, p11, p01, twice_sub, v, plan.order, table, f, share);
      }
    }
}

}  // namespace geobem::bem
