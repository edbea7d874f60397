// CUDA path of integrate_family: the parameter rows go to the device as they
// are and each thread builds its functor there (longman_integrate_cuda_rows).
#include "gpu/transform/family_dispatch.hpp"
#include "gpu/transform/longman_cuda.cuh"

namespace geobem::transform::detail {

void integrate_family_cuda(TransformFamily family, const std::vector<double>& parameters, std::size_t count,
                           const GaussRule& rule, const LongmanOptions& options, LongmanResult* results,
                           LongmanTimings* timings) {
  const std::size_t stride = describe(family).parameters.size();
  visit_family(family, [&](auto type) {
    using F = typename decltype(type)::type;
    longman_integrate_cuda_rows<F>(parameters.data(), stride, count, rule, options, results, timings);
  });
}

}  // namespace geobem::transform::detail
