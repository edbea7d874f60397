#pragma once
// The CUDA side of the source × station launcher, for every potential-field
// method (source_view.hpp says what a source view and a kernel are): each
// thread owns one station; the threads of a block each form one source of
// the current tile (SourceView::item) into shared memory, then every thread
// adds the whole tile to its station's accumulators in double (Kernel::add).
// A kernel with a tile bound runs warp by warp instead (add_bounded_tiles):
// a warp forms a tile's sources only where one of its stations cannot bound
// the tile as a whole.
// Blocks are also split over ranges of sources (grid y) so that a station set
// smaller than the GPU still fills it; the partial sums meet with double
// atomicAdd, so the order of the sources' sums varies from run to run. The
// stored source data and the stations stream to the device in chunks within
// the device memory budget (device_memory_budget.hpp, chunk_plan.hpp): device
// memory O(sources + stations). The launch shape (threads per block, register
// cap) is a pair of template parameters (kernel_shape.hpp); methods compile
// the shapes their benchmarks time. station_sums_cpu.hpp is the OpenMP side.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/potential/chunk_plan.hpp"
#include "gpu/potential/kernel_shape.hpp"

namespace geobem::potential {

/// Tiles whose bounds a station takes at once in add_bounded_tiles before any
/// of them is formed source by source (independent bounds, one vote of the
/// warp each); 1, 2 and 8 timed the same on the layer (bench/RESULTS.md,
/// "The estimate's pass warp by warp").
inline constexpr int bounded_tiles_per_group = 4;

/// Launch choices of station_sums_cuda that are not compile-time.
struct LaunchOptions {
  /// Blocks of 128 threads launched per SM per launch (sources split over
  /// grid y to get there; a shape with smaller blocks launches
  /// proportionally more): many short waves, so the last, partial one costs
  /// little (bench/RESULTS.md, "Gravity at scale").
  int blocks_per_sm = 64;
  /// Device memory the launcher may use, bytes; 0: the budget every method
  /// gets (device_memory_budget.hpp: 80% of the free memory).
  std::size_t memory_limit_bytes = 0;
};

/// Adds Σ kernel.add over sources [begin, end) of the view to a station's
/// accumulators acc (where `active`: the threads past the last station
/// still take part in the block's barriers), a Block-thread block forming
/// each tile of Block sources into shared memory (`tile`) once for all its
/// stations.
template <int Block, typename SourceView, typename Kernel, typename Station>
__device__ __forceinline__ void add_shared_tiles(const SourceView& view, const Kernel& kernel, std::int64_t begin,
                                                 std::int64_t end, const Station& station, bool active, double* acc,
                                                 typename SourceView::Item* tile) {
  for (std::int64_t base = begin; base < end; base += Block) {
    const std::int64_t p = base + threadIdx.x;
    if (p < end) tile[threadIdx.x] = view.item(p);
    __syncthreads();
    const int n = static_cast<int>(std::min<std::int64_t>(Block, end - base));
    if (active)
      for (int t = 0; t < n; ++t) kernel.add(tile[t], station, acc);
    __syncthreads();
  }
}

/// add_shared_tiles for a kernel with a tile bound (source_view.hpp; tiles[k]
/// summarizes sources [32k, 32k + 32) of the view, `begin` is a multiple of
/// 32), warp by warp: each station first takes the bounds of a group of
/// tiles; only a tile that some station of the warp could not bound is then
/// formed, by that warp alone (its 32 items of `tile`), and summed source by
/// source at those stations. A far tile costs one bound per station, and no
/// warp waits for another's sources.
template <typename SourceView, typename Kernel, typename Station>
__device__ __forceinline__ void add_bounded_tiles(const SourceView& view, const Kernel& kernel, std::int64_t begin,
                                                  std::int64_t end, const tile_summary_t<Kernel>* __restrict__ tiles,
                                                  const Station& station, bool active, double* acc,
                                                  typename SourceView::Item* tile) {
  constexpr int width = bound_tile_sources, group = bounded_tiles_per_group;
  static_assert(width == 32, "a tile per warp");
  const int lane = threadIdx.x % width, warp_first = threadIdx.x - lane;
  for (std::int64_t base = begin; base < end; base += group * width) {
    // Bit g: tile g of the group is left to its sources at this station
    // (mine) or at some station of the warp (warp).
    unsigned mine = 0, warp = 0;
#pragma unroll
    for (int g = 0; g < group; ++g) {
      const std::int64_t first = base + g * width;
      const bool left = active && first < end && !kernel.add_tile(tiles[first / width], station, acc);
      mine |= unsigned(left) << g;
      warp |= unsigned(__any_sync(0xffffffffu, left)) << g;
    }
    while (warp != 0) {
      const int g = __ffs(warp) - 1;
      warp &= warp - 1;
      const std::int64_t first = base + g * width, p = first + lane;
      if (p < end) tile[threadIdx.x] = view.item(p);
      __syncwarp();
      if ((mine >> g) & 1u) {
        const int n = static_cast<int>(std::min<std::int64_t>(width, end - first));
        for (int t = 0; t < n; ++t) kernel.add(tile[warp_first + t], station, acc);
      }
      __syncwarp();
    }
  }
}

/// Adds Σ kernel.add over sources [y·span, (y+1)·span) ∩ [0, count) of the
/// view to sums[r·n_stations + s] (atomically: the splits over grid y meet
/// there), one station per thread of a Block-thread block (span and Block
/// are multiples of 32): add_bounded_tiles for a kernel with a tile bound,
/// `tiles` its summaries, else add_shared_tiles.
template <int Block, typename SourceView, typename Kernel, typename Station>
__device__ __forceinline__ void tile_loop(const SourceView& view, const Kernel& kernel, std::int64_t count,
                                          std::int64_t span, const tile_summary_t<Kernel>* __restrict__ tiles,
                                          const Station* __restrict__ stations, int n_stations,
                                          double* __restrict__ sums) {
  static_assert(Block % bound_tile_sources == 0, "blocks of whole warps and tiles");
  __shared__ typename SourceView::Item tile[Block];
  const int s = blockIdx.x * Block + threadIdx.x;
  const bool active = s < n_stations;
  const Station station = active ? stations[s] : Station{};
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.y) * span;
  const std::int64_t end = std::min(count, begin + span);
  double acc[Kernel::outputs] = {};
  if constexpr (has_tile_bound<Kernel>::value)
    add_bounded_tiles(view, kernel, begin, end, tiles, station, active, acc, tile);
  else
    add_shared_tiles<Block>(view, kernel, begin, end, station, active, acc, tile);
  if (active && begin < end) {
#pragma unroll
    for (int r = 0; r < Kernel::outputs; ++r)
      if (kernel.wanted(r)) atomicAdd(&sums[static_cast<std::int64_t>(r) * n_stations + s], acc[r]);
  }
}

