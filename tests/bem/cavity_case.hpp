#pragma once
// The spherical cavity as the exterior-problem tests set it up: radius
// a = 1 m in granite-like rock (E = 50 GPa, ν = 0.25, ρ = 2700 kg/m³, so
// c ≈ 4714 m/s), internal pressure p = 1 MPa on the group "wall", meshed by
// Gmsh and oriented with its normals into the cavity (out of the solid); the
// reference is Sharpe's closed form (gpu/bem/cavity_closed_form.hpp).
#include <cmath>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/cavity_closed_form.hpp"
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

/// The BEM model of the pressurized cavity; the mesh's own orientation
/// (solid_domain_of) says that the solid is unbounded.
inline bem::BemModel cavity_model(const surface::SurfaceMesh& mesh) {
  bem::SurfaceView view = cq_stage::bem_surface(mesh);
  view.unbounded_solid = surface::solid_domain_of(mesh) == surface::SolidDomain::exterior;
  return bem::make_bem_model(view, {{"wall", false, {0.0, 0.0, 0.0}, cavity_pressure}},
                             bem::material_from_young(cavity_young, cavity_poisson, cavity_density));
}

/// Mean over the wall nodes of the radial component x·u/|x| of nodal
/// displacements `values` (block p of free node p, 3 components each,
/// `stride` values per snapshot), one mean per snapshot. T is double or Complex.
template <class T>
std::vector<T> wall_mean_radial(const bem::BemModel& model, const std::vector<T>& values, std::size_t stride) {
  const std::size_t snapshots = values.size() / stride, nodes = model.free_nodes.size();
  std::vector<T> means(snapshots, T());
  for (std::size_t k = 0; k < snapshots; ++k) {
    for (std::size_t p = 0; p < nodes; ++p) {
      const bem::Vec3 x = model.nodes[model.free_nodes[p]];
      const double r = norm(x);
      const T* u = &values[k * stride + 3 * p];
      means[k] += (x.x / r) * u[0] + (x.y / r) * u[1] + (x.z / r) * u[2];
    }
    means[k] = (1.0 / nodes) * means[k];
  }
  return means;
}

}  // namespace geobem::test
