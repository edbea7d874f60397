// CUDA driver: each thread owns one station; the sources (prisms, or weighted
// grid nodes on the grid path) stream through shared memory in tiles of one
// block's width, and the kernel values are accumulated in double in
// registers. Blocks are also split over ranges of sources (grid y) so that a
// station grid smaller than the GPU still fills it; the partial sums meet
// with double atomicAdd. Device memory: sources + stations + 10 sums per
// station, O(sources + stations); a problem larger than the memory budget
// goes in chunks of sources and stations (chunk_plan.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpu/core/cuda_check.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/chunk_plan.hpp"
#include "gpu/gravity/source_fields.hpp"

namespace geobem::gravity {
namespace {

constexpr int block_size = 128;  // threads per block = sources per shared-memory tile

/// CudaTuning::out_of_line_pairs: one copy of each pair function in the
/// kernel, reached by calls.
struct OutOfLinePairs {
  template <typename Real>
  __device__ __noinline__ static Real log_pair(Real u1, Real u2, Real h, Real r1, Real r2, Real rho2) {
    return pair_log(u1, u2, h, r1, r2, rho2);
  }
  template <typename Real>
  __device__ __noinline__ static Real atan_pair(Real u1, Real u2, Real h, Real v, Real w, Real r1, Real r2) {
    return pair_atan(u1, u2, h, v, w, r1, r2);
  }
};

/// Adds Σ weight·kernel over sources [first + y·span, first + (y+1)·span) ∩
/// [first, first + count) to sums[f·n_stations + s]. GzOnly fixes the mask at
/// compile time so that the g_z-only kernel carries no unused terms.
template <typename Real, bool GzOnly, typename Pairs, typename Source>
__global__ void __launch_bounds__(block_size)
    source_sums_kernel(const Source* __restrict__ sources, std::int64_t first, std::int64_t count, std::int64_t span,
                       const Station* __restrict__ stations, int n_stations, unsigned runtime_mask,
                       double* __restrict__ sums) {
  __shared__ Source tile[block_size];
  const unsigned mask = GzOnly ? unsigned(bit_g_z) : runtime_mask;
  const int s = blockIdx.x * block_size + threadIdx.x;
  const bool active = s < n_stations;
  const Station station = active ? stations[s] : Station{0.0, 0.0, 0.0};
  const std::int64_t begin = first + static_cast<std::int64_t>(blockIdx.y) * span;
  const std::int64_t end = std::min(first + count, begin + span);
  double acc[10] = {};
  Real values[10] = {};
  for (std::int64_t base = begin; base < end; base += block_size) {
    const std::int64_t p = base + threadIdx.x;
    if (p < end) tile[threadIdx.x] = sources[p];
    __syncthreads();
    const int n = static_cast<int>(std::min<std::int64_t>(block_size, end - base));
    if (active) {
      for (int t = 0; t < n; ++t) {
        const double weight = source_fields<Real, Pairs>(tile[t], station, mask, values);
#pragma unroll
        for (int f = 0; f < 10; ++f)
          if (mask & (1u << f)) acc[f] += weight * static_cast<double>(values[f]);
      }
    }
    __syncthreads();
  }
  if (active && begin < end) {
#pragma unroll
    for (int f = 0; f < 10; ++f)
      if (mask & (1u << f)) atomicAdd(&sums[static_cast<std::int64_t>(f) * n_stations + s], acc[f]);
  }
}

/// Owns one cudaMalloc'd array; frees it on every exit path.
template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t n) : n_(n) { GEOBEM_CUDA_CHECK(cudaMalloc(&data_, std::max<std::size_t>(n, 1) * sizeof(T))); }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return data_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t n_;
};

template <typename Real, typename Pairs, typename Source>
void launch(bool gz_only, dim3 grid, const Source* sources, std::int64_t first, std::int64_t count, std::int64_t span,
            const Station* stations, int n_stations, unsigned mask, double* sums) {
  if (gz_only)
    source_sums_kernel<Real, true, Pairs>
        <<<grid, block_size>>>(sources, first, count, span, stations, n_stations, mask, sums);
  else
    source_sums_kernel<Real, false, Pairs>
        <<<grid, block_size>>>(sources, first, count, span, stations, n_stations, mask, sums);
  GEOBEM_CUDA_CHECK_LAUNCH();
}

template <typename Real, typename Source>
void launch(const CudaTuning& tuning, bool gz_only, dim3 grid, const Source* sources, std::int64_t first,
            std::int64_t count, std::int64_t span, const Station* stations, int n_stations, unsigned mask,
            double* sums) {
  // Out-of-line pairs only concern prisms; grid nodes have no edge pairs.
  if constexpr (std::is_same<Source, Prism>::value)
    if (tuning.out_of_line_pairs)
      return launch<Real, OutOfLinePairs>(gz_only, grid, sources, first, count, span, stations, n_stations, mask,
                                          sums);
  launch<Real, InlinePairs>(gz_only, grid, sources, first, count, span, stations, n_stations, mask, sums);
}

