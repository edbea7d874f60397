#pragma once
// Built-in n-dimensional integrands, one trait per family registered in one
// list (CubatureFamilies), and the catalogue functor over them (the CUDA
// kernels and the CPU driver evaluate the same code). Any functor with
// `GEOBEM_HD double operator()(const double* x, int n) const` works with the
// cubature templates (cubature_cpu.hpp, cubature_cuda.cuh); this one is the
// catalogue the stage and the shared library expose; its names, checks,
// breakpoints and closed forms are generated from the list.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpu/core/family_list.hpp"
#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/quadrature/genz_malik_rule.hpp"

namespace geobem::quadrature {

/// f2's largest dimension: its frequency 2^(2^i) on axis i is finite in double for i ≤ 9.
constexpr int kMaxF2Dim = 9;

/// The low end of every Genz family's documented range of a (the same for
/// every axis): kGenzMinA ≤ a ≤ its trait's max_a(n), u in [0, 1]; over it the
/// random batteries (tests/quadrature/test_quadrature_battery.cpp) meet the
/// honest-status rule. Beyond it peaks and jumps narrower than phase one's
/// grid can slip between the rule's points.
constexpr double kGenzMinA = 0.01;

// A built-in family is one trait type, registered in CubatureFamilies below:
//   static constexpr const char* name;   // as the stage spells it
//   GEOBEM_HD static double value(const double* x, int n, const double* a, const double* u);
// and, where it differs from CubatureFamilyDefaults, whether it takes a and u
// (Genz's families, with max_a(n) and their closed form exact_integral(a, u, n)),
// the axes with a kink or jump at u_i (breakpoint_on_axis) and a dimension
// limit (dimension_problem).

/// What a family without parameters, closed form, kinks or dimension limit declares.
struct CubatureFamilyDefaults {
  static constexpr bool takes_a_u = false;  ///< a Genz family: a_i, u_i, max_a(n), exact_integral
  /// Whether axis `axis` has a kink or a jump at u_axis (cubature_breakpoints).
  static constexpr bool breakpoint_on_axis(int) { return false; }
  /// "" or why the family cannot be integrated in n dimensions.
  static std::string dimension_problem(int) { return ""; }
};

/// The peak width limit of Genz's peaked families: peaks of width 1/a, 100 up
/// to 3D, then 100·(3/n)² (56 in 4D, 14 in 8D). Beyond, in 5–8D, peaks
/// narrower than the rule's point spacing on the minimum grid were missed
/// whole (Gaussian a = 65 in 7D: 2.5e-22 for 1.1e-11) or converged 490× off
/// their tolerance (bench/RESULTS.md).
inline double genz_peak_max_a(int n) { return n <= 3 ? 100.0 : 100.0 * (3.0 / n) * (3.0 / n); }

struct GenzFamilyDefaults : CubatureFamilyDefaults {
  static constexpr bool takes_a_u = true;
};

/// f1–f4 of Arumugam et al. (benchmark on [0,1]^n, docs/references.md#cubature):
/// no parameters, no closed form (their figures are in bench/RESULTS.md).

/// f1 = (0.1 + cos²(Σ x_i²))^−2.
struct ArumugamF1 : CubatureFamilyDefaults {
  static constexpr const char* name = "f1";
  GEOBEM_HD static double value(const double* x, int n, const double*, const double*) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += x[i] * x[i];
    const double c = cos(s);
    const double d = 0.1 + c * c;
    return 1.0 / (d * d);
  }
};

/// f2 = cos(Π cos(2^(2^i) x_i)), i = 1..n; n ≤ kMaxF2Dim.
struct ArumugamF2 : CubatureFamilyDefaults {
  static constexpr const char* name = "f2";
  GEOBEM_HD static double value(const double* x, int n, const double*, const double*) {
    double p = 1.0, frequency = 2.0;
    for (int i = 0; i < n; ++i) {
      frequency *= frequency;  // 2^(2^(i+1)), exact: squaring a power of two
      p *= cos(frequency * x[i]);
    }
    return cos(p);
  }
  static std::string dimension_problem(int n) {
    if (n <= kMaxF2Dim) return "";
    return "f2 in " + std::to_string(n) + " dimensions: its frequency 2^(2^" + std::to_string(n) + ") on axis " +
           std::to_string(n) + " overflows a double; f2 takes n <= " + std::to_string(kMaxF2Dim);
  }
};

/// f3 = sin(Π i·arcsin(x_i^i)).
struct ArumugamF3 : CubatureFamilyDefaults {
  static constexpr const char* name = "f3";
  GEOBEM_HD static double value(const double* x, int n, const double*, const double*) {
    double p = 1.0;
    for (int i = 0; i < n; ++i) p *= (i + 1) * asin(pow(x[i], i + 1));
    return sin(p);
  }
};

