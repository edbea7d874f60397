// CUDA driver: each thread owns one station; the prisms stream through shared
// memory in tiles of one block's width, and the kernel values are accumulated
// in double in registers. Blocks are also split over ranges of prisms (grid y)
// so that a station grid smaller than the GPU still fills it; the partial sums
// meet with double atomicAdd. Device memory: prisms + stations + 10 sums per
// station, O(prisms + stations).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gpu/core/cuda_check.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/prism_kernels.hpp"

namespace geobem::gravity {
namespace {

constexpr int block_size = 128;  // threads per block = prisms per shared-memory tile

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

/// Adds Σ density·kernel over prisms [first + y·span, first + (y+1)·span) ∩
/// [first, first + count) to sums[f·n_stations + s]. GzOnly fixes the mask at
/// compile time so that the g_z-only kernel carries no unused terms.
template <typename Real, bool GzOnly, typename Pairs>
__global__ void __launch_bounds__(block_size)
    prism_sums_kernel(const Prism* __restrict__ prisms, std::int64_t first, std::int64_t count, std::int64_t span,
                      const Station* __restrict__ stations, int n_stations, unsigned runtime_mask,
                      double* __restrict__ sums) {
  __shared__ Prism tile[block_size];
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
    if (p < end) tile[threadIdx.x] = prisms[p];
    __syncthreads();
    const int n = static_cast<int>(std::min<std::int64_t>(block_size, end - base));
    if (active) {
      for (int t = 0; t < n; ++t) {
        const Prism& prism = tile[t];
        const RelativePrism<Real> rel =
            relative_prism<Real>(prism.west, prism.east, prism.south, prism.north, prism.bottom, prism.top,
                                 station.easting, station.northing, station.upward);
        prism_fields<Real, Pairs>(rel, mask, values);
#pragma unroll
        for (int f = 0; f < 10; ++f)
          if (mask & (1u << f)) acc[f] += prism.density * static_cast<double>(values[f]);
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

template <typename Real, typename Pairs>
void launch(bool gz_only, dim3 grid, const Prism* prisms, std::int64_t first, std::int64_t count, std::int64_t span,
            const Station* stations, int n_stations, unsigned mask, double* sums) {
  if (gz_only)
    prism_sums_kernel<Real, true, Pairs>
        <<<grid, block_size>>>(prisms, first, count, span, stations, n_stations, mask, sums);
  else
    prism_sums_kernel<Real, false, Pairs>
        <<<grid, block_size>>>(prisms, first, count, span, stations, n_stations, mask, sums);
  GEOBEM_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launch(const CudaTuning& tuning, bool gz_only, dim3 grid, const Prism* prisms, std::int64_t first,
            std::int64_t count, std::int64_t span, const Station* stations, int n_stations, unsigned mask,
            double* sums) {
  if (tuning.out_of_line_pairs)
    launch<Real, OutOfLinePairs>(gz_only, grid, prisms, first, count, span, stations, n_stations, mask, sums);
  else
    launch<Real, InlinePairs>(gz_only, grid, prisms, first, count, span, stations, n_stations, mask, sums);
}

}  // namespace

std::vector<double> forward_cuda(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                                 unsigned mask, Precision precision, ProgressReporter& progress,
                                 const CudaTuning& tuning) {
  const std::size_t n_stations = stations.size();
  std::vector<double> sums(10 * n_stations, 0.0);
  if (prisms.empty() || n_stations == 0) return sums;

  DeviceArray<Prism> d_prisms(prisms.size());
  DeviceArray<Station> d_stations(n_stations);
  DeviceArray<double> d_sums(sums.size());
  GEOBEM_CUDA_CHECK(cudaMemcpy(d_prisms.get(), prisms.data(), d_prisms.bytes(), cudaMemcpyHostToDevice));
  GEOBEM_CUDA_CHECK(cudaMemcpy(d_stations.get(), stations.data(), d_stations.bytes(), cudaMemcpyHostToDevice));
  GEOBEM_CUDA_CHECK(cudaMemset(d_sums.get(), 0, d_sums.bytes()));

  int device = 0, sm_count = 0;
  GEOBEM_CUDA_CHECK(cudaGetDevice(&device));
  GEOBEM_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));

  const std::int64_t n_prisms = static_cast<std::int64_t>(prisms.size());
  const unsigned station_blocks = static_cast<unsigned>((n_stations + block_size - 1) / block_size);
  // Launches of about 2^31 pairs each: short enough for progress lines, long
  // enough that launch overhead is negligible.
  const std::int64_t chunk =
      std::max<std::int64_t>(block_size, (std::int64_t(1) << 31) / static_cast<std::int64_t>(n_stations));
  const bool gz_only = mask == unsigned(bit_g_z);
  for (std::int64_t first = 0; first < n_prisms; first += chunk) {
    const std::int64_t count = std::min(chunk, n_prisms - first);
    // Split the prisms of this launch over tuning.blocks_per_sm blocks per
    // SM in all, each split at least one tile long.
    const std::int64_t tiles = (count + block_size - 1) / block_size;
    const std::int64_t wanted =
        (std::max(1, tuning.blocks_per_sm) * static_cast<std::int64_t>(sm_count) + station_blocks - 1) / station_blocks;
    const std::int64_t splits = std::max<std::int64_t>(1, std::min<std::int64_t>({wanted, tiles, 65535}));
    const std::int64_t span = ((tiles + splits - 1) / splits) * block_size;
    const dim3 grid(station_blocks, static_cast<unsigned>((count + span - 1) / span));
    if (precision == Precision::Single)
      launch<float>(tuning, gz_only, grid, d_prisms.get(), first, count, span, d_stations.get(), static_cast<int>(n_stations),
                    mask, d_sums.get());
    else
      launch<double>(tuning, gz_only, grid, d_prisms.get(), first, count, span, d_stations.get(),
                     static_cast<int>(n_stations), mask, d_sums.get());
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    progress.advance(static_cast<std::uint64_t>(count) * n_stations);
  }
  GEOBEM_CUDA_CHECK(cudaMemcpy(sums.data(), d_sums.get(), d_sums.bytes(), cudaMemcpyDeviceToHost));
  return sums;
}

}  // namespace geobem::gravity
