#pragma once
// Displacement at receivers inside the elastic solid from the boundary
// solution, by Somigliana's representation formula in the Laplace domain
// (docs/references.md#cq-bem, "Receivers in the solid"; Domínguez 1993):
// at a point x of the solid (c = I)
//   û(x, s) = Σ_e ∫_e U*(x, y; s) t̂(y) dΓ_y − Σ_e ∫_e T*(x, y; s) û(y) dΓ_y,
// with the model's discretisation (t constant per element, u linear), the
// same integrals V_e, K_eb as a collocation row (DynamicIntegrand), normals
// out of the solid. The point kernel below is what the OpenMP loop
// (receiver_field_cpu.cpp) and the CUDA kernel (receiver_field_cuda.cu) share;
// per CQ frequency the result transforms to time like the boundary unknowns
// (cq_time_series).
#include <vector>

#include "gpu/bem/collocation_pair.hpp"
#include "gpu/bem/cq_solver.hpp"

namespace geobem::bem {

/// A receiver nearer to an element's plane than this many longest edges,
/// whose foot lies on the element, has the element split at the foot into
/// three collapsed (Duffy) products of the highest order: their Jacobian
/// vanishes where the nearly singular kernel peaks.
constexpr double receiver_foot_split_ratio = 0.25;

/// The nearest a receiver may lie to an element, in longest edges of that
/// element: closer, the quadrature above loses accuracy, and geobem-time
/// refuses the receiver. Measured on the rod against a finer quadrature
/// (tests/bem/test_receiver_near_surface.cpp, the field's error relative to
/// its largest value over the CQ frequencies, the worst foot of the receiver
/// on the element; bench/RESULTS.md): 1e-6 at 0.1 edges, 3e-4 at 0.05, 4e-3
/// at 0.03, 5e-2 at 0.01, and 6 times the field itself at 1e-5. The neighbours of the element
/// under a receiver take the subdivided rule (8² sub-triangles at most),
/// which no longer resolves a point that near.
constexpr double receiver_min_distance_ratio = 0.05;

/// Integrates element e for a receiver at x and Laplace parameter s into
/// `out` (V_e and every K_eb). Quadrature by distance as for collocation
/// pairs (quadrature_plan), with the foot split above for receivers close to
/// the element. Returns false when the element is decayed at s (its
/// integrals vanish in double precision: nothing to add).
template <class Solution>
GEOBEM_HD inline bool integrate_receiver_element(const ModelView& mv, Vec3 x, int e, Complex s,
                                                 const QuadratureTable& table, DynamicIntegrand<Solution>& out) {
  const double edge = mv.longest_edges[e];
  const double distance = norm(x - mv.centroids[e]);
  if (Solution::slowest_decay(s, mv.material) * (distance - edge) > decayed_exponent) return false;
  const Vec3 v[3] = {mv.nodes[mv.triangles[3 * e]], mv.nodes[mv.triangles[3 * e + 1]],
                     mv.nodes[mv.triangles[3 * e + 2]]};
  out.xi = x;
  out.normal = mv.normals[e];
  out.s = s;
  out.material = mv.material;
  out.singular_vertex = -1;
  out.need_k = true;
  QuadraturePlan plan = quadrature_plan(distance, edge, Solution::waves(distance, edge, s, mv.material), false);
  // Barycentric coordinates of the foot of x on the element's plane.
  const double height = dot(x - v[0], out.normal);
  const Vec3 foot = x - height * out.normal;
  const double twice_area = 2.0 * mv.areas[e];
  double foot_lam[3];
  bool foot_inside = true;
  for (int k = 0; k < 3; ++k) {
    foot_lam[k] = dot(cross(v[(k + 2) % 3] - v[(k + 1) % 3], foot - v[(k + 1) % 3]), out.normal) / twice_area;
    foot_inside = foot_inside && foot_lam[k] > 0.0;
  }
  const bool split = foot_inside && (height < 0 ? -height : height) < receiver_foot_split_ratio * edge;
  if (split) plan.order = QuadratureTable::max_order;
  integrate_triangle(v, mv.areas[e], -1, split, foot_lam, plan, table, out);
  out.finish();
  return true;
}

/// Adds element e's part of û at a receiver, V_e t̂_e − Σ_b K_eb û_b, for
/// load case `load_case` of the boundary solution `unknowns` (its n values at
/// one frequency, BemModel's blocks): t̂_e is the unknown traction of a fixed
/// element, the prescribed amplitude on an element of that case, else 0;
/// û_b the unknown displacement of a free node, 0 on a fixed one.
template <class Solution>
GEOBEM_HD inline void add_receiver_element(const ModelView& mv, int e, int load_case, const Complex* unknowns,
                                           const DynamicIntegrand<Solution>& r, Complex u[3]) {
  Complex t[3];
  const int block = mv.element_block[e];
  if (block >= 0) {
    for (int j = 0; j < 3; ++j) t[j] = unknowns[3 * block + j];
  } else if (mv.element_load_case[e] == load_case) {
    const Vec3 amplitude = mv.element_traction[e];
    t[0] = Complex(amplitude.x);
    t[1] = Complex(amplitude.y);
    t[2] = Complex(amplitude.z);
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) u[i] += r.v[i][j] * t[j];
  for (int b = 0; b < 3; ++b) {
    const int column = mv.node_block[mv.triangles[3 * e + b]];
    if (column < 0) continue;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) u[i] -= r.k[b][i][j] * unknowns[3 * column + j];
  }
}

/// The Laplace-domain displacement at `receivers` (m, points strictly inside
/// the solid: the caller checks) of every load case and frequency of
/// `boundary` (solve_laplace's solution of `model` under `settings`): a
/// LaplaceSolution with 3R "unknowns" (receiver r, component i at 3r + i),
/// the same cases and frequencies, ready for cq_time_series. CPU: OpenMP over
/// receivers; CUDA: one block per (receiver, frequency), elements over its
/// threads. Throws InputError when `boundary` does not fit `model`.
/// `Solution`: the fundamental solution the boundary was solved with.
template <class Solution = ElastodynamicFullSpace>
LaplaceSolution receiver_laplace(const BemModel& model, const std::vector<Vec3>& receivers,
                                 const CqSettings& settings, const LaplaceSolution& boundary,
                                 const CqOptions& options);

/// A zeroed receiver field shaped after `boundary`: 3·receivers unknowns, the
/// same load cases and frequencies (both paths of receiver_laplace fill it).
inline LaplaceSolution zero_receiver_field(std::size_t receivers, const LaplaceSolution& boundary) {
  LaplaceSolution field;
  field.unknowns = 3 * static_cast<int>(receivers);
  field.load_cases = boundary.load_cases;
  field.frequencies = boundary.frequencies;
  field.values.assign(static_cast<std::size_t>(field.load_cases) * field.frequencies.size() * field.unknowns,
                      Complex());
  return field;
}

/// The CUDA path of receiver_laplace (receiver_field_cuda.cu).
template <class Solution>
LaplaceSolution receiver_laplace_cuda(const BemModel& model, const std::vector<Vec3>& receivers,
                                      const CqSettings& settings, const LaplaceSolution& boundary);

}  // namespace geobem::bem
