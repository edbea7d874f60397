#pragma once
// Two kernels of the source × station launcher (source_view.hpp) summed in
// one pass: each tile of sources is read once and every source meets each
// station once for both, so a method's second set of sums (the rounding
// estimate beside the fields) costs its own arithmetic and nothing else.
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu/core/host_device.hpp"
#include "gpu/potential/source_view.hpp"

namespace geobem::potential {

/// The launcher's kernel of First's rows followed by Second's: rows
/// [0, First::outputs) are First's, the rest Second's. Second's tile bound,
/// where it has one (source_view.hpp), is the pair's: a bounded tile's pairs
/// run First alone.
template <typename First, typename Second>
struct KernelPair {
  static constexpr int outputs = First::outputs + Second::outputs;
  using TileSummary = std::conditional_t<has_tile_bound<Second>::value, tile_summary_t<Second>, void>;
  First first;
  Second second;
  GEOBEM_HD bool wanted(int row) const {
    return row < First::outputs ? first.wanted(row) : second.wanted(row - First::outputs);
  }
  template <typename Item, typename Station>
  GEOBEM_HD void add(const Item& item, const Station& station, double acc[outputs]) const {
    first.add(item, station, acc);
    second.add(item, station, acc + First::outputs);
  }
  template <typename Item, typename Station>
  GEOBEM_HD void add(const Item& item, const Station& station, double acc[outputs], bool tile_added) const {
    first.add(item, station, acc);
    if (!tile_added) second.add(item, station, acc + First::outputs);
  }
  template <typename Summary, typename Station>
  GEOBEM_HD bool add_tile(const Summary& tile, const Station& station, double acc[outputs]) const {
    return second.add_tile(tile, station, acc + First::outputs);
  }
  template <typename Item, typename Summary>
  GEOBEM_HD void summarize(const Item& item, Summary& tile) const {
    second.summarize(item, tile);
  }
};

/// The sums of a KernelPair (rows of `stations` values each) split into
/// First's rows (returned) and Second's (moved into `second_rows`).
inline std::vector<double> split_rows(std::vector<double> sums, int first_outputs, std::size_t stations,
                                      std::vector<double>& second_rows) {
  const std::size_t cut = static_cast<std::size_t>(first_outputs) * stations;
  second_rows.assign(sums.begin() + static_cast<std::ptrdiff_t>(cut), sums.end());
  sums.resize(cut);
  return sums;
}

}  // namespace geobem::potential
