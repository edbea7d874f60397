#include "gpu/transform/transform.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "gpu/core/gauss_legendre.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/transform/family_dispatch.hpp"
#include "gpu/transform/longman_cpu.hpp"
#include "gpu/core/usage_error.hpp"

namespace geobem::transform {

const std::vector<FamilyDescription>& transform_families() {
  static const std::vector<FamilyDescription> families{
      {TransformFamily::ExponentialCosine, "exp-cos", {"lambda", "omega"},
       "int_0^inf exp(-lambda x) cos(omega x) dx = lambda/(lambda^2+omega^2)",
       "1e-8 <= omega <= 1e8, 0.02 <= lambda/omega <= 1e10"},
      {TransformFamily::ExponentialSine, "exp-sin", {"a", "omega"},
       "int_0^inf exp(-a x) sin(omega x) dx = omega/(a^2+omega^2)", "1e-8 <= omega <= 1e8, 0.02 <= a/omega <= 1e10"},
      {TransformFamily::LorentzianCosine, "lorentzian-cos", {"omega"},
       "int_0^inf cos(omega x)/(1+x^2) dx = (pi/2) exp(-omega)", "1e-8 <= omega <= 5"},
      {TransformFamily::LorentzianSine, "lorentzian-sin", {"omega"},
       "int_0^inf x sin(omega x)/(1+x^2) dx = (pi/2) exp(-omega)", "1e-8 <= omega <= 5"},
      {TransformFamily::HankelExponential, "hankel-exp", {"nu", "m", "a", "r"},
       "int_0^inf exp(-a k) J_nu(k r) k^m dk  (nu, m in {0,1})",
       "1e-6 <= r <= 1e6; 0 <= a/r <= 1e8 (m = 0), 0.05 <= a/r <= 1e8 (m = 1)"},
      {TransformFamily::HalfSpaceDisk, "halfspace-disk", {"a", "r"},
       "int_0^inf J1(k a) J0(k r) / k dk: disk load on a half-space",
       "1e-6 <= a <= 1e6; r = 0 or 1e-3 <= r/a <= 1e3 (the rim r = a included)"},
  };
  return families;
}

ParameterRange parameter_range(TransformFamily family) {
  switch (family) {
    case TransformFamily::ExponentialCosine:
    case TransformFamily::ExponentialSine: return {1e-8, 1e8, 0.02, 1e10};
    case TransformFamily::LorentzianCosine:
    case TransformFamily::LorentzianSine: return {1.0, 1.0, 1e-8, 5.0};
    case TransformFamily::HankelExponential: return {1e-6, 1e6, 0.05, 1e8};
    case TransformFamily::HalfSpaceDisk: return {1e-6, 1e6, 1e-3, 1e3};
  }
  throw std::logic_error("transform family without a range");
}

const FamilyDescription& describe(TransformFamily family) {
  for (const auto& description : transform_families())
    if (description.family == family) return description;
  throw std::logic_error("transform family without a description");
}

TransformFamily parse_transform_family(const std::string& name) {
  std::string known;
  for (const auto& description : transform_families()) {
    if (description.name == name) return description.family;
    known += (known.empty() ? "" : ", ") + description.name;
  }
  throw UsageError("unknown family '" + name + "' (known: " + known + ")");
}

Accelerator parse_accelerator(const std::string& name) {
  if (name == "euler") return Accelerator::Euler;
  if (name == "epsilon") return Accelerator::Epsilon;
  if (name == "mw") return Accelerator::SidiMW;
  throw UsageError("unknown accelerator '" + name + "' (known: euler, epsilon, mw)");
}

std::string to_string(Accelerator accelerator) {
  switch (accelerator) {
    case Accelerator::Euler: return "euler";
    case Accelerator::Epsilon: return "epsilon";
    case Accelerator::SidiMW: return "mw";
  }
  return "unknown";
}

GaussRule make_gauss_rule(int order) {
  if (order < 1 || order > kMaxGaussOrder)
    throw UsageError("quadrature order must be in 1.." + std::to_string(kMaxGaussOrder) + ", got " +
                                std::to_string(order));
  const GaussLegendreRule points = gauss_legendre_rule(order);
  GaussRule rule;
  rule.order = order;
  for (int i = 0; i < order; ++i) {
    rule.nodes[i] = points.nodes[i];
    rule.weights[i] = points.weights[i];
  }
  return rule;
}

void validate_options(const LongmanOptions& options) {
  if (!std::isfinite(options.relative_tolerance) || options.relative_tolerance <= 0.0) {
    std::ostringstream message;
    message << "tolerance must be finite and > 0, got " << options.relative_tolerance;
    throw UsageError(message.str());
  }
  if (!std::isfinite(options.absolute_tolerance) || options.absolute_tolerance < 0.0) {
    std::ostringstream message;
    message << "absolute tolerance must be finite and >= 0, got " << options.absolute_tolerance;
    throw UsageError(message.str());
  }
  if (options.max_areas < 1 || options.max_areas > kMaxAreas)
    throw UsageError("max-areas must be in 1.." + std::to_string(kMaxAreas) + ", got " +
                                std::to_string(options.max_areas));
  if (options.min_areas < 1 || options.min_areas > options.max_areas)
    throw UsageError("min-areas must be in 1..max-areas (" + std::to_string(options.max_areas) +
                                "), got " + std::to_string(options.min_areas));
}

namespace {

std::string describe_value(const std::string& name, double value, const std::string& requirement) {
  std::ostringstream message;
  message << name << " = " << value << " " << requirement;
  return message.str();
}

}  // namespace

std::string check_parameters(TransformFamily family, const double* p) {
  const auto& names = describe(family).parameters;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!std::isfinite(p[i])) return describe_value(names[i], p[i], "is not finite");
  const ParameterRange range = parameter_range(family);
  auto within = [](const std::string& name, double value, double lo, double hi, const char* why) -> std::string {
    if (value >= lo && value <= hi) return "";
    std::ostringstream limits;
    limits << "is outside the documented range [" << lo << ", " << hi << "]" << why;
    return describe_value(name, value, limits.str());
  };
  const char* damping = " (strong damping is fine; below the range rounding exceeds 1e-12)";
  switch (family) {
    case TransformFamily::ExponentialCosine:
    case TransformFamily::ExponentialSine: {
      std::string problem = within(names[1], p[1], range.scale_min, range.scale_max, "");
      if (problem.empty()) problem = within(names[0] + "/" + names[1], p[0] / p[1], range.ratio_min, range.ratio_max, damping);
      return problem;
    }
    case TransformFamily::LorentzianCosine:
    case TransformFamily::LorentzianSine:
      return within(names[0], p[0], range.ratio_min, range.ratio_max,
                    " (above it the integral (pi/2) e^-omega is a small remainder lost to rounding)");
    case TransformFamily::HankelExponential: {
      if (p[0] != 0 && p[0] != 1) return describe_value("nu", p[0], "must be 0 or 1");
      if (p[1] != 0 && p[1] != 1) return describe_value("m", p[1], "must be 0 or 1");
      std::string problem = within("r", p[3], range.scale_min, range.scale_max, "");
      if (!problem.empty()) return problem;
      if (p[1] == 0) return within("a/r", p[2] / p[3], 0.0, range.ratio_max, "");
      return within("a/r", p[2] / p[3], range.ratio_min, range.ratio_max,
                    " for m = 1 (a = 0 diverges; below the range rounding exceeds 1e-12)");
    }
    case TransformFamily::HalfSpaceDisk: {
      std::string problem = within("a", p[0], range.scale_min, range.scale_max, "");
      if (problem.empty() && p[1] != 0.0) problem = within("r/a", p[1] / p[0], range.ratio_min, range.ratio_max, " (or r = 0)");
      return problem;
    }
  }
  return "";
}

