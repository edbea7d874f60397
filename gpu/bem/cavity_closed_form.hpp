#pragma once
// Closed form of the pressurized spherical cavity (docs/references.md#spherical-cavity;
// Sharpe 1942, Geophysics 7:144; Achenbach 1973): a cavity of radius a in an
// unbounded isotropic elastic solid, internal pressure p·H(t) from t = 0. The
// reference of the exterior-problem tests, benchmarks and workflow.
#include <cmath>
#include <complex>

namespace geobem::bem {

/// The cavity and its rock. SI units: m, Pa, kg/m³; 0 ≤ ν < 1/2.
struct SphericalCavity {
  double radius = 0;         ///< a (m)
  double pressure = 0;       ///< p (Pa), > 0 pushes the wall into the solid
  double shear_modulus = 0;  ///< μ (Pa)
  double poisson_ratio = 0;  ///< ν
  double density = 0;        ///< ρ (kg/m³)

  /// P-wave speed c = √((λ + 2μ)/ρ) = √(2μ(1 − ν)/(ρ(1 − 2ν))) (m/s).
  double p_wave_speed() const {
    return std::sqrt(2 * shear_modulus * (1 - poisson_ratio) / (density * (1 - 2 * poisson_ratio)));
  }
  /// Decay rate α = (c/a)(1 − 2ν)/(1 − ν) of the wall's ringing (1/s).
  double decay_rate() const { return p_wave_speed() / radius * (1 - 2 * poisson_ratio) / (1 - poisson_ratio); }
  /// Angular frequency ω = (c/a)√(1 − 2ν)/(1 − ν) of the wall's ringing (rad/s).
  double ringing_frequency() const {
    return p_wave_speed() / radius * std::sqrt(1 - 2 * poisson_ratio) / (1 - poisson_ratio);
  }
  /// Lamé's static displacement p a³/(4μ r²) at radius r (m): the late-time limit.
  double static_displacement(double r) const { return pressure * radius * radius * radius / (4 * shear_modulus * r * r); }
};

/// Radial displacement u_r(r, t) (m) at r ≥ a, t (s):
/// (p a³/(4μ r²))[1 − e^{−ατ}(cos ωτ + (α/ω) sin ωτ) + (r ω₀²/(c ω)) e^{−ατ} sin ωτ] H(τ),
/// τ = t − (r − a)/c, ω₀² = α² + ω². At the wall this is
/// (p a/4μ)[1 − e^{−αt}(cos ωt − (α/ω) sin ωt)]. Zero for τ ≤ 0.
inline double cavity_radial_displacement(const SphericalCavity& cavity, double r, double t) {
  const double c = cavity.p_wave_speed(), alpha = cavity.decay_rate(), omega = cavity.ringing_frequency();
  const double tau = t - (r - cavity.radius) / c;
  if (!(tau > 0)) return 0.0;
  const double decay = std::exp(-alpha * tau), cosine = std::cos(omega * tau), sine = std::sin(omega * tau);
  const double omega0_squared = alpha * alpha + omega * omega;
  return cavity.static_displacement(r) *
         (1 - decay * (cosine + alpha / omega * sine) + r * omega0_squared / (c * omega) * decay * sine);
}

/// Laplace transform û_r(r, s) = ∫₀^∞ u_r(r, t) e^{−st} dt (m·s) for Re s > 0:
/// p a³ e^{−s(r−a)/c} (1/r² + s/(c r)) / (s (ρ a² s² + 4μ a s/c + 4μ)).
/// Templated on the complex type so a test can evaluate it in long double.
template <class ComplexNumber>
ComplexNumber cavity_radial_displacement_laplace(const SphericalCavity& cavity, double r, ComplexNumber s) {
  using Real = typename ComplexNumber::value_type;
  const Real a = cavity.radius, c = cavity.p_wave_speed(), mu = cavity.shear_modulus, rho = cavity.density;
  const Real rr = r;
  const ComplexNumber denominator = s * (rho * a * a * s * s + Real(4) * mu * a * s / c + Real(4) * mu);
  return Real(cavity.pressure) * a * a * a * std::exp(-s * (rr - a) / c) * (Real(1) / (rr * rr) + s / (c * rr)) /
         denominator;
}

}  // namespace geobem::bem
