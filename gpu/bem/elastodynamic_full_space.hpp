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
  /// Bounds on |U*_ij| (m/N) and |T*_ij| (1/m²) at every distance ≥ r (m) at
  /// s (Re s > 0), what a far block may be dropped on. With z = s r/c for
  /// each wave and its polynomial P in 1/z, ψ and χ are sums of
  /// e^{−z} P(1/z)/r and d/dr (e^{−z} z^{−m}/r) = −e^{−z} z^{−m}(z + m + 1)/r²,
  /// so with x = |z|, B(x) = 1 + 3/x + 3/x² and B'(x) = x + 4 + 9/x + 9/x²
  /// (term by term larger than every P and its derivative's factor), q = (c_S/c_P)²,
  /// and e^{−Re z_S} ≤ e^{−Re z_P}:
  ///   |ψ|, |χ| ≤ e^{−Re z_P} (1 + q) B(x_P)/r,   |ψ'|, |χ'| ≤ e^{−Re z_P} (B'(x_S) + q B'(x_P))/r²,
  ///   4πμ|U*_ij| ≤ |ψ| + |χ|,   4πμ|T*_ij| ≤ (λ + 2μ)(|ψ'| + |χ'|) + (2λ + 8μ)|χ|/r
  /// (TractionFactors' four terms, every geometric factor at most 1). Every
  /// term is a positive constant times e^{−Re(s) r/c_P} r^{−k}, k ≥ 1, so
  /// decreasing in r: the bound at r holds beyond it.
  GEOBEM_HD static void kernel_bounds(double r, Complex s, const Material& m, double& u_bound, double& t_bound) {
    const double size = abs(s), decay = ::exp(-s.re * r / m.p_wave_speed);
    const double x_p = size * r / m.p_wave_speed, x_s = size * r / m.s_wave_speed;
    const double q = (m.s_wave_speed / m.p_wave_speed) * (m.s_wave_speed / m.p_wave_speed);
    const double b_p = 1.0 + 3.0 / x_p + 3.0 / (x_p * x_p);
    auto derivative_factor = [](double x) { return x + 4.0 + 9.0 / x + 9.0 / (x * x); };
    const double radial = decay * (1.0 + q) * b_p / r;
    const double radial_derivative = decay * (derivative_factor(x_s) + q * derivative_factor(x_p)) / (r * r);
    const double scale = 1.0 / (4.0 * kPi * m.shear_modulus);
    u_bound = scale * 2.0 * radial;
    t_bound = scale * (2.0 * (m.lame_lambda + 2.0 * m.shear_modulus) * radial_derivative +
                       (2.0 * m.lame_lambda + 8.0 * m.shear_modulus) * radial / r);
  }
  /// The free term into the rigid-body sums of the free nodes (apply_unbounded_free_term).
  static void apply_free_term(const BemModel& model, std::vector<double>& sums) {
    apply_unbounded_free_term(model, sums);
  }
};

}  // namespace geobem::bem
