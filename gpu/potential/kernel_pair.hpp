#pragma once
// Two kernels of the source × station launcher (source_view.hpp) summed in
// one pass: each tile of sources is read once and every source meets each
// station once for both, so a method's second set of sums (the rounding
// estimate beside the fields) costs its own arithmetic and nothing else.
#include <cstddef>
#include <vector>

#include "gpu/core/host_device.hpp"

namespace geobem::potential {

/// The launcher's kernel of First's rows followed by Second's: rows
/// [0, First::outputs) are First's, the rest Second's. A pair has no tile
/// bound (source_view.hpp): every source meets every station for First, so a
/// kernel whose tile bound pays runs in a pass of its own instead; paired,
/// it adds source by source.
template <typename First, typename Second>
struct KernelPair {
  static constexpr int outputs = First::outputs + Second::outputs;
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
