#pragma once
// How much the rounding estimate's tile bound (rounding_estimate.hpp,
// tile_rounding_bounds) gives away against bounding every source on its own:
// the same rounding kernel summed on the CPU with and without its tile bound,
// per station the ratio of the absolute bounds of a group, and the share of
// (station, tile) pairs the tile bound takes.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "gpu/core/host_device.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/potential/station_sums_cpu.hpp"

namespace geobem::bench {

/// A rounding kernel with its tile bound left out: every source on its own.
template <typename Kernel>
struct PerSourceRounding {
  static constexpr int outputs = Kernel::outputs;
  Kernel kernel;
  GEOBEM_HD bool wanted(int row) const { return kernel.wanted(row); }
  template <typename Item, typename Station>
  GEOBEM_HD void add(const Item& item, const Station& station, double acc[outputs]) const {
    kernel.add(item, station, acc);
  }
};

/// Prints, for the rows {2g, 2g + 1} of each group g in `groups` (row pairs
/// of `kernel`), the median and the largest over the stations of the tile
/// bound's absolute bound over the per-source one, on all CPU threads.
template <typename SourceView, typename Kernel>
void print_tile_looseness(const char* what, const SourceView& view, std::int64_t count,
                          const std::vector<gravity::Station>& stations, const Kernel& kernel,
                          const std::vector<int>& groups, gravity::Precision precision) {
  ProgressReporter quiet("", 1, "", true);
  const auto tiled = potential::station_sums_cpu(view, count, stations, kernel, quiet);
  const auto per_source = potential::station_sums_cpu(view, count, stations, PerSourceRounding<Kernel>{kernel}, quiet);
  const std::size_t n = stations.size();
  // The (station, tile) pairs the tile bound takes: the rest run source by source.
  const auto tiles = potential::tile_summaries(view, count, kernel);
  std::size_t far = 0;
#pragma omp parallel for reduction(+ : far) schedule(dynamic, 16)
  for (std::size_t s = 0; s < n; ++s)
    for (const auto& tile : tiles) {
      double scratch[Kernel::outputs] = {};
      far += kernel.add_tile(tile, stations[s], scratch) ? 1 : 0;
    }
  std::printf("%s: the tile bound takes %zu of %zu (station, tile) pairs (%.2f %%)\n", what, far, n * tiles.size(),
              100.0 * static_cast<double>(far) / static_cast<double>(n * tiles.size()));
  for (const int g : groups) {
    std::vector<double> ratio;
    for (std::size_t s = 0; s < n; ++s) {
      const double per = gravity::rounding_bound(per_source[2 * g * n + s], per_source[(2 * g + 1) * n + s], precision);
      if (per > 0)
        ratio.push_back(gravity::rounding_bound(tiled[2 * g * n + s], tiled[(2 * g + 1) * n + s], precision) / per);
    }
    if (ratio.empty()) continue;
    std::sort(ratio.begin(), ratio.end());
    std::printf("%s, group %d (%s): tile bound / per-source bound over %zu stations: median %.3f, largest %.3f\n",
                what, g, precision == gravity::Precision::Single ? "single" : "double", ratio.size(),
                ratio[ratio.size() / 2], ratio.back());
  }
}

}  // namespace geobem::bench
