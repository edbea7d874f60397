#pragma once
// Integrals of one (collocation point, element) pair at one Laplace parameter
// s, and where they go in the mixed system: the point kernel that the OpenMP
// loop (cq_solver_cpu.cpp) and the CUDA launcher (cq_solver_cuda.cu) share.
//
// Row p (3 equations) of  c u(ξ) + Σ_e ∫_e T* u dΓ = Σ_e ∫_e U* t dΓ  with u
// linear (shape functions = barycentric λ_b) and t constant per element:
//   V_e = ∫_e U* dΓ,  K_eb = ∫_e T* λ_b dΓ.
// The strongly singular part and the free term c at a node ξ = node a come
// from the rigid-body condition of statics (Brebbia & Dominguez 1992, §5.6;
// interior problem: c + PV∫_Γ T0 dΓ = 0), so
//   c + PV Σ_{e∋a} ∫_e T0 λ_a = −S0(ξ),  S0 = Σ_e ∫_e T0 dΓ less the λ_a parts,
// and the own column keeps only the bounded dynamic remainder T* − T0
// (Schanz & Antes 1997). At a centroid ξ of a fixed element (u = 0 there) only
// V and the columns of free nodes are needed, none of which lie on that element.
#include <cmath>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/complex.hpp"
#include "gpu/bem/fundamental_solution_type.hpp"
#include "gpu/bem/triangle_quadrature.hpp"