/// f4 = sin(Π arcsin(x_i)).
struct ArumugamF4 : CubatureFamilyDefaults {
  static constexpr const char* name = "f4";
  GEOBEM_HD static double value(const double* x, int n, const double*, const double*) {
    double p = 1.0;
    for (int i = 0; i < n; ++i) p *= asin(x[i]);
    return sin(p);
  }
};

// Genz's six test families (Genz, "Testing multidimensional integration
// routines", 1984), with their closed forms over [0,1]^n.

/// cos(2π u_1 + Σ a_i x_i).
struct GenzOscillatory : GenzFamilyDefaults {
  static constexpr const char* name = "oscillatory";
  GEOBEM_HD static double value(const double* x, int n, const double* a, const double* u) {
    double s = 2.0 * kPi * u[0];
    for (int i = 0; i < n; ++i) s += a[i] * x[i];
    return cos(s);
  }
  static double max_a(int) { return 100.0; }
  /// Re[e^{2πi u1} Π (e^{i a_j} − 1)/(i a_j)] = Π(2 sin(a_j/2)/a_j)·cos(2π u1 + Σ a_j/2).
  static double exact_integral(const double* a, const double* u, int n) {
    double product = 1.0, phase = 2.0 * kPi * u[0];
    for (int j = 0; j < n; ++j) {
      product *= 2.0 * std::sin(0.5 * a[j]) / a[j];
      phase += 0.5 * a[j];
    }
    return product * std::cos(phase);
  }
};

/// Π 1/(a_i^−2 + (x_i − u_i)²).
struct GenzProductPeak : GenzFamilyDefaults {
  static constexpr const char* name = "product_peak";
  GEOBEM_HD static double value(const double* x, int n, const double* a, const double* u) {
    double p = 1.0;
    for (int i = 0; i < n; ++i) p /= 1.0 / (a[i] * a[i]) + (x[i] - u[i]) * (x[i] - u[i]);
    return p;
  }
  static double max_a(int n) { return genz_peak_max_a(n); }
  static double exact_integral(const double* a, const double* u, int n) {
    double product = 1.0;
    for (int j = 0; j < n; ++j) product *= a[j] * (std::atan(a[j] * (1.0 - u[j])) + std::atan(a[j] * u[j]));
    return product;
  }
};

/// (1 + Σ a_i x_i)^−(n+1).
struct GenzCornerPeak : GenzFamilyDefaults {
  static constexpr const char* name = "corner_peak";
  GEOBEM_HD static double value(const double* x, int n, const double* a, const double*) {
    double s = 1.0;
    for (int i = 0; i < n; ++i) s += a[i] * x[i];
    return pow(s, -(n + 1.0));
  }
  static double max_a(int) { return 100.0; }
  /// n-fold antiderivative of (1 + a·x)^−(n+1): Σ_v (−1)^|v| (1 + a·v)^−1 / (n! Π a_j).
  static double exact_integral(const double* a, const double*, int n) {
    double sum = 0.0, scale = 1.0;
    for (int j = 0; j < n; ++j) scale *= (j + 1) * a[j];
    for (int v = 0; v < (1 << n); ++v) {
      double s = 1.0;
      int bits = 0;
      for (int j = 0; j < n; ++j)
        if ((v >> j) & 1) {
          s += a[j];
          ++bits;
        }
      sum += ((bits % 2) ? -1.0 : 1.0) / s;
    }
    return sum / scale;
  }
};

/// exp(−Σ a_i² (x_i − u_i)²).
struct GenzGaussian : GenzFamilyDefaults {
  static constexpr const char* name = "gaussian";
  GEOBEM_HD static double value(const double* x, int n, const double* a, const double* u) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += a[i] * a[i] * (x[i] - u[i]) * (x[i] - u[i]);
    return exp(-s);
  }
  /// The Gaussian's tails fall off fastest: at a = 100 in 3D (converged 21×
  /// off its tolerance) and a = 35 in 4D (a region of the minimum grid
  /// retired at 1e-3 holding 0.8% of the integral) its peak slipped between
  /// the rule's points; half the other peaks' range held on the batteries.
  static double max_a(int n) { return 0.5 * genz_peak_max_a(n); }
  static double exact_integral(const double* a, const double* u, int n) {
    double product = 1.0;
    for (int j = 0; j < n; ++j)
      product *= std::sqrt(kPi) / (2.0 * a[j]) * (std::erf(a[j] * (1.0 - u[j])) + std::erf(a[j] * u[j]));
    return product;
  }
};

