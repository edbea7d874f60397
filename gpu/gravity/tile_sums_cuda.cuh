#pragma once
// A CUDA driver over any kind of source that a thread can form from an index:
// each thread owns one station; each thread of a block forms one source of the
// current tile (SourceView::item) into shared memory, then every thread adds
// the kernel values of the whole tile to its station's sums in double. Blocks
// are also split over ranges of sources (grid y) so that few stations still
// fill the GPU; partial sums meet with double atomicAdd. The stored source
// data (prism-layer surface heights, magnetized prisms) and the stations
// stream to the device in chunks within the device memory budget
// (device_memory_budget.hpp, chunk_plan.hpp):
// device memory O(sources + stations), never a prism list of a layer.
//
// SourceView: a copyable struct with `using Item = ...;` and
//   __device__ Item item(std::int64_t index) const  (index within the chunk).
// Kernel: a copyable struct with `static constexpr int outputs` (≤ 10),
//   __device__ bool wanted(int output) const  (outputs computed at all) and
//   __device__ void add(const Item&, const Station&, double acc[outputs]) const.
// tile_sums_cpu.hpp runs the same views and kernels on the host.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/gravity/chunk_plan.hpp"
#include "gpu/gravity/prism.hpp"

namespace geobem::gravity {

/// Threads per block, also the sources per shared-memory tile.
inline constexpr int tile_block = 128;

template <typename SourceView, typename Kernel>
__device__ __forceinline__ void tile_sums(const SourceView& view, const Kernel& kernel, std::int64_t count,
                                          std::int64_t span, const Station* __restrict__ stations, int n_stations,
                                          double* __restrict__ sums) {
  using Item = typename SourceView::Item;
  __shared__ Item tile[tile_block];
  const int s = blockIdx.x * tile_block + threadIdx.x;
  const bool active = s < n_stations;
  const Station station = active ? stations[s] : Station{0.0, 0.0, 0.0};
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.y) * span;
  const std::int64_t end = std::min(count, begin + span);
  double acc[Kernel::outputs] = {};
  for (std::int64_t base = begin; base < end; base += tile_block) {
    const std::int64_t p = base + threadIdx.x;
    if (p < end) tile[threadIdx.x] = view.item(p);
    __syncthreads();
    const int n = static_cast<int>(std::min<std::int64_t>(tile_block, end - base));
    if (active)
      for (int t = 0; t < n; ++t) kernel.add(tile[t], station, acc);
    __syncthreads();
  }
  if (active && begin < end) {
#pragma unroll
    for (int f = 0; f < Kernel::outputs; ++f)
      if (kernel.wanted(f)) atomicAdd(&sums[static_cast<std::int64_t>(f) * n_stations + s], acc[f]);
  }
}

template <typename SourceView, typename Kernel>
__global__ void __launch_bounds__(tile_block)
    tile_sums_kernel(SourceView view, Kernel kernel, std::int64_t count, std::int64_t span,
                     const Station* __restrict__ stations, int n_stations, double* __restrict__ sums) {
  tile_sums(view, kernel, count, span, stations, n_stations, sums);
}

/// tile_sums with at most MaxRegisters registers per thread: more resident
/// warps for short kernels (g_z alone), at the cost of spills.
template <int MaxRegisters, typename SourceView, typename Kernel>
__global__ void __maxnreg__(MaxRegisters)
    capped_tile_sums_kernel(SourceView view, Kernel kernel, std::int64_t count, std::int64_t span,
                            const Station* __restrict__ stations, int n_stations, double* __restrict__ sums) {
  tile_sums(view, kernel, count, span, stations, n_stations, sums);
}

