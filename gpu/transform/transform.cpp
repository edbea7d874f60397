#include "gpu/transform/transform.hpp"

#include <cmath>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "gpu/core/family_list.hpp"
#include "gpu/core/gauss_legendre.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/transform/family_dispatch.hpp"
#include "gpu/transform/longman_cpu.hpp"

namespace geobem::transform {

const std::vector<FamilyDescription>& transform_families() {
  static const std::vector<FamilyDescription> families = [] {
    std::vector<FamilyDescription> list;
    for_each_family(LongmanFamilies{}, [&](auto tag) {
      using F = typename decltype(tag)::type;
      list.push_back({transform_family<F>, F::name, {std::begin(F::parameter_names), std::end(F::parameter_names)},
                      F::integral, F::range_text});
    });
    return list;
  }();
  return families;
}

ParameterRange parameter_range(TransformFamily family) {
  ParameterRange range{};
  detail::visit_family(family, [&](auto tag) { range = decltype(tag)::type::range; });
  return range;
}

const FamilyDescription& describe(TransformFamily family) {
  const auto& families = transform_families();
  const auto index = static_cast<std::size_t>(family);
  if (index >= families.size())
    throw InputError("transform family " + std::to_string(index) + " is not registered in LongmanFamilies");
  return families[index];
}

TransformFamily parse_transform_family(const std::string& name) {
  return parse_family<TransformFamily>(LongmanFamilies{}, name, "family");
}

namespace {

/// Each accelerator's name on the command line and in results.
struct AcceleratorName {
  Accelerator accelerator;
  const char* name;
};
constexpr AcceleratorName kAcceleratorNames[] = {
    {Accelerator::Euler, "euler"}, {Accelerator::Epsilon, "epsilon"}, {Accelerator::SidiMW, "mw"}};

}  // namespace

Accelerator parse_accelerator(const std::string& name) {
  for (const AcceleratorName& entry : kAcceleratorNames)
    if (name == entry.name) return entry.accelerator;
  throw InputError::usage("unknown accelerator '" + name + "' (known: euler, epsilon, mw)");
}

std::string to_string(Accelerator accelerator) {
  for (const AcceleratorName& entry : kAcceleratorNames)
    if (accelerator == entry.accelerator) return entry.name;
  return "unknown";
}

GaussRule make_gauss_rule(int order) {
  if (order < 1 || order > kMaxGaussOrder)
    throw InputError::usage("quadrature order must be in 1.." + std::to_string(kMaxGaussOrder) + ", got " +
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
    throw InputError::usage(message.str());
  }
  if (!std::isfinite(options.absolute_tolerance) || options.absolute_tolerance < 0.0) {
    std::ostringstream message;
    message << "absolute tolerance must be finite and >= 0, got " << options.absolute_tolerance;
    throw InputError::usage(message.str());
  }
  if (options.max_areas < 1 || options.max_areas > kMaxAreas)
    throw InputError::usage("max-areas must be in 1.." + std::to_string(kMaxAreas) + ", got " +
                            std::to_string(options.max_areas));
  if (options.min_areas < 1 || options.min_areas > options.max_areas)
    throw InputError::usage("min-areas must be in 1..max-areas (" + std::to_string(options.max_areas) +
                            "), got " + std::to_string(options.min_areas));
}

std::string describe_value(const std::string& name, double value, const std::string& requirement) {
  std::ostringstream message;
  message << name << " = " << value << " " << requirement;
  return message.str();
}

std::string outside_range(const std::string& name, double value, double lo, double hi, const char* why) {
  if (value >= lo && value <= hi) return "";
  std::ostringstream limits;
  limits << "is outside the documented range [" << lo << ", " << hi << "]" << why;
  return describe_value(name, value, limits.str());
}

std::string check_parameters(TransformFamily family, const double* p) {
  const auto& names = describe(family).parameters;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!std::isfinite(p[i])) return describe_value(names[i], p[i], "is not finite");
  std::string problem;
  detail::visit_family(family, [&](auto tag) { problem = decltype(tag)::type::check(p); });
  return problem;
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
    throw InputError("integrate_family: fewer parameters than count x parameters per integral");
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
