#include "gpu/quadrature/adaptive_1d.hpp"

#include <cmath>
#include <stdexcept>

#include "gpu/quadrature/adaptive_1d_cpu.hpp"

namespace geobem::quadrature {

namespace {
const char* const kFamilies[] = {"exp_sin", "poly_cos", "exp_cos", "sinc"};
const char* const kRules[] = {"double", "keep", "reset"};

void check_limits(double lower, double upper, const std::string& what) {
  if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper))
    throw std::invalid_argument(what + "limits [" + std::to_string(lower) + ", " + std::to_string(upper) +
                                "] are not finite with lower < upper");
}
}  // namespace

std::string to_string(Integrand1DFamily family) { return kFamilies[static_cast<int>(family)]; }

Integrand1DFamily parse_integrand_1d_family(const std::string& name) {
  for (int i = 0; i < 4; ++i)
    if (name == kFamilies[i]) return static_cast<Integrand1DFamily>(i);
  throw std::invalid_argument("unknown integrand '" + name + "' (known: exp_sin, poly_cos, exp_cos, sinc)");
}

std::string to_string(ExpansionRule rule) { return kRules[static_cast<int>(rule)]; }

ExpansionRule parse_expansion_rule(const std::string& name) {
  for (int i = 0; i < 3; ++i)
    if (name == kRules[i]) return static_cast<ExpansionRule>(i);
  throw std::invalid_argument("unknown expansion rule '" + name + "' (known: double, keep, reset)");
}

Integrand1D table2_integrand(Integrand1DFamily family) {
  Integrand1D f;
  f.family = family;
  switch (family) {
    case Integrand1DFamily::ExpSin: f.p[0] = 2.0, f.p[1] = 3.0, f.p[2] = 0.0; break;
    case Integrand1DFamily::PolyCos: f.p[0] = 4.0, f.p[1] = 2.0, f.p[2] = 2.0; break;
    case Integrand1DFamily::ExpCos: f.p[0] = 3.0, f.p[1] = 5.0, f.p[2] = 0.0; break;
    case Integrand1DFamily::Sinc: f.p[0] = 10.0, f.p[1] = 0.0, f.p[2] = 0.0; break;
  }
  return f;
}

void check_adaptive_1d_options(const Adaptive1DOptions& o) {
  if (!(o.rel_tol >= 0.0) || !(o.abs_tol >= 0.0) || !std::isfinite(o.rel_tol) || !std::isfinite(o.abs_tol))
    throw std::invalid_argument("tolerances must be finite and >= 0 (rel_tol " + std::to_string(o.rel_tol) +
                                ", abs_tol " + std::to_string(o.abs_tol) + ")");
  if (o.rel_tol == 0.0 && o.abs_tol == 0.0) throw std::invalid_argument("rel_tol and abs_tol are both 0");
  if (o.alpha < 1) throw std::invalid_argument("alpha " + std::to_string(o.alpha) + " must be >= 1");
  if (o.beta < 1 || o.beta > 1024 || (o.beta & (o.beta - 1)))
    throw std::invalid_argument("beta " + std::to_string(o.beta) + " must be a power of two in 1..1024");
  if (o.max_evaluations < 15ULL * o.alpha * o.beta)
    throw std::invalid_argument("max_evaluations " + std::to_string(o.max_evaluations) +
                                " is below one block (15·alpha·beta)");
}

Adaptive1DResult adaptive_1d_result(const BlockCuttingState& s) {
  Adaptive1DResult r;
  r.estimate = s.estimate;
  r.error = s.error;
  r.evaluations = s.evaluations;
  r.blocks = s.blocks;
  if (s.capped)
    r.status = CubatureStatus::EvaluationCapReached;
  else if (s.error <= std::max(s.abs_tol, s.rel_tol * std::fabs(s.estimate)))
    r.status = CubatureStatus::Converged;
  else
    r.status = CubatureStatus::NotConverged;
  return r;
}

Adaptive1DResult integrate_adaptive_1d(const Integrand1D& f, double lower, double upper,
                                       const Adaptive1DOptions& options, ComputeDevice device) {
  check_adaptive_1d_options(options);
  check_limits(lower, upper, "");
  if (device == ComputeDevice::Cuda) return cuda_integrate_adaptive_1d(f, lower, upper, options);
  return cpu_integrate_adaptive_1d(f, lower, upper, options);
}

std::vector<Adaptive1DResult> integrate_adaptive_1d_batch(const std::vector<Problem1D>& problems,
                                                          const Adaptive1DOptions& options, ComputeDevice device) {
  check_adaptive_1d_options(options);
  for (std::size_t i = 0; i < problems.size(); ++i)
    check_limits(problems[i].lower, problems[i].upper, "problem " + std::to_string(i) + ": ");
  if (device == ComputeDevice::Cuda) return cuda_integrate_adaptive_1d_batch(problems, options);
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

}  // namespace geobem::quadrature