/// Memory budget of one run: the tuning's limit, or 90% of the free memory.
std::size_t memory_budget(const CudaTuning& tuning) {
  std::size_t free_bytes = 0, total_bytes = 0;
  GEOBEM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t available = free_bytes / 10 * 9;
  return tuning.memory_limit_bytes > 0 ? std::min(tuning.memory_limit_bytes, available) : available;
}

template <typename Source>
std::vector<double> run(const std::vector<Source>& sources, const std::vector<Station>& stations, unsigned mask,
                        Precision precision, ProgressReporter& progress, const CudaTuning& tuning) {
  const std::size_t n_stations = stations.size(), n_sources = sources.size();
  std::vector<double> sums(10 * n_stations, 0.0);
  if (n_sources == 0 || n_stations == 0) return sums;

  const ChunkPlan plan = plan_chunks(n_sources, sizeof(Source), n_stations, memory_budget(tuning));
  DeviceArray<Source> d_sources(plan.sources_per_chunk);
  DeviceArray<Station> d_stations(plan.stations_per_chunk);
  DeviceArray<double> d_sums(10 * plan.stations_per_chunk);
  const bool sources_once = plan.sources_per_chunk == n_sources;
  if (sources_once)
    GEOBEM_CUDA_CHECK(cudaMemcpy(d_sources.get(), sources.data(), n_sources * sizeof(Source), cudaMemcpyHostToDevice));

  int device = 0, sm_count = 0;
  GEOBEM_CUDA_CHECK(cudaGetDevice(&device));
  GEOBEM_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  const bool gz_only = mask == unsigned(bit_g_z);

  for (std::size_t s0 = 0; s0 < n_stations; s0 += plan.stations_per_chunk) {
    const std::size_t ns = std::min(plan.stations_per_chunk, n_stations - s0);
    GEOBEM_CUDA_CHECK(cudaMemcpy(d_stations.get(), stations.data() + s0, ns * sizeof(Station), cudaMemcpyHostToDevice));
    GEOBEM_CUDA_CHECK(cudaMemset(d_sums.get(), 0, 10 * ns * sizeof(double)));
    const unsigned station_blocks = static_cast<unsigned>((ns + block_size - 1) / block_size);
    // Launches of about 2^31 pairs each: short enough for progress lines,
    // long enough that launch overhead is negligible.
    const std::int64_t launch_sources =
        std::max<std::int64_t>(block_size, (std::int64_t(1) << 31) / static_cast<std::int64_t>(ns));
    for (std::size_t p0 = 0; p0 < n_sources; p0 += plan.sources_per_chunk) {
      const std::int64_t chunk = static_cast<std::int64_t>(std::min(plan.sources_per_chunk, n_sources - p0));
      if (!sources_once)
        GEOBEM_CUDA_CHECK(cudaMemcpy(d_sources.get(), sources.data() + p0, chunk * sizeof(Source),
                                     cudaMemcpyHostToDevice));
      for (std::int64_t first = 0; first < chunk; first += launch_sources) {
        const std::int64_t count = std::min(launch_sources, chunk - first);
        // Split the sources of this launch over tuning.blocks_per_sm blocks
        // per SM in all, each split at least one tile long.
        const std::int64_t tiles = (count + block_size - 1) / block_size;
        const std::int64_t wanted =
            (std::max(1, tuning.blocks_per_sm) * static_cast<std::int64_t>(sm_count) + station_blocks - 1) /
            station_blocks;
        const std::int64_t splits = std::max<std::int64_t>(1, std::min<std::int64_t>({wanted, tiles, 65535}));
        const std::int64_t span = ((tiles + splits - 1) / splits) * block_size;
        const dim3 grid(station_blocks, static_cast<unsigned>((count + span - 1) / span));
        const std::int64_t offset = sources_once ? static_cast<std::int64_t>(p0) + first : first;
        if (precision == Precision::Single)
          launch<float>(tuning, gz_only, grid, d_sources.get(), offset, count, span, d_stations.get(),
                        static_cast<int>(ns), mask, d_sums.get());
        else
          launch<double>(tuning, gz_only, grid, d_sources.get(), offset, count, span, d_stations.get(),
                         static_cast<int>(ns), mask, d_sums.get());
        GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
        progress.advance(static_cast<std::uint64_t>(count) * ns);
      }
    }
    // Rows of this station chunk into the full rows of the result.
    GEOBEM_CUDA_CHECK(cudaMemcpy2D(sums.data() + s0, n_stations * sizeof(double), d_sums.get(), ns * sizeof(double),
                                   ns * sizeof(double), 10, cudaMemcpyDeviceToHost));
  }
  return sums;
}

}  // namespace

std::vector<double> forward_cuda(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                                 unsigned mask, Precision precision, ProgressReporter& progress,
                                 const CudaTuning& tuning) {
  return run(prisms, stations, mask, precision, progress, tuning);
}

std::vector<double> forward_cuda(const std::vector<GridNode>& nodes, const std::vector<Station>& stations,
                                 unsigned mask, Precision precision, ProgressReporter& progress,
                                 const CudaTuning& tuning) {
  return run(nodes, stations, mask, precision, progress, tuning);
}

}  // namespace geobem::gravity
