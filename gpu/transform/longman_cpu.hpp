#pragma once
// OpenMP CPU driver for a batch of Longman integrals of one functor type:
// the same integrate_one() as the CUDA launcher, one integral per loop
// iteration. Compile with OpenMP (g++ -fopenmp; OpenMP::OpenMP_CXX).
#include <cstddef>

#include "gpu/core/progress.hpp"
#include "gpu/transform/longman.hpp"

namespace geobem::transform {

/// results[i] = integrate_one(items[i], rule, options) for i < count, on
/// all OpenMP threads (dynamic schedule: integrals differ in cost).
/// `progress` (may be null) advances by the integrals done.
template <class F>
void longman_integrate_cpu(const F* items, std::size_t count, const GaussRule& rule, const LongmanOptions& options,
                           LongmanResult* results, ProgressReporter* progress = nullptr) {
  constexpr std::size_t chunk = 256;
  const long long chunks = static_cast<long long>((count + chunk - 1) / chunk);
#pragma omp parallel for schedule(dynamic, 1)
  for (long long c = 0; c < chunks; ++c) {
    const std::size_t begin = static_cast<std::size_t>(c) * chunk;
    const std::size_t end = begin + chunk < count ? begin + chunk : count;
    for (std::size_t i = begin; i < end; ++i) results[i] = integrate_one(items[i], rule, options);
    if (progress) progress->advance(end - begin);
  }
}

}  // namespace geobem::transform
