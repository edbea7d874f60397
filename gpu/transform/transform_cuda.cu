// CUDA path of integrate_family: the built-in families' functors through the
// templated launcher.
#include "gpu/transform/family_dispatch.hpp"
#include "gpu/transform/longman_cuda.cuh"

namespace geobem::transform::detail {

void integrate_family_cuda(TransformFamily family, const std::vector<double>& parameters, std::size_t count,
                           const GaussRule& rule, const LongmanOptions& options, LongmanResult* results,
                           LongmanTimings* timings) {
  with_family_functors(family, parameters, count, [&](auto& items) {
    longman_integrate_cuda(items.data(), count, rule, options, results, timings);
  });
}

}  // namespace geobem::transform::detail
