// The pressurized spherical cavity's closed form (Sharpe 1942) against a
// numerical inverse Laplace transform of its Laplace-domain form (fixed
// Talbot contour, Abate & Valkó 2004, Int. J. Numer. Meth. Eng. 60:979, in
// long double), its wall form, Lamé's static limit and the initial wall
// velocity p/(ρc).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "gpu/bem/cavity_closed_form.hpp"

using namespace geobem::bem;
using Cx = std::complex<long double>;

namespace {

/// f(τ) from F(s) on Talbot's contour with M nodes: r = 2M/(5τ),
/// s_k = rθ_k(cot θ_k + i), θ_k = kπ/M, σ_k = θ_k + (θ_k cot θ_k − 1) cot θ_k,
/// f ≈ (r/M)[F(r)e^{rτ}/2 + Σ_{k=1}^{M−1} Re(e^{τ s_k} F(s_k)(1 + iσ_k))].
template <class Transform>
long double talbot_inverse(Transform F, long double tau, int M = 32) {
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double r = 2.0L * M / (5.0L * tau);
  long double sum = 0.5L * std::real(F(Cx(r))) * std::exp(r * tau);
  for (int k = 1; k < M; ++k) {
    const long double theta = k * pi / M, cot = std::cos(theta) / std::sin(theta);
    const Cx s = r * theta * Cx(cot, 1);
    const long double sigma = theta + (theta * cot - 1) * cot;
    sum += std::real(std::exp(tau * s) * F(s) * Cx(1, sigma));
  }
  return r / M * sum;
}

/// Granite-like rock, three Poisson ratios (ν ≠ 0 so the answer is genuinely 3D).
SphericalCavity rock(double poisson_ratio) {
  SphericalCavity cavity;
  cavity.radius = 1.0;
  cavity.pressure = 1e6;
  cavity.shear_modulus = 24e9;
  cavity.poisson_ratio = poisson_ratio;
  cavity.density = 2650;
  return cavity;
}

}  // namespace

TEST(CavityClosedForm, TimeDomainMatchesTheInverseLaplaceTransform) {
  for (double nu : {0.1, 0.25, 0.4}) {
    const auto cavity = rock(nu);
    const double a = cavity.radius, c = cavity.p_wave_speed();
    for (double r_over_a : {1.0, 2.0, 5.0}) {
      const double r = r_over_a * a, delay = (r - a) / c;
      // The arrival delay is exact (shift theorem): invert e^{s(r−a)/c} û at
      // τ = t − (r−a)/c. Talbot's contour reaches Re s ≈ −2M²/(5τ), where
      // e^{−s(r−a)/c} overflows long double unless τ > (r − a)/(27c); its
      // accuracy fades as the contour nears the poles −α ± iω (τ ≳ 10 a/c),
      // where the late-time limit is checked on its own below.
      auto undelayed = [&](Cx s) {
        return std::exp(s * static_cast<long double>(delay)) * cavity_radial_displacement_laplace(cavity, r, s);
      };
      for (double tau_c_over_a : {0.2, 0.5, 1.0, 2.7, 6.0, 10.0}) {
        const double tau = tau_c_over_a * a / c;
        const long double inverse = talbot_inverse(undelayed, tau);
        const double closed = cavity_radial_displacement(cavity, r, delay + tau);
        EXPECT_NEAR(closed, static_cast<double>(inverse), 1e-11 * cavity.static_displacement(a))
            << "nu " << nu << " r/a " << r_over_a << " tau c/a " << tau_c_over_a;
      }
    }
  }
}

TEST(CavityClosedForm, WallFormStaticLimitAndInitialVelocity) {
  for (double nu : {0.1, 0.25, 0.4}) {
    const auto cavity = rock(nu);
    const double a = cavity.radius, c = cavity.p_wave_speed(), mu = cavity.shear_modulus, p = cavity.pressure;
    const double alpha = cavity.decay_rate(), omega = cavity.ringing_frequency();
    // u_r(a, t) = (p a/4μ)[1 − e^{−αt}(cos ωt − (α/ω) sin ωt)].
    for (double t_c_over_a : {0.01, 0.5, 1.0, 4.0, 12.0}) {
      const double t = t_c_over_a * a / c;
      const double wall = p * a / (4 * mu) * (1 - std::exp(-alpha * t) * (std::cos(omega * t) - alpha / omega * std::sin(omega * t)));
      EXPECT_NEAR(cavity_radial_displacement(cavity, a, t), wall, 1e-14 * p * a / mu) << nu << " " << t_c_over_a;
    }
    // Lamé: p a³/(4μ r²) long after the wave passed.
    for (double r : {a, 2 * a, 5 * a}) {
      const double late = cavity_radial_displacement(cavity, r, (r - a) / c + 400 * a / c);
      EXPECT_NEAR(late, p * a * a * a / (4 * mu * r * r), 1e-12 * p * a / mu) << nu << " " << r;
      EXPECT_EQ(cavity_radial_displacement(cavity, r, 0.999 * (r - a) / c), 0.0);
    }
    // The wall starts moving at p/(ρc): u(a, δ) = (p/(ρc)) δ (1 + O(δ c/a)).
    const double delta = 1e-7 * a / c;
    EXPECT_NEAR(cavity_radial_displacement(cavity, a, delta) / delta, p / (cavity.density * c),
                1e-5 * p / (cavity.density * c))
        << nu;
    // c from μ, ν, ρ: c² = (λ + 2μ)/ρ with λ = 2μν/(1 − 2ν).
    EXPECT_NEAR(c * c, (2 * mu * nu / (1 - 2 * nu) + 2 * mu) / cavity.density, 1e-12 * c * c);
  }
}