/// Sums[f · stations + s] of Kernel::outputs rows over all sources, streamed:
/// `stored` goes to the device in chunks; make_view(device pointer of the
/// chunk, index of its first element) gives the chunk's SourceView. The
/// kernel runs capped at MaxRegisters registers per thread (0: no cap).
/// Throws geobem::DeviceError on a failing CUDA call.
template <int MaxRegisters, typename Stored, typename MakeView, typename Kernel>
std::vector<double> stream_tile_sums(const std::vector<Stored>& stored, const std::vector<Station>& stations,
                                     const MakeView& make_view, const Kernel& kernel, std::size_t memory_limit_bytes,
                                     ProgressReporter& progress) {
  const std::size_t n_stations = stations.size(), n_sources = stored.size();
  std::vector<double> sums(static_cast<std::size_t>(Kernel::outputs) * n_stations, 0.0);
  if (n_sources == 0 || n_stations == 0) return sums;
  const ChunkPlan plan =
      plan_chunks(n_sources, sizeof(Stored), n_stations, device_memory_budget(memory_limit_bytes));
  DeviceBuffer<Stored> d_sources(plan.sources_per_chunk);
  DeviceBuffer<Station> d_stations(plan.stations_per_chunk);
  DeviceBuffer<double> d_sums(static_cast<std::size_t>(Kernel::outputs) * plan.stations_per_chunk);
  const bool sources_once = plan.sources_per_chunk == n_sources;
  if (sources_once) d_sources.upload(stored.data(), n_sources);
  int device = 0, sm_count = 0;
  GEOBEM_CUDA_CHECK(cudaGetDevice(&device));
  GEOBEM_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));

  for (std::size_t s0 = 0; s0 < n_stations; s0 += plan.stations_per_chunk) {
    const std::size_t ns = std::min(plan.stations_per_chunk, n_stations - s0);
    d_stations.upload(stations.data() + s0, ns);
    GEOBEM_CUDA_CHECK(cudaMemset(d_sums.data(), 0, Kernel::outputs * ns * sizeof(double)));
    const unsigned station_blocks = static_cast<unsigned>((ns + tile_block - 1) / tile_block);
    // Launches of about 2^31 pairs: progress lines without launch overhead.
    const std::int64_t launch_sources =
        std::max<std::int64_t>(tile_block, (std::int64_t(1) << 31) / static_cast<std::int64_t>(ns));
    for (std::size_t p0 = 0; p0 < n_sources; p0 += plan.sources_per_chunk) {
      const std::size_t chunk = std::min(plan.sources_per_chunk, n_sources - p0);
      if (!sources_once) d_sources.upload(stored.data() + p0, chunk);
      const Stored* chunk_data = sources_once ? d_sources.data() + p0 : d_sources.data();
      for (std::int64_t first = 0; first < static_cast<std::int64_t>(chunk); first += launch_sources) {
        const std::int64_t count = std::min<std::int64_t>(launch_sources, static_cast<std::int64_t>(chunk) - first);
        // About 64 blocks per SM in all (the prism-list driver's measured
        // choice), each split at least one tile long.
        const std::int64_t tiles = (count + tile_block - 1) / tile_block;
        const std::int64_t wanted = (64 * static_cast<std::int64_t>(sm_count) + station_blocks - 1) / station_blocks;
        const std::int64_t splits = std::max<std::int64_t>(1, std::min<std::int64_t>({wanted, tiles, 65535}));
        const std::int64_t span = ((tiles + splits - 1) / splits) * tile_block;
        const dim3 grid(station_blocks, static_cast<unsigned>((count + span - 1) / span));
        const auto view = make_view(chunk_data + first, static_cast<std::int64_t>(p0) + first);
        if constexpr (MaxRegisters == 0)
          tile_sums_kernel<<<grid, tile_block>>>(view, kernel, count, span, d_stations.data(), static_cast<int>(ns),
                                                 d_sums.data());
        else
          capped_tile_sums_kernel<MaxRegisters><<<grid, tile_block>>>(view, kernel, count, span, d_stations.data(),
                                                                     static_cast<int>(ns), d_sums.data());
        GEOBEM_CUDA_CHECK_LAUNCH();
        GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
        progress.advance(static_cast<std::uint64_t>(count) * ns);
      }
    }
    GEOBEM_CUDA_CHECK(cudaMemcpy2D(sums.data() + s0, n_stations * sizeof(double), d_sums.data(), ns * sizeof(double),
                                   ns * sizeof(double), Kernel::outputs, cudaMemcpyDeviceToHost));
  }
  return sums;
}

}  // namespace geobem::gravity
