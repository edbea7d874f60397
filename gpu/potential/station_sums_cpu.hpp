#pragma once
// The OpenMP side of the source × station launcher: each thread takes whole
// stations and loops over every source in order, forming it from its index
// as the CUDA threads do (station_sums_cuda.cuh runs the same views and
// kernels, source_view.hpp). The sums of a station are in source order, so
// they do not depend on the thread count. A kernel's tile bound runs over the
// same tiles as on the GPU.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu/core/progress.hpp"
#include "gpu/potential/kernel_pair.hpp"
#include "gpu/potential/source_view.hpp"

namespace geobem::potential {

/// Records the OpenMP threads of a station_sums_cpu call (last_cpu_thread_count).
void note_cpu_threads(int threads);

/// Number of OpenMP threads that took part in the last station_sums_cpu call
/// of this process (lets tests check that the CPU path really runs in parallel).
int last_cpu_thread_count();

/// Adds Σ kernel.add over view.item(0 … count − 1) at `station` to acc,
/// tile by tile with the kernel's tile bound (`tiles`: tile_summaries) where
/// it has one.
template <typename SourceView, typename Kernel, typename Station>
void station_sum_cpu(const SourceView& view, std::int64_t count, const std::vector<tile_summary_t<Kernel>>& tiles,
                     const Station& station, const Kernel& kernel, double acc[Kernel::outputs]) {
  if constexpr (has_tile_bound<Kernel>::value) {
    for (std::int64_t first = 0; first < count; first += bound_tile_sources) {
      if (kernel.add_tile(tiles[first / bound_tile_sources], station, acc)) continue;
      const std::int64_t last = std::min<std::int64_t>(count, first + bound_tile_sources);
      for (std::int64_t p = first; p < last; ++p) kernel.add(view.item(p), station, acc);
    }
  } else {
    for (std::int64_t p = 0; p < count; ++p) kernel.add(view.item(p), station, acc);
  }
}

/// Sums[r · stations.size() + s] of Kernel::outputs rows: Σ over
/// view.item(0 … count − 1) of kernel.add at station s, on all OpenMP
/// threads (with the kernel's tile bound where it has one, source_view.hpp).
/// `progress` advances in source–station pairs.
template <typename SourceView, typename Kernel, typename Station>
std::vector<double> station_sums_cpu(const SourceView& view, std::int64_t count, const std::vector<Station>& stations,
                                     const Kernel& kernel, ProgressReporter& progress) {
  const std::int64_t n = static_cast<std::int64_t>(stations.size());
  std::vector<double> sums(static_cast<std::size_t>(Kernel::outputs) * stations.size(), 0.0);
  std::vector<tile_summary_t<Kernel>> tiles;
  if constexpr (has_tile_bound<Kernel>::value) tiles = tile_summaries(view, count, kernel);
  const std::int64_t chunk = 16;  // stations per work item: load balance and progress
  int threads = 0;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t first = 0; first < n; first += chunk) {
      const std::int64_t last = std::min(n, first + chunk);
      for (std::int64_t s = first; s < last; ++s) {
        double acc[Kernel::outputs] = {};
        station_sum_cpu(view, count, tiles, stations[s], kernel, acc);
        for (int r = 0; r < Kernel::outputs; ++r) sums[r * stations.size() + s] = acc[r];
      }
      progress.advance(static_cast<std::uint64_t>(last - first) * static_cast<std::uint64_t>(count));
    }
  }
  note_cpu_threads(threads);
  return sums;
}

/// First's sums (station_sums_cpu; returned) over view.item(0 … count − 1),
/// and where `second_rows` is given Second's into it: when Apart in a pass
/// of its own (where Second's tile bound pays), else in First's pass
/// (KernelPair). `progress` counts First's pairs.
template <bool Apart, typename SourceView, typename First, typename Second, typename Station>
std::vector<double> two_kernel_sums_cpu(const SourceView& view, std::int64_t count,
                                        const std::vector<Station>& stations, const First& first,
                                        const Second& second, std::vector<double>* second_rows,
                                        ProgressReporter& progress) {
  if (!second_rows) return station_sums_cpu(view, count, stations, first, progress);
  if constexpr (Apart) {
    ProgressReporter silent("", 1, "", true);
    *second_rows = station_sums_cpu(view, count, stations, second, silent);
    return station_sums_cpu(view, count, stations, first, progress);
  } else {
    return split_rows(station_sums_cpu(view, count, stations, KernelPair<First, Second>{first, second}, progress),
                      First::outputs, stations.size(), *second_rows);
  }
}

}  // namespace geobem::potential
