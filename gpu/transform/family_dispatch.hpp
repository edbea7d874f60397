#pragma once
// Internal to geobem_transform: builds the functor array of a built-in family
// from row-major parameters and hands it to a driver (CPU in transform.cpp,
// CUDA in transform_cuda.cu), so the family-to-functor mapping is written once.
#include <cstddef>
#include <vector>

#include "gpu/transform/families.hpp"
#include "gpu/transform/transform.hpp"

namespace geobem::transform::detail {

template <class F, class Make, class Driver>
void build_and_run(const std::vector<double>& parameters, std::size_t count, std::size_t stride, Make make,
                   Driver&& driver) {
  std::vector<F> items(count);
  for (std::size_t i = 0; i < count; ++i) items[i] = make(&parameters[i * stride]);
  driver(items);
}

/// Calls driver(std::vector<Functor>&) with the family's functors.
template <class Driver>
void with_family_functors(TransformFamily family, const std::vector<double>& parameters, std::size_t count,
                          Driver&& driver) {
  const std::size_t stride = describe(family).parameters.size();
  switch (family) {
    case TransformFamily::ExponentialCosine:
      build_and_run<ExponentialCosine>(parameters, count, stride,
                                       [](const double* p) { return ExponentialCosine{p[0], p[1]}; }, driver);
      break;
    case TransformFamily::ExponentialSine:
      build_and_run<ExponentialSine>(parameters, count, stride,
                                     [](const double* p) { return ExponentialSine{p[0], p[1]}; }, driver);
      break;
    case TransformFamily::LorentzianCosine:
      build_and_run<LorentzianCosine>(parameters, count, stride,
                                      [](const double* p) { return LorentzianCosine{p[0]}; }, driver);
      break;
    case TransformFamily::LorentzianSine:
      build_and_run<LorentzianSine>(parameters, count, stride,
                                    [](const double* p) { return LorentzianSine{p[0]}; }, driver);
      break;
    case TransformFamily::HankelExponential:
      build_and_run<HankelExponential>(
          parameters, count, stride,
          [](const double* p) { return HankelExponential{static_cast<int>(p[0]), static_cast<int>(p[1]), p[2], p[3]}; },
          driver);
      break;
    case TransformFamily::HalfSpaceDisk:
      build_and_run<HalfSpaceDisk>(parameters, count, stride,
                                   [](const double* p) { return HalfSpaceDisk{p[0], p[1]}; }, driver);
      break;
  }
}

/// The CUDA path of integrate_family (transform_cuda.cu).
void integrate_family_cuda(TransformFamily family, const std::vector<double>& parameters, std::size_t count,
                           const GaussRule& rule, const LongmanOptions& options, LongmanResult* results,
                           LongmanTimings* timings);

}  // namespace geobem::transform::detail