/// tile_loop with the compiler's register choice for Block threads.
template <int Block, typename SourceView, typename Kernel, typename Station>
__global__ void __launch_bounds__(Block)
    station_sums_kernel(SourceView view, Kernel kernel, std::int64_t count, std::int64_t span,
                        const tile_summary_t<Kernel>* __restrict__ tiles, const Station* __restrict__ stations,
                        int n_stations, double* __restrict__ sums) {
  tile_loop<Block>(view, kernel, count, span, tiles, stations, n_stations, sums);
}

/// tile_loop with at most MaxRegisters registers per thread (__maxnreg__ and
/// __launch_bounds__ exclude each other).
template <int Block, int MaxRegisters, typename SourceView, typename Kernel, typename Station>
__global__ void __maxnreg__(MaxRegisters)
    capped_station_sums_kernel(SourceView view, Kernel kernel, std::int64_t count, std::int64_t span,
                               const tile_summary_t<Kernel>* __restrict__ tiles,
                               const Station* __restrict__ stations, int n_stations, double* __restrict__ sums) {
  tile_loop<Block>(view, kernel, count, span, tiles, stations, n_stations, sums);
}

/// Adds Σ kernel.add over sources [0, count) at device stations[0, ns) to
/// the device sums[r·ns + s] in the launch shape {Block, MaxRegisters} (0: no
/// register cap): view_from(first) is the SourceView of the sources from
/// `first` on; `summaries` the device summaries of their tiles for a kernel
/// with a tile bound (summaries[k]: sources [32k, 32k + 32)), else null. Launches of
/// about 2^31 pairs each, whole blocks of sources, split over grid y
/// into about blocks_per_sm blocks of 128 threads per SM in all (LaunchOptions).
/// `progress` (may be null) advances in source–station pairs. Throws
/// geobem::DeviceError for a failing CUDA call.
template <int Block, int MaxRegisters, typename ViewFrom, typename Kernel, typename Station>
void launch_station_sums(const ViewFrom& view_from, std::int64_t count, const Kernel& kernel,
                         const tile_summary_t<Kernel>* summaries, const Station* stations, std::size_t ns, double* sums,
                         int blocks_per_sm, ProgressReporter* progress) {
  if (count == 0 || ns == 0) return;
  int device = 0, sm_count = 0;
  GEOBEM_CUDA_CHECK(cudaGetDevice(&device));
  GEOBEM_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  const unsigned station_blocks = static_cast<unsigned>((ns + Block - 1) / Block);
  // Launches of about 2^31 pairs each: short enough for progress lines,
  // long enough that launch overhead is negligible; whole blocks, so that
  // every launch starts on a tile.
  const std::int64_t launch_sources =
      std::max<std::int64_t>(1, (std::int64_t(1) << 31) / static_cast<std::int64_t>(ns) / Block) * Block;
  for (std::int64_t first = 0; first < count; first += launch_sources) {
    const std::int64_t n = std::min<std::int64_t>(launch_sources, count - first);
    // Split the sources of this launch over blocks_per_sm blocks of 128
    // threads per SM in all, each split at least one tile long.
    const std::int64_t tiles = (n + Block - 1) / Block;
    const std::int64_t wanted =
        (std::max(1, blocks_per_sm) * static_cast<std::int64_t>(sm_count) * 128 / Block + station_blocks - 1) /
        station_blocks;
    const std::int64_t splits = std::max<std::int64_t>(1, std::min<std::int64_t>({wanted, tiles, 65535}));
    const std::int64_t span = ((tiles + splits - 1) / splits) * Block;
    const dim3 grid(station_blocks, static_cast<unsigned>((n + span - 1) / span));
    const auto view = view_from(first);
    const tile_summary_t<Kernel>* launch_summaries = summaries ? summaries + first / bound_tile_sources : nullptr;
    if constexpr (MaxRegisters == 0)
      station_sums_kernel<Block><<<grid, Block>>>(view, kernel, n, span, launch_summaries, stations,
                                                  static_cast<int>(ns), sums);
    else
      capped_station_sums_kernel<Block, MaxRegisters><<<grid, Block>>>(view, kernel, n, span, launch_summaries,
                                                                        stations, static_cast<int>(ns), sums);
    GEOBEM_CUDA_CHECK_LAUNCH();
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    if (progress) progress->advance(static_cast<std::uint64_t>(n) * ns);
  }
}

