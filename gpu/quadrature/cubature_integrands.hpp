#pragma once
// Built-in n-dimensional integrands as one GEOBEM_HD functor (the CUDA
// kernels and the CPU driver evaluate the same code). Any functor with
// `GEOBEM_HD double operator()(const double* x, int n) const` works with the
// cubature templates (cubature_cpu.hpp, cubature_cuda.cuh); this one is the
// catalogue the stage and the shared library expose.
#include <cmath>
#include <string>
#include <vector>

#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/quadrature/genz_malik_rule.hpp"

namespace geobem::quadrature {

/// f1–f4 of Arumugam et al. (benchmark on [0,1]^n, docs/references.md#cubature) and Genz's
/// six test families (Genz, "Testing multidimensional integration routines",
/// 1984): oscillatory, product peak, corner peak, Gaussian, continuous, discontinuous.
enum class CubatureFamily {
  F1,             ///< (0.1 + cos²(Σ x_i²))^−2
  F2,             ///< cos(Π cos(2^(2^i) x_i)), i = 1..n
  F3,             ///< sin(Π i·arcsin(x_i^i))
  F4,             ///< sin(Π arcsin(x_i))
  Oscillatory,    ///< cos(2π u_1 + Σ a_i x_i)
  ProductPeak,    ///< Π 1/(a_i^−2 + (x_i − u_i)²)
  CornerPeak,     ///< (1 + Σ a_i x_i)^−(n+1)
  Gaussian,       ///< exp(−Σ a_i² (x_i − u_i)²)
  Continuous,     ///< exp(−Σ a_i |x_i − u_i|)
  Discontinuous,  ///< 0 if x_1 > u_1 or x_2 > u_2, else exp(Σ a_i x_i)
};

/// A catalogue integrand with its parameters (a_i, u_i used by the Genz families).
struct CubatureIntegrand {
  CubatureFamily family = CubatureFamily::F1;
  double a[kMaxCubatureDim] = {};
  double u[kMaxCubatureDim] = {};

  GEOBEM_HD double operator()(const double* x, int n) const {
    switch (family) {
      case CubatureFamily::F1: {
        double s = 0.0;
        for (int i = 0; i < n; ++i) s += x[i] * x[i];
        const double c = cos(s);
        const double d = 0.1 + c * c;
        return 1.0 / (d * d);
      }
      case CubatureFamily::F2: {
        double p = 1.0, frequency = 2.0;
        for (int i = 0; i < n; ++i) {
          frequency *= frequency;  // 2^(2^(i+1)), exact: squaring a power of two
          p *= cos(frequency * x[i]);
        }
        return cos(p);
      }
      case CubatureFamily::F3: {
        double p = 1.0;
        for (int i = 0; i < n; ++i) p *= (i + 1) * asin(pow(x[i], i + 1));
        return sin(p);
      }
      case CubatureFamily::F4: {
        double p = 1.0;
        for (int i = 0; i < n; ++i) p *= asin(x[i]);
        return sin(p);
      }
      case CubatureFamily::Oscillatory: {
        double s = 2.0 * kPi * u[0];
        for (int i = 0; i < n; ++i) s += a[i] * x[i];
        return cos(s);
      }
      case CubatureFamily::ProductPeak: {
        double p = 1.0;
        for (int i = 0; i < n; ++i) p /= 1.0 / (a[i] * a[i]) + (x[i] - u[i]) * (x[i] - u[i]);
        return p;
      }
      case CubatureFamily::CornerPeak: {
        double s = 1.0;
        for (int i = 0; i < n; ++i) s += a[i] * x[i];
        return pow(s, -(n + 1.0));
      }
      case CubatureFamily::Gaussian: {
        double s = 0.0;
        for (int i = 0; i < n; ++i) s += a[i] * a[i] * (x[i] - u[i]) * (x[i] - u[i]);
        return exp(-s);
      }
      case CubatureFamily::Continuous: {
        double s = 0.0;
        for (int i = 0; i < n; ++i) s += a[i] * fabs(x[i] - u[i]);
        return exp(-s);
      }
      case CubatureFamily::Discontinuous: {
        if (x[0] > u[0] || x[1] > u[1]) return 0.0;
        double s = 0.0;
        for (int i = 0; i < n; ++i) s += a[i] * x[i];
        return exp(s);
      }
    }
    return 0.0;
  }
};

/// Family names as the stage spells them: f1 f2 f3 f4 oscillatory
/// product_peak corner_peak gaussian continuous discontinuous.
std::vector<std::string> cubature_family_names();

/// Parses a family name; throws geobem::UsageError naming the value and
/// listing the known names.
CubatureFamily parse_cubature_family(const std::string& name);

/// The stage's spelling of a family.
std::string to_string(CubatureFamily family);

/// f2's largest dimension: its frequency 2^(2^i) on axis i is finite in double for i ≤ 9.
constexpr int kMaxF2Dim = 9;

/// Whether `family` is one of Genz's six (which take a and u).
bool is_genz_family(CubatureFamily family);

/// The documented range of a Genz family's a (the same for every axis):
/// kGenzMinA ≤ a ≤ genz_max_a(family, n), u in [0, 1]; over it the random
/// batteries (tests/quadrature/test_quadrature_battery.cpp) meet the
/// honest-status rule. Beyond it peaks and jumps narrower than phase one's
/// grid can slip between the rule's points.
constexpr double kGenzMinA = 0.01;
double genz_max_a(CubatureFamily family, int n);

/// Integrand of `family` in n dimensions. Genz families take a_i = a and
/// u_i = u for every i (the stage's --genz-a/--genz-u); f1–f4 ignore them.
/// Throws geobem::UsageError naming the value for non-finite a or u, a
/// Genz family's a or u outside its documented range, or f2 with n > kMaxF2Dim.
CubatureIntegrand make_cubature_integrand(CubatureFamily family, int n, double a = 5.0, double u = 0.5);

/// Per axis, where the integrand has a kink or a jump (CubatureOptions::
/// breakpoints): continuous u_i on every axis, discontinuous u_1 and u_2 on
/// the first two; empty lists elsewhere.
std::vector<std::vector<double>> cubature_breakpoints(const CubatureIntegrand& integrand, int n);

/// Closed-form value over [0,1]^n of a Genz family (Genz 1984); throws
/// std::invalid_argument for f1–f4, which have none.
double genz_exact_integral(const CubatureIntegrand& integrand, int n);

}  // namespace geobem::quadrature
