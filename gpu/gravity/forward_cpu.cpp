// OpenMP driver: each thread takes whole stations and loops over all sources
// (prisms or grid nodes), accumulating the kernel values in double (one
// source with the CUDA path: source_fields() of source_fields.hpp).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/source_fields.hpp"

namespace geobem::gravity {
namespace {

std::atomic<int> last_threads{0};

template <typename Real, typename Source>
void station_sums(const std::vector<Source>& sources, const Station& station, unsigned mask, double acc[10]) {
  for (int f = 0; f < 10; ++f) acc[f] = 0.0;
  Real values[10] = {};
  for (const Source& source : sources) {
    const double weight = source_fields<Real>(source, station, mask, values);
    for (int f = 0; f < 10; ++f)
      if (mask & (1u << f)) acc[f] += weight * static_cast<double>(values[f]);
  }
}

template <typename Real, typename Source>
std::vector<double> run(const std::vector<Source>& sources, const std::vector<Station>& stations, unsigned mask,
                        ProgressReporter& progress) {
  const std::int64_t n = static_cast<std::int64_t>(stations.size());
  std::vector<double> sums(10 * stations.size(), 0.0);
  // Chunks of stations small enough for the progress line and load balance.
  const std::int64_t chunk = 16;
  int threads_seen = 0;
#pragma omp parallel
  {
#pragma omp single
    threads_seen = omp_get_num_threads();
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t first = 0; first < n; first += chunk) {
      const std::int64_t last = std::min(n, first + chunk);
      for (std::int64_t s = first; s < last; ++s) {
        double acc[10];
        station_sums<Real>(sources, stations[s], mask, acc);
        for (int f = 0; f < 10; ++f) sums[f * stations.size() + s] = acc[f];
      }
      progress.advance(static_cast<std::uint64_t>(last - first) * sources.size());
    }
  }
  last_threads = threads_seen;
  return sums;
}

}  // namespace

std::vector<double> forward_cpu(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                                unsigned mask, Precision precision, ProgressReporter& progress) {
  return precision == Precision::Single ? run<float>(prisms, stations, mask, progress)
                                        : run<double>(prisms, stations, mask, progress);
}

std::vector<double> forward_cpu(const std::vector<GridNode>& nodes, const std::vector<Station>& stations,
                                unsigned mask, Precision precision, ProgressReporter& progress) {
  return precision == Precision::Single ? run<float>(nodes, stations, mask, progress)
                                        : run<double>(nodes, stations, mask, progress);
}

int last_cpu_thread_count() { return last_threads; }

}  // namespace geobem::gravity
