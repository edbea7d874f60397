#pragma once
// Independent reference values for the transform tests: closed forms from the
// literature, evaluated with the C++17 special functions (never our solver).
#include <cmath>

#include "gpu/core/math_constants.hpp"

namespace geobem::test {


/// int_0^inf e^{-l x} cos(w x) dx = l / (l^2 + w^2) (Mesquita et al.'s test).
inline double exponential_cosine(double lambda, double omega) { return lambda / (lambda * lambda + omega * omega); }
/// int_0^inf e^{-a x} sin(w x) dx = w / (a^2 + w^2).
inline double exponential_sine(double a, double omega) { return omega / (a * a + omega * omega); }
/// int_0^inf cos(w x)/(1+x^2) dx = int_0^inf x sin(w x)/(1+x^2) dx = (pi/2) e^{-w}
/// (Gradshteyn & Ryzhik 3.723.2, 3.723.3).
inline double lorentzian(double omega) { return 0.5 * kPi * std::exp(-omega); }
/// int_0^inf e^{-a k} J_nu(k r) k^m dk (Gradshteyn & Ryzhik 6.611.1 and its a-derivative).
inline double hankel_exponential(int nu, int m, double a, double r) {
  const double s = std::sqrt(a * a + r * r);
  if (nu == 0) return m == 0 ? 1.0 / s : a / (s * s * s);
  return m == 0 ? r / (s * (s + a)) : r / (s * s * s);  // (1 - a/s)/r without the cancellation
}
/// int_0^inf J1(k a) J0(k r)/k dk from Timoshenko & Goodier's disk-load
/// displacement divided by 2(1-nu^2) p a / E: 1 at r = 0; (2/pi) E(r/a) for
/// r < a; (2 r/(pi a)) [E(a/r) - (1 - a^2/r^2) K(a/r)] for r > a (modulus k).
inline double halfspace_disk(double a, double r) {
  if (r == 0.0) return 1.0;
  if (r < a) return 2.0 / kPi * std::comp_ellint_2(r / a);
  if (r == a) return 2.0 / kPi;  // E(1) = 1, and (1 - k^2) K(k) -> 0
  const double k = a / r;
  return 2.0 * r / (kPi * a) * (std::comp_ellint_2(k) - (1.0 - k * k) * std::comp_ellint_1(k));
}

}  // namespace geobem::test
