#pragma once
// Built-in integrand families for Longman's method, one trait each: the
// functor (concept in longman.hpp) holding one integral's parameters, and its
// name, parameters, documented range and check (family_trait.hpp). The closed
// forms quoted are what the tests check against. LongmanFamilies at the end
// registers them; transform.hpp generates everything else from it.
#include <cmath>

#include "gpu/core/family_list.hpp"
#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/transform/bessel.hpp"
#include "gpu/transform/family_trait.hpp"
#include "gpu/transform/halfspace_disk.hpp"

namespace geobem::transform {

/// Decay length 1/rate of an exponential damping e^{-rate x}; HUGE_VAL when undamped.
GEOBEM_HD inline double decay_length_of(double rate) { return rate > 0.0 ? 1.0 / rate : HUGE_VAL; }

/// Gauss panels of an exponentially damped integrand: two decay lengths wide
/// (16-point Gauss-Legendre integrates e^{-t} over a width of 2 to rounding).
GEOBEM_HD inline double damped_panel_width(double rate) { return rate > 0.0 ? 2.0 / rate : HUGE_VAL; }

/// What the damped waves e^{-rate x} (cos|sin)(omega x) on [0, inf) share;
/// `Wave`, the family, derives from it and adds its name, texts, function and
/// zeros. Parameters (rate, omega), rate >= 0, omega > 0; Gauss panels and the
/// cut-off follow the damping.
template <class Wave>
struct DampedWave {
  /// Scale omega, ratio rate/omega (the damping).
  static constexpr ParameterRange range{1e-8, 1e8, 0.02, 1e10};
#if !defined(__CUDACC_RTC__)
  /// omega within the range's scale, rate/omega within its ratio. Below
  /// ratio_min (weak damping) the integral rate/omega^2 is a small remainder
  /// of areas of size 2/omega and rounding exceeds 1e-12.
  static std::string check(const double* p) {
    std::string problem = outside_range("omega", p[1], range.scale_min, range.scale_max);
    if (problem.empty())
      problem = outside_range(std::string(Wave::parameter_names[0]) + "/omega", p[0] / p[1], range.ratio_min,
                              range.ratio_max, " (strong damping is fine; below the range rounding exceeds 1e-12)");
    return problem;
  }
#endif
  double rate, omega;
  /// From a parameter row (rate, omega).
  GEOBEM_HD static Wave from_parameters(const double* p) { return {{p[0], p[1]}}; }
  GEOBEM_HD double lower() const { return 0.0; }
  GEOBEM_HD double panel_width(double) const { return damped_panel_width(rate); }
  GEOBEM_HD double decay_length() const { return decay_length_of(rate); }
};

/// e^{-lambda x} cos(omega x) on [0, inf): the test of Mesquita et al.;
/// integral lambda / (lambda^2 + omega^2). Zeros (n + 1/2) pi / omega.
struct ExponentialCosine : DampedWave<ExponentialCosine> {
  static constexpr const char* name = "exp-cos";
  static constexpr const char* parameter_names[] = {"lambda", "omega"};
  static constexpr const char* integral = "int_0^inf exp(-lambda x) cos(omega x) dx = lambda/(lambda^2+omega^2)";
  static constexpr const char* range_text = "1e-8 <= omega <= 1e8, 0.02 <= lambda/omega <= 1e10";
  GEOBEM_HD double operator()(double x) const { return exp(-rate * x) * cos(omega * x); }
  GEOBEM_HD double partition(int n) const { return (n + 0.5) * kPi / omega; }
};

/// e^{-a x} sin(omega x) on [0, inf) (Fourier sine transform of e^{-a x});
/// integral omega / (a^2 + omega^2). Zeros n pi / omega, n >= 1.
struct ExponentialSine : DampedWave<ExponentialSine> {
  static constexpr const char* name = "exp-sin";
  static constexpr const char* parameter_names[] = {"a", "omega"};
  static constexpr const char* integral = "int_0^inf exp(-a x) sin(omega x) dx = omega/(a^2+omega^2)";
  static constexpr const char* range_text = "1e-8 <= omega <= 1e8, 0.02 <= a/omega <= 1e10";
  GEOBEM_HD double operator()(double x) const { return exp(-rate * x) * sin(omega * x); }
  GEOBEM_HD double partition(int n) const { return (n + 1) * kPi / omega; }
};

/// What the Fourier transforms of the Lorentzian on [0, inf) share; `Transform`,
/// the family, derives from it and adds its name, texts, function and zeros.
/// Parameter omega > 0; integral (pi/2) e^{-omega}. Panels no wider than the
/// distance |x - i| to the poles at +-i: graded, so a low frequency's long
/// first half cycle still resolves the peak near x = 0. Undamped.
template <class Transform>
struct LorentzianTransform {
  /// Ratio omega (scale unused, 1).
  static constexpr ParameterRange range{1.0, 1.0, 1e-8, 5.0};
  static constexpr const char* range_text = "1e-8 <= omega <= 5";
#if !defined(__CUDACC_RTC__)
  static std::string check(const double* p) {
    return outside_range("omega", p[0], range.ratio_min, range.ratio_max,
                         " (above it the integral (pi/2) e^-omega is a small remainder lost to rounding)");
  }
#endif
  double omega;
  /// From a parameter row (omega).
  GEOBEM_HD static Transform from_parameters(const double* p) { return {{p[0]}}; }
  GEOBEM_HD double lower() const { return 0.0; }
  GEOBEM_HD double panel_width(double x) const { return sqrt(1.0 + x * x); }
  GEOBEM_HD double decay_length() const { return HUGE_VAL; }
};

/// cos(omega x) / (1 + x^2) (Fourier cosine transform of the Lorentzian;
/// Gradshteyn & Ryzhik 3.723.2). Zeros (n + 1/2) pi / omega.
struct LorentzianCosine : LorentzianTransform<LorentzianCosine> {
  static constexpr const char* name = "lorentzian-cos";
  static constexpr const char* parameter_names[] = {"omega"};
  static constexpr const char* integral = "int_0^inf cos(omega x)/(1+x^2) dx = (pi/2) exp(-omega)";
  GEOBEM_HD double operator()(double x) const { return cos(omega * x) / (1.0 + x * x); }
  GEOBEM_HD double partition(int n) const { return (n + 0.5) * kPi / omega; }
};

/// x sin(omega x) / (1 + x^2) (Fourier sine transform of x/(1+x^2), amplitude
/// decaying only like 1/x; Gradshteyn & Ryzhik 3.723.3). Zeros n pi / omega, n >= 1.
struct LorentzianSine : LorentzianTransform<LorentzianSine> {
  static constexpr const char* name = "lorentzian-sin";
  static constexpr const char* parameter_names[] = {"omega"};
  static constexpr const char* integral = "int_0^inf x sin(omega x)/(1+x^2) dx = (pi/2) exp(-omega)";
  GEOBEM_HD double operator()(double x) const { return x * sin(omega * x) / (1.0 + x * x); }
  GEOBEM_HD double partition(int n) const { return (n + 1) * kPi / omega; }
};

/// Hankel transform of an exponential, int_0^inf e^{-a k} J_nu(k r) k^m dk,
/// nu, m in {0, 1}, a >= 0 (a > 0 when m = 1), r > 0. Closed forms
/// (Gradshteyn & Ryzhik 6.611.1, and its derivative in a; Watson 13.2):
/// nu=0,m=0: 1/sqrt(a^2+r^2); nu=0,m=1: a/(a^2+r^2)^{3/2};
/// nu=1,m=0: (1 - a/sqrt(a^2+r^2))/r; nu=1,m=1: r/(a^2+r^2)^{3/2}.
/// Partition: zeros of J_nu(k r), from bessel_zero.
struct HankelExponential {
  static constexpr const char* name = "hankel-exp";
  static constexpr const char* parameter_names[] = {"nu", "m", "a", "r"};
  static constexpr const char* integral = "int_0^inf exp(-a k) J_nu(k r) k^m dk  (nu, m in {0,1})";
  /// Scale r, ratio a/r; with m = 0, a/r may go down to 0 (below ratio_min
  /// only m = 1 is refused: k e^{-ak} J_nu(kr) then cancels to a/r^3 and
  /// rounding exceeds 1e-12).
  static constexpr ParameterRange range{1e-6, 1e6, 0.05, 1e8};
  static constexpr const char* range_text = "1e-6 <= r <= 1e6; 0 <= a/r <= 1e8 (m = 0), 0.05 <= a/r <= 1e8 (m = 1)";
#if !defined(__CUDACC_RTC__)
  static std::string check(const double* p) {
    if (p[0] != 0 && p[0] != 1) return describe_value("nu", p[0], "must be 0 or 1");
    if (p[1] != 0 && p[1] != 1) return describe_value("m", p[1], "must be 0 or 1");
    std::string problem = outside_range("r", p[3], range.scale_min, range.scale_max);
    if (!problem.empty()) return problem;
    if (p[1] == 0) return outside_range("a/r", p[2] / p[3], 0.0, range.ratio_max);
    return outside_range("a/r", p[2] / p[3], range.ratio_min, range.ratio_max,
                         " for m = 1 (a = 0 diverges; below the range rounding exceeds 1e-12)");
  }
#endif
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

/// The built-in families, registered: their order fixes the TransformFamily
/// values (transform.hpp) and the order of --help and transform_families().
using LongmanFamilies = FamilyList<ExponentialCosine, ExponentialSine, LorentzianCosine, LorentzianSine,
                                   HankelExponential, HalfSpaceDisk>;

}  // namespace geobem::transform
