#pragma once
// The spherical cavity as the exterior-problem tests set it up: radius
// a = 1 m in granite-like rock (E = 50 GPa, ν = 0.25, ρ = 2700 kg/m³, so
// c ≈ 4714 m/s), internal pressure p = 1 MPa on the group "wall", meshed by
// Gmsh and oriented with its normals into the cavity (out of the solid); the
// reference is Sharpe's closed form (gpu/bem/cavity_closed_form.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/cavity_closed_form.hpp"
#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/receiver_field.hpp"
#include "gpu/core/seconds_since.hpp"
#include "mesh/surface/box_generator.hpp"
#include "mesh/surface/gmsh_geometry.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "stages/cq_stage/cq_problem.hpp"

namespace geobem::test {

constexpr double cavity_young = 50e9, cavity_poisson = 0.25, cavity_density = 2700.0, cavity_pressure = 1e6,
                 cavity_radius = 1.0;

inline bem::SphericalCavity cavity_reference() {
  return {cavity_radius, cavity_pressure, cavity_young / (2 * (1 + cavity_poisson)), cavity_poisson, cavity_density};
}

/// The sphere r = a meshed by Gmsh at `element_size` (m), normals out of the solid.
inline surface::SurfaceMesh cavity_mesh(double element_size) {
  surface::CadShape sphere;
  sphere.radius = cavity_radius;
  surface::SurfaceMesh mesh = surface::mesh_cad_shape(sphere, element_size);
  surface::orient_outward(mesh, surface::SolidDomain::exterior);
  return mesh;
}

/// The sphere r = a without Gmsh, for executables that run where Gmsh is not
/// installed (the GPU tests): the box [−a, a]³ of generate_box_surface at
/// `element_size` with every node moved radially onto the sphere (a cubed
/// sphere), one group "wall", normals out of the solid.
inline surface::SurfaceMesh cubed_sphere_mesh(double element_size) {
  surface::SurfaceMesh mesh =
      surface::generate_box_surface({2 * cavity_radius, 2 * cavity_radius, 2 * cavity_radius},
                                    {-cavity_radius, -cavity_radius, -cavity_radius}, element_size);
  for (auto& x : mesh.nodes) {
    const double scale = cavity_radius / std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (double& coordinate : x) coordinate *= scale;
  }
  mesh.group_names = {"wall"};
  mesh.group_of_triangle.assign(mesh.triangles.size(), 0);
  surface::orient_outward(mesh, surface::SolidDomain::exterior);
  return mesh;
}

/// The BEM model of the pressurized cavity; the mesh's own orientation
/// (solid_domain_of) says that the solid is unbounded.
inline bem::BemModel cavity_model(const surface::SurfaceMesh& mesh) {
  bem::SurfaceView view = cq_stage::bem_surface(mesh);
  view.unbounded_solid = surface::solid_domain_of(mesh) == surface::SolidDomain::exterior;
  return bem::make_bem_model(view, {{"wall", false, {0.0, 0.0, 0.0}, cavity_pressure}},
                             bem::material_from_young(cavity_young, cavity_poisson, cavity_density));
}

/// Radial component x·u/|x| of the displacement u (3 values) at x.
template <class T>
T radial_component(const bem::Vec3& x, const T* u) {
  const double r = norm(x);
  return (x.x / r) * u[0] + (x.y / r) * u[1] + (x.z / r) * u[2];
}

/// Mean over the wall nodes of the radial component x·u/|x| of nodal
/// displacements `values` (block p of free node p, 3 components each,
/// `stride` values per snapshot), one mean per snapshot. T is double or Complex.
template <class T>
std::vector<T> wall_mean_radial(const bem::BemModel& model, const std::vector<T>& values, std::size_t stride) {
  const std::size_t snapshots = values.size() / stride, nodes = model.free_nodes.size();
  std::vector<T> means(snapshots, T());
  for (std::size_t k = 0; k < snapshots; ++k) {
    for (std::size_t p = 0; p < nodes; ++p)
      means[k] += radial_component(model.nodes[model.free_nodes[p]], &values[k * stride + 3 * p]);
    means[k] = (1.0 / nodes) * means[k];
  }
  return means;
}

/// Receivers at radius r in three directions (on an axis, in a diagonal
/// plane, off every symmetry plane of the mesh).
inline std::vector<bem::Vec3> cavity_receivers(double r) {
  const bem::Vec3 directions[3] = {{0, 0, 1}, {1 / std::sqrt(2.0), 1 / std::sqrt(2.0), 0}, {0.36, -0.48, 0.8}};
  std::vector<bem::Vec3> out;
  for (const bem::Vec3& d : directions) out.push_back(r * d);
  return out;
}

/// Relative L2 difference of `series` (one value per step of Δt, from t = 0) from `exact(t)`.
template <class Exact>
double relative_l2(const std::vector<double>& series, double dt, Exact exact) {
  double squared_error = 0, squared_norm = 0;
  for (std::size_t n = 0; n < series.size(); ++n) {
    const double reference = exact(n * dt);
    squared_error += (series[n] - reference) * (series[n] - reference);
    squared_norm += reference * reference;
  }
  return std::sqrt(squared_error / squared_norm);
}

/// Mean longest edge h̄ of the elements (m): the mesh size of the error model.
inline double mean_edge(const bem::BemModel& model) {
  double mean = 0;
  for (double edge : model.longest_edges) mean += edge / model.longest_edges.size();
  return mean;
}

/// The time-stepping error alone: the relative L2 error over the N + 1
/// steps of `settings` of the BDF2 CQ of Sharpe's exact transfer function
/// s û(r, s) under p·H(t), against Sharpe's closed form at r.
inline double cq_error_of_sharpe(double r, const bem::CqSettings& settings) {
  const bem::SphericalCavity cavity = cavity_reference();
  const std::vector<bem::Complex> load =
      bem::cq_forward_transform(std::vector<double>(settings.steps + 1, 1.0), settings);
  std::vector<bem::Complex> transformed(load.size());
  for (std::size_t l = 0; l < load.size(); ++l) {
    const bem::Complex s = bem::cq_laplace_point(settings, static_cast<int>(l));
    const std::complex<double> z(s.re, s.im), transfer = z * bem::cavity_radial_displacement_laplace(cavity, r, z);
    transformed[l] = load[l] * bem::Complex(transfer.real(), transfer.imag());
  }
  return relative_l2(bem::cq_inverse_transform(transformed, 1, settings), settings.time_step,
                     [&](double t) { return bem::cavity_radial_displacement(cavity, r, t); });
}

/// A time-domain run of the cavity under p·H(t): the mean radial wall
/// displacement and the radial displacement at each receiver, n = 0…N, with
/// the seconds of each stage.
struct CavityRun {
  std::vector<double> wall;                   ///< m, one per step
  std::vector<std::vector<double>> receiver;  ///< m, receiver q's series
  bem::CqTimings timings;
  double receiver_seconds = 0, transform_seconds = 0;
};

/// Solves the cavity `model` for every CQ frequency of `settings`, the
/// receivers' Laplace-domain field, and both time series (Heaviside history).
inline CavityRun run_cavity(const bem::BemModel& model, const bem::CqSettings& settings,
                            const std::vector<bem::Vec3>& receivers, const bem::CqOptions& options) {
  using clock = std::chrono::steady_clock;
  CavityRun run;
  const bem::LaplaceSolution boundary = bem::solve_laplace(model, settings, {}, options, run.timings);
  auto start = clock::now();
  const bem::LaplaceSolution field = bem::receiver_laplace(model, receivers, settings, boundary, options);
  run.receiver_seconds = seconds_since(start);
  start = clock::now();
  const std::vector<double> heaviside(settings.steps + 1, 1.0);
  const std::vector<double> unknowns = bem::cq_time_series(boundary, {heaviside}, settings);
  const std::vector<double> series = bem::cq_time_series(field, {heaviside}, settings);
  run.transform_seconds = seconds_since(start);
  run.wall = wall_mean_radial(model, unknowns, model.unknown_count());
  const std::size_t stride = 3 * receivers.size();
  for (std::size_t q = 0; q < receivers.size(); ++q) {
    std::vector<double> radial(settings.steps + 1);
    for (int n = 0; n <= settings.steps; ++n) radial[n] = radial_component(receivers[q], &series[n * stride + 3 * q]);
    run.receiver.push_back(radial);
  }
  return run;
}

}  // namespace geobem::test
