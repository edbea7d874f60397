#pragma once
// What the source × station launcher (station_sums_cpu.hpp,
// station_sums_cuda.cuh) sums, for every potential-field method: a source
// view and a kernel, both small copyable structs that run on the host and the
// device (AMReX's ParallelFor and MFEM's forall take their bodies the same way).
//
// SourceView: `using Item = ...;` and
//   GEOBEM_HD Item item(std::int64_t index) const
// forms source `index` of a chunk (a prism from a layer cell's height, a
// tesseroid, a weighted grid node); the CUDA threads of a block each form one
// item of a tile into shared memory.
// Kernel: `static constexpr int outputs` (rows of the sums), and
//   GEOBEM_HD bool wanted(int row) const   (rows that are computed at all)
//   GEOBEM_HD void add(const Item&, const Station&, double acc[outputs]) const
// adds one source's contribution at one station to the station's
// accumulators (double, whatever the kernel's arithmetic). Station is any
// copyable struct the kernel reads.
//
// Optional, a tile bound: a kernel (a rounding estimate) may add all its rows
// for a tile of bound_tile_sources consecutive sources at once where a
// station is far enough from the whole tile, tile k being sources [32k,
// 32k + 32) of the list the launcher sums (both sides form the same tiles:
// every chunk, launch and split starts on a tile). It declares
//   using TileSummary = ...;   (copyable; a value-initialized one is empty;
//                               void: no tile bound)
//   GEOBEM_HD void summarize(const Item&, TileSummary&) const
//       (adds a source to its tile's summary: tile_summaries on the host,
//       summarize_tiles of station_sums_cuda.cuh on the device)
//   GEOBEM_HD bool add_tile(const TileSummary&, const Station&, double acc[outputs]) const
//       (where the bound holds at the station, adds the tile's rows and
//       returns true: the launcher then skips the tile's sources at that
//       station; else adds nothing and returns false).
// The CUDA launcher summarizes each chunk's tiles on the device beside it
// (1/32 of a summary's bytes per source). A kernel pair (kernel_pair.hpp)
// has no tile bound: a tile-bounded kernel runs in a pass of its own.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "gpu/core/host_device.hpp"

namespace geobem::potential {

/// A view of sources stored as a list: item i is items[i].
template <typename T>
struct ListView {
  using Item = T;
  const T* items;
  GEOBEM_HD T item(std::int64_t index) const { return items[index]; }
};

/// Sources per tile of a kernel's tile bound (file comment).
inline constexpr int bound_tile_sources = 32;

/// Whether Kernel has a tile bound (file comment).
template <typename Kernel, typename = void>
struct has_tile_bound : std::false_type {};
template <typename Kernel>
struct has_tile_bound<Kernel, std::void_t<typename Kernel::TileSummary>>
    : std::bool_constant<!std::is_void<typename Kernel::TileSummary>::value> {};

/// Kernel's TileSummary; char for a kernel without a tile bound (never read).
template <typename Kernel, bool = has_tile_bound<Kernel>::value>
struct tile_summary_of {
  using type = char;
};
template <typename Kernel>
struct tile_summary_of<Kernel, true> {
  using type = typename Kernel::TileSummary;
};
template <typename Kernel>
using tile_summary_t = typename tile_summary_of<Kernel>::type;

/// The summaries of the tiles of view.item(0 … count − 1) for a kernel with
/// a tile bound: ⌈count / bound_tile_sources⌉ of them, on the host.
template <typename SourceView, typename Kernel>
std::vector<tile_summary_t<Kernel>> tile_summaries(const SourceView& view, std::int64_t count, const Kernel& kernel) {
  std::vector<tile_summary_t<Kernel>> tiles((count + bound_tile_sources - 1) / bound_tile_sources);
  for (std::int64_t p = 0; p < count; ++p) kernel.summarize(view.item(p), tiles[p / bound_tile_sources]);
  return tiles;
}

/// The make_view of station_sums_cuda for a list: the chunk itself.
struct ListChunks {
  template <typename T>
  ListView<T> operator()(const T* chunk, std::int64_t) const {
    return ListView<T>{chunk};
  }
};

}  // namespace geobem::potential