std::vector<LongmanResult> integrate_family(TransformFamily family, const std::vector<double>& parameters,
                                            std::size_t count, const LongmanOptions& options, int quadrature_order,
                                            ComputeDevice device, bool progress_quiet, LongmanTimings* timings) {
  std::vector<LongmanResult> results;
  integrate_family(family, parameters, count, options, quadrature_order, device, results, progress_quiet, timings);
  return results;
}

void integrate_family(TransformFamily family, const std::vector<double>& parameters, std::size_t count,
                      const LongmanOptions& options, int quadrature_order, ComputeDevice device,
                      std::vector<LongmanResult>& results, bool progress_quiet, LongmanTimings* timings) {
  validate_options(options);
  if (parameters.size() < count * describe(family).parameters.size())
    throw std::invalid_argument("integrate_family: fewer parameters than count x parameters per integral");
  const GaussRule rule = make_gauss_rule(quadrature_order);
  results.resize(count);
  if (device == ComputeDevice::Cuda) {
#if GEOBEM_WITH_CUDA
    detail::integrate_family_cuda(family, parameters, count, rule, options, results.data(), timings);
    return;
#else
    throw_cuda_not_built("Longman");
#endif
  }
  ProgressReporter progress("longman " + describe(family).name, count, "integrals", progress_quiet);
  const std::size_t stride = describe(family).parameters.size();
  detail::visit_family(family, [&](auto type) {
    using F = typename decltype(type)::type;
    std::vector<F> items(count);
    for (std::size_t i = 0; i < count; ++i) items[i] = F::from_parameters(&parameters[i * stride]);
    longman_integrate_cpu(items.data(), count, rule, options, results.data(), &progress);
  });
  progress.finish();
  if (timings) *timings = LongmanTimings{};
}

}  // namespace geobem::transform
