#pragma once
// A source view and kernel whose sums are known exactly: they count what
// the launcher visits. Source i of a run carries a stored value v_i (an
// integer) and its index among all sources; station s carries the integer
// s + 1. Rows: 0 Σ 1, 1 Σ v_i, 2 Σ index, 3 Σ (s + 1), 4 never added (not
// wanted). Every sum is an integer below 2^53, so exact in double whatever
// the order of the additions.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu/core/host_device.hpp"

namespace geobem::test {

struct CountedSource {
  double value, index;
};

struct CountingStation {
  double id;
};

/// Sources `first …`, their stored values at `values`.
struct CountingView {
  using Item = CountedSource;
  const double* values;
  std::int64_t first;
  GEOBEM_HD CountedSource item(std::int64_t i) const { return {values[i], static_cast<double>(first + i)}; }
};

struct CountingKernel {
  static constexpr int outputs = 5;
  GEOBEM_HD bool wanted(int row) const { return row < 4; }
  GEOBEM_HD void add(const CountedSource& source, const CountingStation& station, double acc[5]) const {
    acc[0] += 1.0;
    acc[1] += source.value;
    acc[2] += source.index;
    acc[3] += station.id;
  }
};

/// Stored values v_i = (7·i) mod 1000 of n sources.
inline std::vector<double> counted_values(std::int64_t n) {
  std::vector<double> values;
  for (std::int64_t i = 0; i < n; ++i) values.push_back(static_cast<double>((7 * i) % 1000));
  return values;
}

inline std::vector<CountingStation> counting_stations(int n) {
  std::vector<CountingStation> stations;
  for (int s = 0; s < n; ++s) stations.push_back({static_cast<double>(s + 1)});
  return stations;
}

/// The exact rows of CountingKernel over `values` at n_stations stations.
inline std::vector<double> counted_sums(const std::vector<double>& values, int n_stations) {
  const double n = static_cast<double>(values.size());
  double value_sum = 0;
  for (const double v : values) value_sum += v;
  std::vector<double> rows(5 * static_cast<std::size_t>(n_stations), 0.0);
  for (int s = 0; s < n_stations; ++s) {
    rows[s] = n;
    rows[n_stations + s] = value_sum;
    rows[2 * n_stations + s] = n * (n - 1) / 2;
    rows[3 * n_stations + s] = n * (s + 1);
  }
  return rows;
}

/// What a tile of counted sources sums to (CountingTileKernel).
struct CountedTile {
  double count, value_sum, index_sum, first;
};

/// CountingKernel with a tile bound (gpu/potential/source_view.hpp): rows
/// 0–3 of a tile come from its summary where the station's id is odd or the
/// tile's number (first index / 32) is a multiple of 3, else source by
/// source; row 4 counts the sources the tile bound covered. The rows 0–3 are
/// CountingKernel's exactly only if the launcher's tiles are the summarized
/// ones (every chunk, launch and split on a tile) and it skips the sources of
/// a bounded tile.
struct CountingTileKernel {
  static constexpr int outputs = 5;
  using TileSummary = CountedTile;
  GEOBEM_HD bool wanted(int) const { return true; }
  GEOBEM_HD static bool bounded(const CountedTile& tile, const CountingStation& station) {
    return static_cast<long long>(station.id) % 2 == 1 || static_cast<long long>(tile.first / 32) % 3 == 0;
  }
  GEOBEM_HD bool add_tile(const CountedTile& tile, const CountingStation& station, double acc[5]) const {
    if (!bounded(tile, station)) return false;
    acc[0] += tile.count;
    acc[1] += tile.value_sum;
    acc[2] += tile.index_sum;
    acc[3] += tile.count * station.id;
    acc[4] += tile.count;
    return true;
  }
  GEOBEM_HD void add(const CountedSource& source, const CountingStation& station, double acc[5]) const {
    acc[0] += 1.0;
    acc[1] += source.value;
    acc[2] += source.index;
    acc[3] += station.id;
  }
  GEOBEM_HD void summarize(const CountedSource& source, CountedTile& tile) const {
    tile.first = tile.count == 0 ? source.index : (source.index < tile.first ? source.index : tile.first);
    tile.count += 1;
    tile.value_sum += source.value;
    tile.index_sum += source.index;
  }
};

/// CountingKernel's rows over `values` at n_stations stations with row 4
/// of CountingTileKernel (the sources its tile bound covers).
inline std::vector<double> counted_tile_sums(const std::vector<double>& values, int n_stations) {
  std::vector<double> rows = counted_sums(values, n_stations);
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  for (int s = 0; s < n_stations; ++s) {
    double covered = 0;
    for (std::int64_t first = 0; first < n; first += 32)
      if ((s + 1) % 2 == 1 || (first / 32) % 3 == 0)
        covered += static_cast<double>(std::min<std::int64_t>(32, n - first));
    rows[4 * static_cast<std::size_t>(n_stations) + s] = covered;
  }
  return rows;
}

}  // namespace geobem::test
