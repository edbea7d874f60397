#include "gpu/core/math_constants.hpp"
#include "gpu/quadrature/cubature_integrands.hpp"
#include "gpu/core/usage_error.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace geobem::quadrature {

namespace {
const char* const kNames[] = {"f1",       "f2",       "f3",         "f4",         "oscillatory",
                              "product_peak", "corner_peak", "gaussian", "continuous", "discontinuous"};
}

std::vector<std::string> cubature_family_names() { return {std::begin(kNames), std::end(kNames)}; }

std::string to_string(CubatureFamily family) { return kNames[static_cast<int>(family)]; }

CubatureFamily parse_cubature_family(const std::string& name) {
  for (int i = 0; i < static_cast<int>(std::size(kNames)); ++i)
    if (name == kNames[i]) return static_cast<CubatureFamily>(i);
  std::string known;
  for (const char* k : kNames) known += std::string(known.empty() ? "" : ", ") + k;
  throw UsageError("unknown integrand '" + name + "' (known: " + known + ")");
}

bool is_genz_family(CubatureFamily family) { return static_cast<int>(family) >= static_cast<int>(CubatureFamily::Oscillatory); }

double genz_max_a(CubatureFamily family, int n) {
  // Peaks of width 1/a: 100 up to 3D, then 100·(3/n)² (56 in 4D, 14 in 8D).
  // Beyond, in 5–8D, peaks narrower than the rule's point spacing on the
  // minimum grid were missed whole (Gaussian a = 65 in 7D: 2.5e-22 for
  // 1.1e-11) or converged 490× off their tolerance (bench/RESULTS.md).
  const double peak = n <= 3 ? 100.0 : 100.0 * (3.0 / n) * (3.0 / n);
  switch (family) {
    case CubatureFamily::Oscillatory: return 100.0;
    case CubatureFamily::ProductPeak: return peak;
    case CubatureFamily::CornerPeak: return 100.0;
    // The Gaussian's tails fall off fastest: at a = 100 in 3D (converged 21×
    // off its tolerance) and a = 35 in 4D (a region of the minimum grid
    // retired at 1e-3 holding 0.8% of the integral) its peak slipped between
    // the rule's points; half the other peaks' range held on the batteries.
    case CubatureFamily::Gaussian: return 0.5 * peak;
    case CubatureFamily::Continuous: return peak;
    // e^{a Σ x_i} stays below e^700 (a double overflows at e^709.8).
    case CubatureFamily::Discontinuous: return std::min(100.0, 700.0 / n);
    default: return 0.0;
  }
}

CubatureIntegrand make_cubature_integrand(CubatureFamily family, int n, double a, double u) {
  const auto number = [](double value) {
    std::ostringstream text;
    text << std::setprecision(17) << value;
    return text.str();
  };
  if (!std::isfinite(a)) throw UsageError("--genz-a " + number(a) + " is not finite");
  if (!std::isfinite(u)) throw UsageError("--genz-u " + number(u) + " is not finite");
  if (is_genz_family(family)) {
    const double top = genz_max_a(family, n);
    if (!(a >= kGenzMinA && a <= top))
      throw UsageError("--genz-a " + number(a) + " is outside the documented range [" + number(kGenzMinA) +
                                  ", " + number(top) + "] of " + to_string(family) + " in " + std::to_string(n) +
                                  " dimensions");
    if (!(u >= 0.0 && u <= 1.0))
      throw UsageError("--genz-u " + number(u) + " is outside [0, 1]");
  }
  if (family == CubatureFamily::F2 && n > kMaxF2Dim)
    throw UsageError("f2 in " + std::to_string(n) + " dimensions: its frequency 2^(2^" + std::to_string(n) +
                                ") on axis " + std::to_string(n) + " overflows a double; f2 takes n <= " +
                                std::to_string(kMaxF2Dim));
  CubatureIntegrand integrand;
  integrand.family = family;
  for (int i = 0; i < n && i < kMaxCubatureDim; ++i) {
    integrand.a[i] = a;
    integrand.u[i] = u;
  }
  return integrand;
}

std::vector<std::vector<double>> cubature_breakpoints(const CubatureIntegrand& f, int n) {
  std::vector<std::vector<double>> breakpoints(n);
  for (int i = 0; i < n; ++i) {
    if (f.family == CubatureFamily::Continuous || (f.family == CubatureFamily::Discontinuous && i < 2))
      breakpoints[i].push_back(f.u[i]);
  }
  return breakpoints;
}

double genz_exact_integral(const CubatureIntegrand& f, int n) {
  const double* a = f.a;
  const double* u = f.u;
  switch (f.family) {
    case CubatureFamily::Oscillatory: {
      // Re[e^{2πi u1} Π (e^{i a_j} − 1)/(i a_j)] = Π(2 sin(a_j/2)/a_j)·cos(2π u1 + Σ a_j/2).
      double product = 1.0, phase = 2.0 * kPi * u[0];
      for (int j = 0; j < n; ++j) {
        product *= 2.0 * std::sin(0.5 * a[j]) / a[j];
        phase += 0.5 * a[j];
      }
      return product * std::cos(phase);
    }
    case CubatureFamily::ProductPeak: {
      double product = 1.0;
      for (int j = 0; j < n; ++j) product *= a[j] * (std::atan(a[j] * (1.0 - u[j])) + std::atan(a[j] * u[j]));
      return product;
    }
    case CubatureFamily::CornerPeak: {
      // n-fold antiderivative of (1 + a·x)^−(n+1): Σ_v (−1)^|v| (1 + a·v)^−1 / (n! Π a_j).
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
    case CubatureFamily::Gaussian: {
      double product = 1.0;
      for (int j = 0; j < n; ++j)
        product *= std::sqrt(kPi) / (2.0 * a[j]) * (std::erf(a[j] * (1.0 - u[j])) + std::erf(a[j] * u[j]));
      return product;
    }
    case CubatureFamily::Continuous: {
      double product = 1.0;
      for (int j = 0; j < n; ++j)
        product *= (2.0 - std::exp(-a[j] * u[j]) - std::exp(-a[j] * (1.0 - u[j]))) / a[j];
      return product;
    }
    case CubatureFamily::Discontinuous: {
      double product = 1.0;
      for (int j = 0; j < n; ++j) {
        const double upper = j < 2 ? u[j] : 1.0;
        product *= std::expm1(a[j] * upper) / a[j];
      }
      return product;
    }
    default:
      throw std::invalid_argument("integrand '" + to_string(f.family) + "' has no closed form");
  }
}

}  // namespace geobem::quadrature
