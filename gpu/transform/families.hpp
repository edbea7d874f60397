#pragma once
// Built-in integrand families for Longman's method (functor concept in
// longman.hpp). Each functor holds one integral's parameters; the closed forms
// quoted are what the tests check against.
#include <cmath>

#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/transform/bessel.hpp"
#include "gpu/transform/halfspace_disk.hpp"

namespace geobem::transform {

/// Decay length 1/rate of an exponential damping e^{-rate x}; HUGE_VAL when undamped.
GEOBEM_HD inline double decay_length_of(double rate) { return rate > 0.0 ? 1.0 / rate : HUGE_VAL; }

/// Gauss panels of an exponentially damped integrand: two decay lengths wide
/// (16-point Gauss-Legendre integrates e^{-t} over a width of 2 to rounding).
GEOBEM_HD inline double damped_panel_width(double rate) { return rate > 0.0 ? 2.0 / rate : HUGE_VAL; }

/// e^{-lambda x} cos(omega x) on [0, inf): the test of Mesquita et al.;
/// integral lambda / (lambda^2 + omega^2). lambda >= 0, omega > 0.
/// Zeros (n + 1/2) pi / omega.
struct ExponentialCosine {
  double lambda, omega;
  /// From a parameter row (lambda, omega).
  GEOBEM_HD static ExponentialCosine from_parameters(const double* p) { return {p[0], p[1]}; }
  GEOBEM_HD double operator()(double x) const { return exp(-lambda * x) * cos(omega * x); }
  GEOBEM_HD double lower() const { return 0.0; }
  GEOBEM_HD double partition(int n) const { return (n + 0.5) * kPi / omega; }
  GEOBEM_HD double panel_width(double) const { return damped_panel_width(lambda); }
  GEOBEM_HD double decay_length() const { return decay_length_of(lambda); }
};

/// e^{-a x} sin(omega x) on [0, inf) (Fourier sine transform of e^{-a x});
/// integral omega / (a^2 + omega^2). a >= 0, omega > 0. Zeros n pi / omega, n >= 1.
struct ExponentialSine {
  double a, omega;
  /// From a parameter row (a, omega).
  GEOBEM_HD static ExponentialSine from_parameters(const double* p) { return {p[0], p[1]}; }
  GEOBEM_HD double operator()(double x) const { return exp(-a * x) * sin(omega * x); }
  GEOBEM_HD double lower() const { return 0.0; }
  GEOBEM_HD double partition(int n) const { return (n + 1) * kPi / omega; }
  GEOBEM_HD double panel_width(double) const { return damped_panel_width(a); }
  GEOBEM_HD double decay_length() const { return decay_length_of(a); }
};

/// cos(omega x) / (1 + x^2) on [0, inf) (Fourier cosine transform of the
/// Lorentzian); integral (pi/2) e^{-omega} (Gradshteyn & Ryzhik 3.723.2). omega > 0.
/// Panels no wider than the distance |x - i| to the poles at +-i: graded, so a
/// low frequency's long first half cycle still resolves the peak near x = 0.
struct LorentzianCosine {
  double omega;
  /// From a parameter row (omega).
  GEOBEM_HD static LorentzianCosine from_parameters(const double* p) { return {p[0]}; }
  GEOBEM_HD double operator()(double x) const { return cos(omega * x) / (1.0 + x * x); }
  GEOBEM_HD double lower() const { return 0.0; }
  GEOBEM_HD double partition(int n) const { return (n + 0.5) * kPi / omega; }
  GEOBEM_HD double panel_width(double x) const { return sqrt(1.0 + x * x); }
  GEOBEM_HD double decay_length() const { return HUGE_VAL; }
};

/// x sin(omega x) / (1 + x^2) on [0, inf) (Fourier sine transform of x/(1+x^2),
/// amplitude decaying only like 1/x); integral (pi/2) e^{-omega}
/// (Gradshteyn & Ryzhik 3.723.3). omega > 0.
struct LorentzianSine {
  double omega;
  /// From a parameter row (omega).
  GEOBEM_HD static LorentzianSine from_parameters(const double* p) { return {p[0]}; }
  GEOBEM_HD double operator()(double x) const { return x * sin(omega * x) / (1.0 + x * x); }
  GEOBEM_HD double lower() const { return 0.0; }
  GEOBEM_HD double partition(int n) const { return (n + 1) * kPi / omega; }
  GEOBEM_HD double panel_width(double x) const { return sqrt(1.0 + x * x); }
  GEOBEM_HD double decay_length() const { return HUGE_VAL; }
};

/// Hankel transform of an exponential, int_0^inf e^{-a k} J_nu(k r) k^m dk,
/// nu, m in {0, 1}, a >= 0 (a > 0 when m = 1), r > 0. Closed forms
/// (Gradshteyn & Ryzhik 6.611.1, and its derivative in a; Watson 13.2):
/// nu=0,m=0: 1/sqrt(a^2+r^2); nu=0,m=1: a/(a^2+r^2)^{3/2};
/// nu=1,m=0: (1 - a/sqrt(a^2+r^2))/r; nu=1,m=1: r/(a^2+r^2)^{3/2}.
/// Partition: zeros of J_nu(k r), from bessel_zero.
struct HankelExponential {
  int nu, m;
  double a, r;
  /// From a parameter row (nu, m, a, r).
  GEOBEM_HD static HankelExponential from_parameters(const double* p) {
    return {static_cast<int>(p[0]), static_cast<int>(p[1]), p[2], p[3]};
  }
  GEOBEM_HD double operator()(double k) const {
    double j0, j1;
    bessel_j01(k * r, j0, j1);
    return exp(-a * k) * (nu == 0 ? j0 : j1) * (m == 0 ? 1.0 : k);
  }
  GEOBEM_HD double lower() const { return 0.0; }
  GEOBEM_HD double partition(int n) const { return bessel_zero(nu, n + 1) / r; }
  GEOBEM_HD double panel_width(double) const { return damped_panel_width(a); }
  GEOBEM_HD double decay_length() const { return decay_length_of(a); }
};

}  // namespace geobem::transform