/// tiles[k] = the summary (kernel.summarize) of sources [32k, 32k + 32) ∩
/// [0, count) of the view, one thread per tile.
template <typename SourceView, typename Kernel>
__global__ void tile_summaries_kernel(SourceView view, Kernel kernel, std::int64_t count,
                                      tile_summary_t<Kernel>* __restrict__ tiles) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t first = k * bound_tile_sources;
  if (first >= count) return;
  tile_summary_t<Kernel> summary{};
  const std::int64_t last = std::min<std::int64_t>(count, first + bound_tile_sources);
  for (std::int64_t p = first; p < last; ++p) kernel.summarize(view.item(p), summary);
  tiles[k] = summary;
}

/// Fills the device tiles[0, ⌈count / 32⌉) with the summaries of the tiles
/// of the device view's sources [0, count) for a kernel with a tile bound
/// (source_view.hpp). Throws geobem::DeviceError for a failing CUDA call.
template <typename SourceView, typename Kernel>
void summarize_tiles(const SourceView& view, std::int64_t count, const Kernel& kernel,
                     tile_summary_t<Kernel>* tiles) {
  const std::int64_t n = (count + bound_tile_sources - 1) / bound_tile_sources;
  if (n == 0) return;
  constexpr int threads = 128;
  tile_summaries_kernel<<<static_cast<unsigned>((n + threads - 1) / threads), threads>>>(view, kernel, count, tiles);
  GEOBEM_CUDA_CHECK_LAUNCH();
}