namespace geobem::bem {

/// e^{−36} ≈ 2e−16: beyond this many decay lengths (the fundamental
/// solution's slowest decay, Re s/c1, times the distance) a pair's dynamic
/// integrals vanish in double precision and are skipped.
constexpr double decayed_exponent = 36.0;

/// Accumulates V_e and K_eb (blocks [i][j]) of the fundamental solution
/// `Solution` (fundamental_solution_type.hpp) at quadrature points. The sums
/// are of its scaled entries (4πμ U* and 4πμ T* for elastodynamics), and only
/// V's upper triangle (U* is symmetric, by reciprocity): finish() multiplies
/// by Solution::scale and fills V's lower triangle once the points are
/// summed. Fewer accumulators and no per-point scaling: on the GPU the
/// accumulators are most of a thread's registers.
template <class Solution>
struct DynamicIntegrand {
  static constexpr int components = Solution::components;
  Vec3 xi, normal;
  Complex s;
  typename Solution::Parameters material;
  int singular_vertex = -1;  ///< local vertex at ξ, or −1
  bool need_k = true;
  Complex v[components][components];
  Complex k[3][components][components];
  GEOBEM_HD void operator()(Vec3 x, double w, const double lam[3]) {
    const typename Solution::Point kernel = Solution::point(x - xi, normal, s, material);
    for (int i = 0; i < components; ++i)
      for (int j = i; j < components; ++j) v[i][j] += w * kernel.scaled_u(i, j);
    if (!need_k) return;
    const double wl[3] = {w * lam[0], w * lam[1], w * lam[2]};
    if (singular_vertex >= 0)
      add_traction<true>(kernel, wl);
    else
      add_traction<false>(kernel, wl);
  }
  /// Adds w·λ_b · 4πμ T*_ij (wl[b] = w·λ_b) to every K_b sum; with
  /// `own_column`, 4πμ (T* − T0)_ij to that of b = singular_vertex instead
  /// (the free term takes T0's part). A template, so that a regular pair's
  /// loop holds no test of the own column.
  template <bool own_column>
  GEOBEM_HD void add_traction(const typename Solution::Point& kernel, const double wl[3]) {
    const auto remainder = own_column ? kernel.remainder_traction() : kernel.traction;
    for (int i = 0; i < components; ++i)
      for (int j = 0; j < components; ++j) {
        const Complex t = kernel.scaled_t(kernel.traction, i, j);
        const Complex own = own_column ? kernel.scaled_t(remainder, i, j) : t;
        for (int b = 0; b < 3; ++b) k[b][i][j] += wl[b] * (own_column && b == singular_vertex ? own : t);
      }
  }
  /// V_e (m/N · m²) and K_eb (m²/m²) from the sums: Solution::scale times them, V symmetric.
  GEOBEM_HD void finish() {
    const double scale = Solution::scale(material);
    for (int i = 0; i < components; ++i)
      for (int j = i; j < components; ++j) v[j][i] = v[i][j] = scale * v[i][j];
    if (!need_k) return;
    for (int b = 0; b < 3; ++b)
      for (int i = 0; i < components; ++i)
        for (int j = 0; j < components; ++j) k[b][i][j] = scale * k[b][i][j];
  }
};

/// Accumulates the static rigid-body sum S0 of one pair (blocks [i][j]).
template <class Solution>
struct StaticIntegrand {
  static constexpr int components = Solution::components;
  Vec3 xi, normal;
  typename Solution::Parameters material;
  int singular_vertex = -1;
  double s0[components][components] = {};
  GEOBEM_HD void operator()(Vec3 x, double w, const double lam[3]) {
    double t0[components][components];
    Solution::static_traction(x - xi, normal, material, t0);
    const double f = singular_vertex >= 0 ? w * (1.0 - lam[singular_vertex]) : w;
    for (int i = 0; i < components; ++i)
      for (int j = 0; j < components; ++j) s0[i][j] += f * t0[i][j];
  }
};

/// Local vertex of element e at collocation point p's node, or −1.
GEOBEM_HD inline int singular_vertex_of(const ModelView& mv, int p, int e) {
  const int node = mv.collocation_node[p];
  for (int k = 0; k < 3; ++k)
    if (mv.triangles[3 * e + k] == node) return k;
  return -1;
}

/// How pair (p, e) is integrated at s: the local vertex at ξ (or −1),
/// whether ξ lies inside e, and the quadrature plan. Computed once per pair
/// and frequency (pair_rule) and handed to integrate_pair.
struct PairRule {
  int vertex = -1;
  bool inner = false;
  QuadraturePlan plan;
  /// Whether ξ lies on e (a vertex of e, or inside it): collapsed products at ξ.
  GEOBEM_HD bool singular() const { return vertex >= 0 || inner; }
  /// Quadrature points of the pair: the count the benchmark's floor figures use.
  GEOBEM_HD int points() const {
    const int per_triangle = plan.triangle_points();
    return vertex >= 0 ? per_triangle : inner ? 3 * per_triangle : plan.subdivisions * plan.subdivisions * per_triangle;
  }
};

/// The rule of pair (p, e) at s into `rule`. Returns false when the pair is
/// decayed at s (its dynamic integrals vanish: nothing to add).
template <class Solution>
GEOBEM_HD inline bool pair_rule(const ModelView& mv, int p, int e, Complex s, PairRule& rule) {
  const Vec3 xi = mv.collocation_points[p];
  rule.vertex = singular_vertex_of(mv, p, e);
  rule.inner = mv.collocation_element[p] == e;
  const double edge = mv.longest_edges[e];
  const double distance = norm(xi - mv.centroids[e]);
  const bool singular = rule.singular();
  if (!singular && Solution::slowest_decay(s, mv.material) * (distance - edge) > decayed_exponent) return false;
  rule.plan = quadrature_plan(distance, edge, Solution::waves(distance, edge, s, mv.material), singular);
  return true;
}

/// Quadrature points of pair (p, e) at s (0 when decayed).
template <class Solution>
GEOBEM_HD inline int pair_quadrature_points(const ModelView& mv, int p, int e, Complex s) {
  PairRule rule;
  return pair_rule<Solution>(mv, p, e, s, rule) ? rule.points() : 0;
}

/// Whether pair (p, e) adds K blocks: e has a free node and ξ is not a
/// centroid of e (at a fixed element's centroid u = 0, so only V is needed).
GEOBEM_HD inline bool pair_needs_k(const ModelView& mv, int e, const PairRule& rule) {
  if (rule.inner) return false;
  for (int k = 0; k < 3; ++k)
    if (mv.node_block[mv.triangles[3 * e + k]] >= 0) return true;
  return false;
}

/// Integrates pair (p, e) at s by `rule` (pair_rule's) into `out` (fields
/// set here), at the points `share` takes.
template <class Solution>
GEOBEM_HD inline void integrate_pair(const ModelView& mv, int p, int e, Complex s, const PairRule& rule,
                                     const QuadratureTable& table, DynamicIntegrand<Solution>& out,
                                     PointShare share = {}) {
  out.xi = mv.collocation_points[p];
  out.normal = mv.normals[e];
  out.s = s;
  out.material = mv.material;
  out.singular_vertex = rule.vertex;
  out.need_k = pair_needs_k(mv, e, rule);
  const Vec3 v[3] = {mv.nodes[mv.triangles[3 * e]], mv.nodes[mv.triangles[3 * e + 1]],
                     mv.nodes[mv.triangles[3 * e + 2]]};
  const double third[3] = {1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0};
  integrate_triangle(v, mv.areas[e], rule.vertex, rule.inner, third, rule.plan, table, out, share);
  out.finish();
}

/// Integrates pair (p, e) at s into `out`. Returns false when the pair is
/// decayed at s (nothing to add).
template <class Solution>
GEOBEM_HD inline bool integrate_pair(const ModelView& mv, int p, int e, Complex s, const QuadratureTable& table,
                                     DynamicIntegrand<Solution>& out) {
  PairRule rule;
  if (!pair_rule<Solution>(mv, p, e, s, rule)) return false;
  integrate_pair(mv, p, e, s, rule, table, out);
  return true;
}

/// Static rigid-body sum of pair (p, e) for a node collocation point p.
template <class Solution>
GEOBEM_HD inline void integrate_pair_static(const ModelView& mv, int p, int e, const QuadratureTable& table,
                                            StaticIntegrand<Solution>& out) {
  out.xi = mv.collocation_points[p];
  out.normal = mv.normals[e];
  out.material = mv.material;
  out.singular_vertex = singular_vertex_of(mv, p, e);
  const Vec3 v[3] = {mv.nodes[mv.triangles[3 * e]], mv.nodes[mv.triangles[3 * e + 1]],
                     mv.nodes[mv.triangles[3 * e + 2]]};
  const QuadraturePlan plan =
      quadrature_plan(norm(out.xi - mv.centroids[e]), mv.longest_edges[e], PairWaves{}, out.singular_vertex >= 0);
  integrate_triangle(v, mv.areas[e], out.singular_vertex, false, nullptr, plan, table, out);
}

/// Adds pair (p, e) to the system: `add.matrix(row, column, value)` and
/// `add.rhs(row, load_case, value)`. Unknown fixed-element tractions move V
/// to the left (−V); prescribed tractions (their amplitudes: a unit load
/// history per load case, which the time stage multiplies by the transformed
/// history ĝ_l of that case) go to the right-hand side column of their case.
template <class Solution, class Adder>
GEOBEM_HD inline void scatter_pair(const ModelView& mv, int p, int e, const DynamicIntegrand<Solution>& r,
                                   Adder& add) {
  constexpr int c = Solution::components;
  const int block = mv.element_block[e];
  if (block >= 0) {
    for (int i = 0; i < c; ++i)
      for (int j = 0; j < c; ++j) add.matrix(c * p + i, c * block + j, -r.v[i][j]);
  } else if (mv.element_load_case[e] >= 0) {
    const Vec3 t = mv.element_traction[e];
    for (int i = 0; i < c; ++i)
      add.rhs(c * p + i, mv.element_load_case[e], r.v[i][0] * t.x + r.v[i][1] * t.y + r.v[i][2] * t.z);
  }
  if (!r.need_k) return;
  for (int b = 0; b < 3; ++b) {
    const int column = mv.node_block[mv.triangles[3 * e + b]];
    if (column < 0) continue;
    for (int i = 0; i < c; ++i)
      for (int j = 0; j < c; ++j) add.matrix(c * p + i, c * column + j, r.k[b][i][j]);
  }
}

}  // namespace geobem::bem
