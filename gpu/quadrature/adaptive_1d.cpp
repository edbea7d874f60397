#include "gpu/quadrature/adaptive_1d.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "gpu/core/input_error.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/quadrature/adaptive_1d_cpu.hpp"

namespace geobem::quadrature {

namespace {
const char* const kRules[] = {"double", "keep", "reset"};

std::string number(double value) {
  std::ostringstream text;
  text << std::setprecision(17) << value;
  return text.str();
}
/// Calls visit(FamilyTag<Trait>{}) with the family's trait.
template <class Visitor>
void visit_integrand_1d_family(Integrand1DFamily family, Visitor&& visit) {
  visit_registered_family(Integrand1DFamilies{}, family, "Integrand1DFamilies", visit);
}
/// The CPU path of integrate_adaptive_1d_batch: one problem per OpenMP thread.
std::vector<Adaptive1DResult> cpu_integrate_adaptive_1d_batch(const std::vector<Problem1D>& problems,
                                                              const Adaptive1DOptions& options) {
  std::vector<Adaptive1DResult> results(problems.size());
  const long count = static_cast<long>(problems.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (long i = 0; i < count; ++i) {
    BlockCuttingState state = start_block_cutting(problems[i].lower, problems[i].upper, options.rel_tol,
                                                  options.abs_tol, options.max_evaluations, options.expansion);
    cpu_block_cutting_sweep(problems[i].integrand, state, options.beta, false);
    results[i] = adaptive_1d_result(state);
  }
  return results;
}

}  // namespace

Integrand1DRanges integrand_1d_ranges(Integrand1DFamily family) {
  Integrand1DRanges ranges{};
  visit_integrand_1d_family(family, [&](auto tag) { ranges = decltype(tag)::type::ranges; });
  return ranges;
}

double integrand_1d_rate(const Integrand1D& f) {
  double rate = 0.0;
  visit_integrand_1d_family(f.family, [&](auto tag) { rate = decltype(tag)::type::rate(f.p); });
  return rate;
}

double exp_family_limit(const Integrand1D& f) {
  const double rate = integrand_1d_rate(f);
  double limit = rate > 0.0 ? std::min(kMaxLimit1D, kMaxPhase1D / rate) : kMaxLimit1D;
  const bool exponential = integrand_1d_ranges(f.family).exponential;
  if (exponential && f.p[0] != 0.0) limit = std::min(limit, kMaxExponent1D / std::fabs(f.p[0]));
  return limit;
}

std::string describe_integrand_1d_ranges(Integrand1DFamily family) {
  const Integrand1DRanges r = integrand_1d_ranges(family);
  std::string text;
  for (int k = 0; k < 3; ++k)
    if (r.max[k] > 0.0)
      text += (text.empty() ? "p" : ", p") + std::to_string(k) + " in " + (r.signed_parameter[k] ? "[-" : "[0, ") +
              (r.signed_parameter[k] ? number(r.max[k]) + ", " : "") + number(r.max[k]) + "]";
  return text;
}

void check_problem_1d(const Problem1D& p, const std::string& where) {
  const Integrand1DRanges r = integrand_1d_ranges(p.integrand.family);
  for (int k = 0; k < 3; ++k) {
    const double value = p.integrand.p[k];
    const std::string name = where + "p" + std::to_string(k) + " " + number(value);
    if (!std::isfinite(value)) throw InputError::usage(name + " is not finite");
    if (r.max[k] == 0.0 && value != 0.0)
      throw InputError::usage(name + ": " + to_string(p.integrand.family) + " has no parameter p" +
                              std::to_string(k) + " (must be 0)");
    if (std::fabs(value) > r.max[k])
      throw InputError::usage(name + " is outside the documented range |p" + std::to_string(k) +
                              "| <= " + number(r.max[k]) + " of " + to_string(p.integrand.family));
    if (value < 0.0 && !r.signed_parameter[k])
      throw InputError::usage(name + " must be >= 0 for " + to_string(p.integrand.family));
  }
  if (!std::isfinite(p.lower) || !std::isfinite(p.upper) || !(p.lower < p.upper))
    throw InputError::usage(where + "limits [" + number(p.lower) + ", " + number(p.upper) +
                            "] are not finite with lower < upper");
  const double limit = exp_family_limit(p.integrand);
  if (std::fabs(p.lower) > limit || std::fabs(p.upper) > limit)
    throw InputError::usage(where + "limits [" + number(p.lower) + ", " + number(p.upper) + "] reach beyond " +
                            number(limit) +
                            ", the documented range of " + to_string(p.integrand.family));
}

const std::vector<Integrand1DDescription>& integrand_1d_families() {
  static const std::vector<Integrand1DDescription> families = [] {
    std::vector<Integrand1DDescription> list;
    for_each_family(Integrand1DFamilies{}, [&](auto tag) {
      using F = typename decltype(tag)::type;
      std::string table2;
      for (int k = 0; k < 3; ++k)
        if (F::ranges.max[k] > 0.0) {
          std::ostringstream value;
          value << F::table2[k];
          table2 += (table2.empty() ? "" : ",") + value.str();
        }
      list.push_back({integrand_1d_family<F>, F::name, F::help.formula, table2, F::help.rate, F::ranges.exponential});
    });
    return list;
  }();
  return families;
}

std::string to_string(Integrand1DFamily family) {
  return family_name(Integrand1DFamilies{}, family, "Integrand1DFamilies");
}

Integrand1DFamily parse_integrand_1d_family(const std::string& name) {
  return parse_family<Integrand1DFamily>(Integrand1DFamilies{}, name, "integrand");
}

std::string to_string(ExpansionRule rule) { return kRules[static_cast<int>(rule)]; }

ExpansionRule parse_expansion_rule(const std::string& name) {
  for (int i = 0; i < 3; ++i)
    if (name == kRules[i]) return static_cast<ExpansionRule>(i);
  throw InputError::usage("unknown expansion rule '" + name + "' (known: double, keep, reset)");
}

Integrand1D table2_integrand(Integrand1DFamily family) {
  Integrand1D f;
  f.family = family;
  visit_integrand_1d_family(family, [&](auto tag) {
    for (int k = 0; k < 3; ++k) f.p[k] = decltype(tag)::type::table2[k];
  });
  return f;
}

void check_adaptive_1d_options(const Adaptive1DOptions& o) {
  if (!(o.rel_tol >= 0.0) || !(o.abs_tol >= 0.0) || !std::isfinite(o.rel_tol) || !std::isfinite(o.abs_tol))
    throw InputError::usage("tolerances must be finite and >= 0 (rel_tol " + std::to_string(o.rel_tol) +
                            ", abs_tol " + std::to_string(o.abs_tol) + ")");
  if (o.rel_tol == 0.0 && o.abs_tol == 0.0) throw InputError::usage("rel_tol and abs_tol are both 0");
  if (o.alpha < 1) throw InputError::usage("alpha " + std::to_string(o.alpha) + " must be >= 1");
  if (o.beta < 1 || o.beta > 1024 || (o.beta & (o.beta - 1)))
    throw InputError::usage("beta " + std::to_string(o.beta) + " must be a power of two in 1..1024");
  if (o.max_evaluations < 30ULL * o.alpha * o.beta)
    throw InputError::usage("max_evaluations " + std::to_string(o.max_evaluations) +
                            " is below two blocks (2·15·alpha·beta = " + std::to_string(30ULL * o.alpha * o.beta) +
                            ")");
}

Adaptive1DResult adaptive_1d_result(const BlockCuttingState& s) {
  Adaptive1DResult r;
  r.estimate = block_cutting_estimate(s);
  r.rounding = block_cutting_rounding(s);
  r.error = s.error + r.rounding;
  r.evaluations = s.evaluations;
  r.blocks = s.blocks;
  const double target = block_cutting_target(s, r.estimate);
  if (!std::isfinite(r.estimate) || !std::isfinite(r.error))
    r.status = IntegrationStatus::NonFinite;
  else if (r.error <= target)
    r.status = IntegrationStatus::Converged;
  else if (s.capped)
    r.status = IntegrationStatus::EvaluationCapReached;
  else if (r.rounding > target)
    r.status = IntegrationStatus::RoundingLimited;
  else
    r.status = IntegrationStatus::NotConverged;
  return r;
}

Adaptive1DResult integrate_adaptive_1d(const Integrand1D& f, double lower, double upper,
                                       const Adaptive1DOptions& options, ComputeDevice device) {
  check_adaptive_1d_options(options);
  check_problem_1d(Problem1D{f, lower, upper}, "");
  return run_on(
      device, "adaptive 1D quadrature", [&] { return cuda_integrate_adaptive_1d(f, lower, upper, options); },
      [&] { return cpu_integrate_adaptive_1d(f, lower, upper, options); });
}

std::vector<Adaptive1DResult> integrate_adaptive_1d_batch(const std::vector<Problem1D>& problems,
                                                          const Adaptive1DOptions& options, ComputeDevice device) {
  check_adaptive_1d_options(options);
  for (std::size_t i = 0; i < problems.size(); ++i)
    check_problem_1d(problems[i], "problem " + std::to_string(i) + ": ");
  return run_on(
      device, "adaptive 1D quadrature", [&] { return cuda_integrate_adaptive_1d_batch(problems, options); },
      [&] { return cpu_integrate_adaptive_1d_batch(problems, options); });
}

}  // namespace geobem::quadrature