/// Sums[r · stations.size() + s] of Kernel::outputs rows: Σ over all sources
/// of kernel.add at station s, on the current CUDA device, in the launch
/// shape {Block, MaxRegisters} (0: no register cap). `stored` goes to the
/// device in chunks; make_view(device pointer into a chunk, index of that
/// element among all of `stored`) gives the SourceView of the sources from
/// there on (ListChunks for a plain list). For a kernel with a tile bound
/// (source_view.hpp) every chunk is whole tiles, summarized on the device
/// beside it. `progress` advances in source–station pairs. Throws
/// ResourceError for a memory limit that cannot hold one source (a tile's
/// sources) and one station, geobem::DeviceError for a failing CUDA call.
template <int Block, int MaxRegisters, typename Stored, typename MakeView, typename Kernel, typename Station>
std::vector<double> station_sums_cuda(const std::vector<Stored>& stored, const std::vector<Station>& stations,
                                      const MakeView& make_view, const Kernel& kernel, const LaunchOptions& options,
                                      ProgressReporter& progress) {
  constexpr int rows = Kernel::outputs, tile = bound_tile_sources;
  constexpr bool bounded = has_tile_bound<Kernel>::value;
  using Tiles = tile_summary_t<Kernel>;
  const std::size_t n_stations = stations.size(), n_sources = stored.size();
  std::vector<double> sums(static_cast<std::size_t>(rows) * n_stations, 0.0);
  if (n_sources == 0 || n_stations == 0) return sums;
  // A source's bytes with its share of a tile's summary; a chunk's partial
  // last tile takes one summary more, kept out of the budget first.
  const std::size_t source_bytes = sizeof(Stored) + (bounded ? (sizeof(Tiles) + tile - 1) / tile : 0);
  const std::size_t budget = device_memory_budget(options.memory_limit_bytes);
  const ChunkPlan plan =
      plan_chunks(n_sources, source_bytes, n_stations, sizeof(Station) + rows * sizeof(double),
                  bounded ? budget - std::min(budget, sizeof(Tiles)) : budget, bounded ? std::size_t(tile) : 1);
  DeviceBuffer<Stored> d_sources(plan.sources_per_chunk);
  DeviceBuffer<Tiles> d_tiles(bounded ? (plan.sources_per_chunk + tile - 1) / tile : 0);
  DeviceBuffer<Station> d_stations(plan.stations_per_chunk);
  DeviceBuffer<double> d_sums(static_cast<std::size_t>(rows) * plan.stations_per_chunk);
  // The chunk [p0, p0 + chunk) of `stored` into the device buffers, its tiles summarized.
  const auto load = [&](std::size_t p0, std::size_t chunk) {
    d_sources.upload(stored.data() + p0, chunk);
    if constexpr (bounded)
      summarize_tiles(make_view(d_sources.data(), static_cast<std::int64_t>(p0)), static_cast<std::int64_t>(chunk),
                      kernel, d_tiles.data());
  };
  const bool sources_once = plan.sources_per_chunk == n_sources;
  if (sources_once) load(0, n_sources);
  for (std::size_t s0 = 0; s0 < n_stations; s0 += plan.stations_per_chunk) {
    const std::size_t ns = std::min(plan.stations_per_chunk, n_stations - s0);
    d_stations.upload(stations.data() + s0, ns);
    GEOBEM_CUDA_CHECK(cudaMemset(d_sums.data(), 0, rows * ns * sizeof(double)));
    for (std::size_t p0 = 0; p0 < n_sources; p0 += plan.sources_per_chunk) {
      const std::size_t chunk = std::min(plan.sources_per_chunk, n_sources - p0);
      if (!sources_once) load(p0, chunk);
      // p0 is whole tiles (plan_chunks' multiple): tile k of the chunk is tile p0/32 + k of all.
      const std::size_t offset = sources_once ? p0 : 0;
      const Stored* chunk_data = d_sources.data() + offset;
      const Tiles* chunk_tiles = bounded ? d_tiles.data() + offset / tile : nullptr;
      const auto view_from = [&](std::int64_t first) {
        return make_view(chunk_data + first, static_cast<std::int64_t>(p0) + first);
      };
      launch_station_sums<Block, MaxRegisters>(view_from, static_cast<std::int64_t>(chunk), kernel, chunk_tiles,
                                               d_stations.data(), ns, d_sums.data(), options.blocks_per_sm,
                                               &progress);
    }
    // Rows of this station chunk into the full rows of the result.
    GEOBEM_CUDA_CHECK(cudaMemcpy2D(sums.data() + s0, n_stations * sizeof(double), d_sums.data(), ns * sizeof(double),
                                   ns * sizeof(double), rows, cudaMemcpyDeviceToHost));
  }
  return sums;
}

/// station_sums_cuda in the launch shape `shape`, one of the tuple of Shape
/// types `shapes` the method compiles (kernel_shape.hpp). Throws InputError
/// naming `what` for a shape that is not among them.
template <typename... Shapes, typename Stored, typename MakeView, typename Kernel, typename Station>
std::vector<double> station_sums_cuda_in(std::tuple<Shapes...> shapes, const KernelShape& shape, const char* what,
                                         const std::vector<Stored>& stored, const std::vector<Station>& stations,
                                         const MakeView& make_view, const Kernel& kernel,
                                         const LaunchOptions& options, ProgressReporter& progress) {
  std::vector<double> sums;
  const bool compiled = in_shape(shapes, shape, [&](auto in) {
    using S = decltype(in);
    sums = station_sums_cuda<S::block, S::max_registers>(stored, stations, make_view, kernel, options, progress);
  });
  if (!compiled)
    throw InputError(std::string(what) + ": no kernel of shape " + std::to_string(shape.block_size) + " threads, " +
                     std::to_string(shape.max_registers) + " registers compiled");
  return sums;
}

}  // namespace geobem::potential
