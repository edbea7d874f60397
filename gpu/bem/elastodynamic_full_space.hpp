#pragma once
// The fundamental solution of 3D isotropic elastodynamics in a full space
// (Domínguez 1993, eqs. 2.176–2.178; the formulas are in
// fundamental_solution.hpp) as the type the assemblies, the free term and the
// receiver field take (fundamental_solution_type.hpp): three unknowns per
// node (displacement or traction vectors), the Kelvin solution as its static
// part, the free term of the rigid-body condition (free_term.hpp).
#include <cmath>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/free_term.hpp"
#include "gpu/bem/fundamental_solution.hpp"
#include "gpu/bem/triangle_quadrature.hpp"
#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"

namespace geobem::bem {

struct ElastodynamicFullSpace {
  /// Written in geobem-laplace's manifest; geobem-time refuses a manifest of another name it does not know.
  static constexpr const char* name = "elastodynamic-full-space";
  /// Unknowns per node (and equations per collocation point): the three components of a vector.
  static constexpr int components = 3;
  using Parameters = Material;
  using Point = PointKernel;

  /// 4πμ U* and 4πμ T* (and T* − T0) at x − ξ = `r_vec` (m, nonzero), unit normal at x, Laplace parameter s.
  GEOBEM_HD static Point point(Vec3 r_vec, Vec3 normal, Complex s, const Material& m) {
    return point_kernel(r_vec, normal, s, m);
  }
  /// What the scaled entries of point() are multiplied by: 1/(4πμ) (1/Pa).
  GEOBEM_HD static double scale(const Material& m) { return 1.0 / (4.0 * kPi * m.shear_modulus); }
  /// The static traction T0 (Kelvin, 1/m²) that the rigid-body condition integrates.
  GEOBEM_HD static void static_traction(Vec3 r_vec, Vec3 normal, const Material& m, double t0[3][3]) {
    double u0[3][3];
    kelvin_solution(r_vec, normal, m, u0, t0);
  }
  /// The smallest decay rate of the kernel's dynamic factors e^{−s r/c} (1/m):
  /// Re s / c_P, the P wave being the faster and so the less damped.
  GEOBEM_HD static double slowest_decay(Complex s, const Material& m) { return s.re / m.p_wave_speed; }
  /// The waves seen from a point at `distance` (m) from the centroid of an
  /// element of longest edge `edge` (m) at s (PairWaves, triangle_quadrature.hpp).
  GEOBEM_HD static PairWaves waves(double distance, double edge, Complex s, const Material& m) {
    const double near_side = distance > edge ? distance - edge : 0.0, size = abs(s);
    const double s_reach = size * (distance + edge) / m.s_wave_speed,
                 p_reach = size * (distance + edge) / m.p_wave_speed;
    return {size * edge / m.s_wave_speed, s.re * near_side / m.s_wave_speed - ::log1p(s_reach),
            size * edge / m.p_wave_speed, s.re * near_side / m.p_wave_speed - ::log1p(p_reach)};
  }
  /// The free term into the rigid-body sums of the free nodes (apply_unbounded_free_term).
  static void apply_free_term(const BemModel& model, std::vector<double>& sums) {
    apply_unbounded_free_term(model, sums);
  }
};

}  // namespace geobem::bem