/// exp(−Σ a_i |x_i − u_i|): a kink at u_i on every axis.
struct GenzContinuous : GenzFamilyDefaults {
  static constexpr const char* name = "continuous";
  GEOBEM_HD static double value(const double* x, int n, const double* a, const double* u) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += a[i] * fabs(x[i] - u[i]);
    return exp(-s);
  }
  static double max_a(int n) { return genz_peak_max_a(n); }
  static constexpr bool breakpoint_on_axis(int) { return true; }
  static double exact_integral(const double* a, const double* u, int n) {
    double product = 1.0;
    for (int j = 0; j < n; ++j) product *= (2.0 - std::exp(-a[j] * u[j]) - std::exp(-a[j] * (1.0 - u[j]))) / a[j];
    return product;
  }
};

/// 0 if x_1 > u_1 or x_2 > u_2, else exp(Σ a_i x_i): jumps at u_1 and u_2.
struct GenzDiscontinuous : GenzFamilyDefaults {
  static constexpr const char* name = "discontinuous";
  GEOBEM_HD static double value(const double* x, int n, const double* a, const double* u) {
    if (x[0] > u[0] || x[1] > u[1]) return 0.0;
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += a[i] * x[i];
    return exp(s);
  }
  /// e^{a Σ x_i} stays below e^700 (a double overflows at e^709.8).
  static double max_a(int n) { return std::min(100.0, 700.0 / n); }
  static constexpr bool breakpoint_on_axis(int axis) { return axis < 2; }
  static double exact_integral(const double* a, const double* u, int n) {
    double product = 1.0;
    for (int j = 0; j < n; ++j) {
      const double upper = j < 2 ? u[j] : 1.0;
      product *= std::expm1(a[j] * upper) / a[j];
    }
    return product;
  }
};

/// The built-in families, registered: their order fixes the CubatureFamily
/// values and the order of cubature_family_names().
using CubatureFamilies = FamilyList<ArumugamF1, ArumugamF2, ArumugamF3, ArumugamF4, GenzOscillatory, GenzProductPeak,
                                    GenzCornerPeak, GenzGaussian, GenzContinuous, GenzDiscontinuous>;

/// A built-in family: its position in CubatureFamilies. Name one by its
/// trait, cubature_family<GenzGaussian>, or parse its name.
enum class CubatureFamily : int {};
template <class Family>
constexpr CubatureFamily cubature_family = static_cast<CubatureFamily>(FamilyIndex<Family, CubatureFamilies>::value);

/// A catalogue integrand with its parameters (a_i, u_i used by the Genz families).
struct CubatureIntegrand {
  CubatureFamily family = cubature_family<ArumugamF1>;
  double a[kMaxCubatureDim] = {};
  double u[kMaxCubatureDim] = {};

  GEOBEM_HD double operator()(const double* x, int n) const {
    double value = 0.0;
    visit_family_at(CubatureFamilies{}, static_cast<int>(family),
                    [&](auto tag) { value = decltype(tag)::type::value(x, n, a, u); });
    return value;
  }
};

/// Family names as the stage spells them: f1 f2 f3 f4 oscillatory
/// product_peak corner_peak gaussian continuous discontinuous.
std::vector<std::string> cubature_family_names();

/// Parses a family name; throws InputError::usage naming the value and
/// listing the known names.
CubatureFamily parse_cubature_family(const std::string& name);

/// The stage's spelling of a family.
std::string to_string(CubatureFamily family);

/// Whether `family` is one of Genz's six (which take a and u).
bool is_genz_family(CubatureFamily family);

/// The top of a Genz family's documented range of a in n dimensions (see
/// kGenzMinA); 0 for the others.
double genz_max_a(CubatureFamily family, int n);

/// Integrand of `family` in n dimensions. Genz families take a_i = a and
/// u_i = u for every i (the stage's --genz-a/--genz-u); f1–f4 ignore them.
/// Throws InputError::usage naming the value for non-finite a or u, a
/// Genz family's a or u outside its documented range, or f2 with n > kMaxF2Dim.
CubatureIntegrand make_cubature_integrand(CubatureFamily family, int n, double a = 5.0, double u = 0.5);

/// Per axis, where the integrand has a kink or a jump (CubatureOptions::
/// breakpoints): continuous u_i on every axis, discontinuous u_1 and u_2 on
/// the first two; empty lists elsewhere.
std::vector<std::vector<double>> cubature_breakpoints(const CubatureIntegrand& integrand, int n);

/// Closed-form value over [0,1]^n of a Genz family (its trait's
/// exact_integral, Genz 1984); throws InputError for f1–f4, which
/// have none.
double genz_exact_integral(const CubatureIntegrand& integrand, int n);

}  // namespace geobem::quadrature
