// CUDA driver: each thread owns one station; the sources (prisms, or weighted
// grid nodes on the grid path) stream through shared memory in tiles of one
// block's width, and the kernel values are accumulated in double in
// registers. Blocks are also split over ranges of sources (grid y) so that a
// station grid smaller than the GPU still fills it; the partial sums meet
// with double atomicAdd. Device memory: sources + stations + 10 sums per
// station, O(sources + stations); a problem larger than the memory budget
// goes in chunks of sources and stations (chunk_plan.hpp). The prism kernels
// are compiled in several launch shapes (threads per block, register cap;
// CudaTuning::shape), timed by bench/gravity.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/chunk_plan.hpp"
#include "gpu/gravity/source_fields.hpp"

namespace geobem::gravity {
namespace {

/// Shape of the node kernels, of out-of-line pairs, and of the prism kernels
/// unless CudaTuning::shape or default_shape() picks another.
constexpr int default_block = 128;

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
/// [first, first + count) to sums[f·n_stations + s], one station per thread
/// of a Block-thread block. GzOnly fixes the mask at compile time so that the
/// g_z-only kernel carries no unused terms.
template <typename Real, bool GzOnly, typename Pairs, int Block, typename Source>
__device__ __forceinline__ void source_sums(const Source* __restrict__ sources, std::int64_t first, std::int64_t count,
                                            std::int64_t span, const Station* __restrict__ stations, int n_stations,
                                            unsigned runtime_mask, double* __restrict__ sums) {
  __shared__ Source tile[Block];
  const unsigned mask = GzOnly ? unsigned(bit_g_z) : runtime_mask;
  const int s = blockIdx.x * Block + threadIdx.x;
  const bool active = s < n_stations;
  const Station station = active ? stations[s] : Station{0.0, 0.0, 0.0};
  const std::int64_t begin = first + static_cast<std::int64_t>(blockIdx.y) * span;
  const std::int64_t end = std::min(first + count, begin + span);
  double acc[10] = {};
  Real values[10] = {};
  for (std::int64_t base = begin; base < end; base += Block) {
    const std::int64_t p = base + threadIdx.x;
    if (p < end) tile[threadIdx.x] = sources[p];
    __syncthreads();
    const int n = static_cast<int>(std::min<std::int64_t>(Block, end - base));
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

/// source_sums with the compiler's register choice for Block threads.
template <typename Real, bool GzOnly, typename Pairs, int Block, typename Source>
__global__ void __launch_bounds__(Block)
    source_sums_kernel(const Source* __restrict__ sources, std::int64_t first, std::int64_t count, std::int64_t span,
                       const Station* __restrict__ stations, int n_stations, unsigned mask,
                       double* __restrict__ sums) {
  source_sums<Real, GzOnly, Pairs, Block>(sources, first, count, span, stations, n_stations, mask, sums);
}

/// source_sums over prisms with at most MaxRegisters registers per thread
/// (__maxnreg__ and __launch_bounds__ exclude each other).
template <typename Real, bool GzOnly, int Block, int MaxRegisters>
__global__ void __maxnreg__(MaxRegisters)
    capped_prism_sums_kernel(const Prism* __restrict__ sources, std::int64_t first, std::int64_t count,
                             std::int64_t span, const Station* __restrict__ stations, int n_stations, unsigned mask,
                             double* __restrict__ sums) {
  source_sums<Real, GzOnly, InlinePairs, Block>(sources, first, count, span, stations, n_stations, mask, sums);
}

/// A compiled launch shape (KernelShape as template arguments).
template <int Block, int MaxRegisters>
struct Shape {
  static constexpr KernelShape value{Block, MaxRegisters};
};

/// Every shape of cuda_kernel_shapes(), the default first: block sizes alone,
/// and register caps that each give a whole number of blocks at 14–32
/// resident warps per SM (65,536 registers / (cap × 32) warps).
using PrismShapes = std::tuple<Shape<128, 0>, Shape<64, 0>, Shape<32, 0>, Shape<64, 144>, Shape<32, 136>,
                               Shape<128, 128>, Shape<32, 120>, Shape<64, 112>, Shape<128, 96>, Shape<128, 80>,
                               Shape<128, 64>>;

/// The shape a kernel runs in when CudaTuning::shape leaves it open: the
/// fastest of the H100 sweep on the paper's case (bench/RESULTS.md, "Gravity at scale"). All
/// ten fields in double: 96 registers (spilling 272 bytes of loads) give 20
/// resident warps instead of 12, 0.675 → 0.590 s; g_z in double: 64
/// registers, 0.247 → 0.233 s; single: 0.295 → 0.268 s and 0.115 → 0.111 s.
KernelShape default_shape(bool single, bool gz_only) {
  if (single) return gz_only ? KernelShape{32, 120} : KernelShape{64, 0};
  return gz_only ? KernelShape{128, 64} : KernelShape{128, 96};
}

bool same_shape(const KernelShape& a, const KernelShape& b) {
  return a.block_size == b.block_size && a.max_registers == b.max_registers;
}

template <typename Real, bool GzOnly, int Block, int MaxRegisters>
void launch_prisms(dim3 grid, const Prism* sources, std::int64_t first, std::int64_t count, std::int64_t span,
                   const Station* stations, int n_stations, unsigned mask, double* sums) {
  if constexpr (MaxRegisters == 0)
    source_sums_kernel<Real, GzOnly, InlinePairs, Block>
        <<<grid, Block>>>(sources, first, count, span, stations, n_stations, mask, sums);
  else
    capped_prism_sums_kernel<Real, GzOnly, Block, MaxRegisters>
        <<<grid, Block>>>(sources, first, count, span, stations, n_stations, mask, sums);
}

/// Launches the prism kernel of `shape` (one of PrismShapes: resolve_shape()
/// has checked it).
template <typename Real, bool GzOnly, typename... Shapes>
void launch_shape(std::tuple<Shapes...>, const KernelShape& shape, dim3 grid, const Prism* sources,
                  std::int64_t first, std::int64_t count, std::int64_t span, const Station* stations,
                  int n_stations, unsigned mask, double* sums) {
  ((same_shape(shape, Shapes::value)
        ? launch_prisms<Real, GzOnly, Shapes::value.block_size, Shapes::value.max_registers>(
              grid, sources, first, count, span, stations, n_stations, mask, sums)
        : void()),
   ...);
}

/// Launches the kernel of `shape` for prisms (out-of-line pairs: {128, 0}
/// only) or the node kernel for grid nodes, and checks the launch.
template <typename Real, typename Source>
void launch(const KernelShape& shape, bool out_of_line, bool gz_only, dim3 grid, const Source* sources,
            std::int64_t first, std::int64_t count, std::int64_t span, const Station* stations, int n_stations,
            unsigned mask, double* sums) {
  if constexpr (std::is_same<Source, Prism>::value) {
    if (out_of_line && gz_only)
      source_sums_kernel<Real, true, OutOfLinePairs, default_block>
          <<<grid, default_block>>>(sources, first, count, span, stations, n_stations, mask, sums);
    else if (out_of_line)
      source_sums_kernel<Real, false, OutOfLinePairs, default_block>
          <<<grid, default_block>>>(sources, first, count, span, stations, n_stations, mask, sums);
    else if (gz_only)
      launch_shape<Real, true>(PrismShapes{}, shape, grid, sources, first, count, span, stations, n_stations, mask,
                               sums);
    else
      launch_shape<Real, false>(PrismShapes{}, shape, grid, sources, first, count, span, stations, n_stations, mask,
                                sums);
  } else if (gz_only) {
    source_sums_kernel<Real, true, InlinePairs, default_block>
        <<<grid, default_block>>>(sources, first, count, span, stations, n_stations, mask, sums);
  } else {
    source_sums_kernel<Real, false, InlinePairs, default_block>
        <<<grid, default_block>>>(sources, first, count, span, stations, n_stations, mask, sums);
  }
  GEOBEM_CUDA_CHECK_LAUNCH();
}

/// The shape that runs: grid nodes and out-of-line pairs {128, 0}; prisms
/// the tuning's shape, else default_shape(). Throws std::invalid_argument for
/// a shape that was not compiled.
template <typename Source>
KernelShape resolve_shape(const CudaTuning& tuning, bool single, bool gz_only) {
  const KernelShape fixed{default_block, 0};
  if (!std::is_same<Source, Prism>::value) return fixed;
  if (tuning.shape.block_size == 0) return tuning.out_of_line_pairs ? fixed : default_shape(single, gz_only);
  const auto shapes = cuda_kernel_shapes();
  const bool compiled = std::any_of(shapes.begin(), shapes.end(),
                                    [&](const KernelShape& s) { return same_shape(s, tuning.shape); });
  if (!compiled || (tuning.out_of_line_pairs && !same_shape(tuning.shape, fixed)))
    throw std::invalid_argument("forward_cuda: no prism kernel of shape " + std::to_string(tuning.shape.block_size) +
                                " threads, " + std::to_string(tuning.shape.max_registers) +
                                " registers (cuda_kernel_shapes(); out-of-line pairs: 128, 0)");
  return tuning.shape;
}

/// Adds Σ weight·kernel over the device-resident sources[0, count) at the
/// device-resident stations[0, ns) to sums (device, 10 rows of ns), in
/// launches of about 2^31 pairs each: short enough for progress lines, long
/// enough that launch overhead is negligible.
template <typename Source>
void add_source_sums(const Source* sources, std::int64_t count_all, const Station* stations, std::size_t ns,
                     unsigned mask, Precision precision, const KernelShape& shape, const CudaTuning& tuning,
                     int sm_count, double* sums, ProgressReporter& progress) {
  const bool gz_only = mask == unsigned(bit_g_z);
  const int block = shape.block_size;
  const unsigned station_blocks = static_cast<unsigned>((ns + block - 1) / block);
  const std::int64_t launch_sources =
      std::max<std::int64_t>(block, (std::int64_t(1) << 31) / static_cast<std::int64_t>(ns));
  for (std::int64_t first = 0; first < count_all; first += launch_sources) {
    const std::int64_t count = std::min(launch_sources, count_all - first);
    // Split the sources of this launch over tuning.blocks_per_sm blocks
    // of 128 threads per SM in all, each split at least one tile long.
    const std::int64_t tiles = (count + block - 1) / block;
    const std::int64_t wanted =
        (std::max(1, tuning.blocks_per_sm) * static_cast<std::int64_t>(sm_count) * default_block / block +
         station_blocks - 1) /
        station_blocks;
    const std::int64_t splits = std::max<std::int64_t>(1, std::min<std::int64_t>({wanted, tiles, 65535}));
    const std::int64_t span = ((tiles + splits - 1) / splits) * block;
    const dim3 grid(station_blocks, static_cast<unsigned>((count + span - 1) / span));
    if (precision == Precision::Single)
      launch<float>(shape, tuning.out_of_line_pairs, gz_only, grid, sources, first, count, span, stations,
                    static_cast<int>(ns), mask, sums);
    else
      launch<double>(shape, tuning.out_of_line_pairs, gz_only, grid, sources, first, count, span, stations,
                     static_cast<int>(ns), mask, sums);
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    progress.advance(static_cast<std::uint64_t>(count) * ns);
  }
}

int multiprocessor_count() {
  int device = 0, sm_count = 0;
  GEOBEM_CUDA_CHECK(cudaGetDevice(&device));
  GEOBEM_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  return sm_count;
}

template <typename Source>
std::vector<double> run(const std::vector<Source>& sources, const std::vector<Station>& stations, unsigned mask,
                        Precision precision, ProgressReporter& progress, const CudaTuning& tuning) {
  const std::size_t n_stations = stations.size(), n_sources = sources.size();
  std::vector<double> sums(10 * n_stations, 0.0);
  if (n_sources == 0 || n_stations == 0) return sums;
  const KernelShape shape =
      resolve_shape<Source>(tuning, precision == Precision::Single, mask == unsigned(bit_g_z));

  const ChunkPlan plan =
      plan_chunks(n_sources, sizeof(Source), n_stations, device_memory_budget(tuning.memory_limit_bytes));
  DeviceBuffer<Source> d_sources(plan.sources_per_chunk);
  DeviceBuffer<Station> d_stations(plan.stations_per_chunk);
  DeviceBuffer<double> d_sums(10 * plan.stations_per_chunk);
  const bool sources_once = plan.sources_per_chunk == n_sources;
  if (sources_once) d_sources.upload(sources.data(), n_sources);
  const int sm_count = multiprocessor_count();

  for (std::size_t s0 = 0; s0 < n_stations; s0 += plan.stations_per_chunk) {
    const std::size_t ns = std::min(plan.stations_per_chunk, n_stations - s0);
    d_stations.upload(stations.data() + s0, ns);
    GEOBEM_CUDA_CHECK(cudaMemset(d_sums.data(), 0, 10 * ns * sizeof(double)));
    for (std::size_t p0 = 0; p0 < n_sources; p0 += plan.sources_per_chunk) {
      const std::size_t chunk = std::min(plan.sources_per_chunk, n_sources - p0);
      if (!sources_once) d_sources.upload(sources.data() + p0, chunk);
      add_source_sums(d_sources.data() + (sources_once ? p0 : 0), static_cast<std::int64_t>(chunk),
                      d_stations.data(), ns, mask, precision, shape, tuning, sm_count, d_sums.data(), progress);
    }
    // Rows of this station chunk into the full rows of the result.
    GEOBEM_CUDA_CHECK(cudaMemcpy2D(sums.data() + s0, n_stations * sizeof(double), d_sums.data(), ns * sizeof(double),
                                   ns * sizeof(double), 10, cudaMemcpyDeviceToHost));
  }
  return sums;
}

/// KernelShape values of a tuple of Shape types.
template <typename... Shapes>
std::vector<KernelShape> shape_values(std::tuple<Shapes...>) {
  return {Shapes::value...};
}

}  // namespace

std::vector<KernelShape> cuda_kernel_shapes() { return shape_values(PrismShapes{}); }

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
