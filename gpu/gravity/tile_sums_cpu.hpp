#pragma once
// The OpenMP counterpart of tile_sums_cuda.cuh, over the same SourceView and
// Kernel structs: each thread takes whole stations and loops over every
// source, forming it from its index as the CUDA threads do.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu/core/progress.hpp"
#include "gpu/gravity/prism.hpp"

namespace geobem::gravity {

/// Sums[f · stations + s] of Kernel::outputs rows over view.item(0 … count−1).
template <typename SourceView, typename Kernel>
std::vector<double> cpu_tile_sums(const SourceView& view, std::int64_t count, const std::vector<Station>& stations,
                                  const Kernel& kernel, ProgressReporter& progress) {
  const std::int64_t n = static_cast<std::int64_t>(stations.size());
  std::vector<double> sums(static_cast<std::size_t>(Kernel::outputs) * stations.size(), 0.0);
  const std::int64_t chunk = 16;  // stations per work item: load balance and progress
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t first = 0; first < n; first += chunk) {
    const std::int64_t last = std::min(n, first + chunk);
    for (std::int64_t s = first; s < last; ++s) {
      double acc[Kernel::outputs] = {};
      for (std::int64_t p = 0; p < count; ++p) kernel.add(view.item(p), stations[s], acc);
      for (int f = 0; f < Kernel::outputs; ++f) sums[f * stations.size() + s] = acc[f];
    }
    progress.advance(static_cast<std::uint64_t>(last - first) * static_cast<std::uint64_t>(count));
  }
  return sums;
}

}  // namespace geobem::gravity
