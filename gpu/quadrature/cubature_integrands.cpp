#include "gpu/core/input_error.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/quadrature/cubature_integrands.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace geobem::quadrature {

namespace {

/// Calls visit(FamilyTag<Trait>{}) with the family's trait.
template <class Visitor>
void visit_cubature_family(CubatureFamily family, Visitor&& visit) {
  visit_registered_family(CubatureFamilies{}, family, "CubatureFamilies", visit);
}

}  // namespace

std::vector<std::string> cubature_family_names() { return family_names(CubatureFamilies{}); }

std::string to_string(CubatureFamily family) { return family_name(CubatureFamilies{}, family, "CubatureFamilies"); }

CubatureFamily parse_cubature_family(const std::string& name) {
  return parse_family<CubatureFamily>(CubatureFamilies{}, name, "integrand");
}

bool is_genz_family(CubatureFamily family) {
  bool genz = false;
  visit_cubature_family(family, [&](auto tag) { genz = decltype(tag)::type::takes_a_u; });
  return genz;
}

double genz_max_a(CubatureFamily family, int n) {
  double top = 0.0;
  visit_cubature_family(family, [&](auto tag) {
    using F = typename decltype(tag)::type;
    if constexpr (F::takes_a_u) top = F::max_a(n);
  });
  return top;
}

CubatureIntegrand make_cubature_integrand(CubatureFamily family, int n, double a, double u) {
  const auto number = [](double value) {
    std::ostringstream text;
    text << std::setprecision(17) << value;
    return text.str();
  };
  if (!std::isfinite(a)) throw InputError::usage("--genz-a " + number(a) + " is not finite");
  if (!std::isfinite(u)) throw InputError::usage("--genz-u " + number(u) + " is not finite");
  if (is_genz_family(family)) {
    const double top = genz_max_a(family, n);
    if (!(a >= kGenzMinA && a <= top))
      throw InputError::usage("--genz-a " + number(a) + " is outside the documented range [" + number(kGenzMinA) +
                              ", " + number(top) + "] of " + to_string(family) + " in " + std::to_string(n) +
                              " dimensions");
    if (!(u >= 0.0 && u <= 1.0))
      throw InputError::usage("--genz-u " + number(u) + " is outside [0, 1]");
  }
  std::string dimension_problem;
  visit_cubature_family(family, [&](auto tag) { dimension_problem = decltype(tag)::type::dimension_problem(n); });
  if (!dimension_problem.empty()) throw InputError::usage(dimension_problem);
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
  visit_cubature_family(f.family, [&](auto tag) {
    for (int i = 0; i < n; ++i)
      if (decltype(tag)::type::breakpoint_on_axis(i)) breakpoints[i].push_back(f.u[i]);
  });
  return breakpoints;
}

double genz_exact_integral(const CubatureIntegrand& f, int n) {
  double exact = 0.0;
  visit_cubature_family(f.family, [&](auto tag) {
    using F = typename decltype(tag)::type;
    if constexpr (F::takes_a_u)
      exact = F::exact_integral(f.a, f.u, n);
    else
      throw InputError("integrand '" + std::string(F::name) + "' has no closed form");
  });
  return exact;
}

}  // namespace geobem::quadrature
