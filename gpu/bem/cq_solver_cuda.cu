// CUDA path of solve_laplace: batches of CQ frequencies. Per batch one
// assembly launch, a thread block per (collocation point, frequency) that owns
// its three matrix rows: the block sorts its pairs by quadrature point count,
// then its warps take them costliest first, the costly ones (ξ on the
// element, or more than 128 points) one pair per warp with the points split
// over its lanes, the others 32 of like cost at a time, one per lane, so that
// a warp's lanes finish together (collocation_pair.hpp). They add into the rows held in shared memory
// (block-local atomics; no global atomics), then write them out; rows longer
// than the shared-memory budget are done in column tiles. The batch's systems
// are then factorised and solved together (BatchedLuSolver; cuSOLVER one
// system at a time for batches of fewer than eight), and only the solutions
// x̂ (n × load cases per frequency) go back to the host.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/bem/batched_lu.hpp"
#include "gpu/bem/collocation_pair.hpp"
#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/device_model.cuh"
#include "gpu/bem/lu_failure.hpp"
#include "gpu/bem/streamed_lu.hpp"
#include "gpu/core/cuda_check.hpp"
#include "gpu/core/cuda_event.hpp"
#include "gpu/core/cuda_stream.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/core/seconds_since.hpp"

namespace geobem::bem {

namespace {

/// Threads per block (whole warps: the costly pairs are split over a warp's
/// lanes): the pair kernel takes all 255 registers a thread may have, so 128
/// threads (32K registers) let two blocks share an SM. The point kernel
/// alone needs more than 168: a pair shared by 4 lanes (9 complex sums each
/// instead of 33) spilled 1.0 kB a thread at 168 registers (12 warps an SM)
/// and 2.0 kB at 128 (16 warps) and ran 2.3× and 3.4× slower on an H100; by
/// 2 lanes (18 sums) it still spilled 1.1 kB at 168.
constexpr int assembly_threads = 128;
static_assert(assembly_threads % 32 == 0, "the assembly block is whole warps");
/// Shared memory for one block's rows: 3 rows × (tile columns + load cases)
/// complex values. With the 17 kB of the sort (round_pairs below) two blocks
/// fit an SM's 228 kB.
constexpr std::size_t row_shared_budget = 88 * 1024;

/// Adds into the block's rows in shared memory: columns [first_column,
/// first_column + tile_columns) of rows 3p..3p+2, then the load-case columns.
struct SharedRowAdder {
  Complex* rows;  ///< [i][column − first_column] (3 × tile_columns), then [case][i] (cases × 3)
  int p, first_column, tile_columns;
  bool add_rhs;
  __device__ void add(int slot, Complex value) {
    double* target = reinterpret_cast<double*>(rows + slot);
    atomicAdd(target, value.re);
    atomicAdd(target + 1, value.im);
  }
  __device__ void matrix(int row, int column, Complex value) {
    const int local = column - first_column;
    if (local >= 0 && local < tile_columns) add((row - 3 * p) * tile_columns + local, value);
  }
  __device__ void rhs(int row, int load_case, Complex value) {
    if (add_rhs) add(3 * tile_columns + 3 * load_case + (row - 3 * p), value);
  }
};

/// First and last column tile element e adds to (its traction unknown's and
/// its free nodes' column blocks); both 0 when it has none.
__device__ void element_tiles(const ModelView& mv, int e, int tile_columns, int& first, int& last) {
  first = 1 << 30;
  last = -1;
  const int blocks[4] = {mv.element_block[e], mv.node_block[mv.triangles[3 * e]],
                         mv.node_block[mv.triangles[3 * e + 1]], mv.node_block[mv.triangles[3 * e + 2]]};
  for (int b : blocks)
    if (b >= 0) {
      first = min(first, 3 * b / tile_columns);
      last = max(last, 3 * b / tile_columns);
    }
  if (last < 0) first = last = 0;
}

/// A pair of more quadrature points than this is split over a warp's lanes
/// (a singular pair always is); the others take one lane each. Measured on
/// an H100 (1,008 rod, β = 0.3, lanes in element order): 32 → 0.671 s of
/// assembly, 64 → 0.452 s, 128 → 0.397 s; splitting a pair of 33–128 points
/// leaves lanes idle in its last round and costs a warp sum. With the lanes
/// sorted by cost: 256 → 0.237 s against 0.245 s at 128 on the rod, but
/// 0.059 s against 0.054 s on 3,388 elements (10 steps).
constexpr int warp_split_points = 128;

/// Live pairs a block sorts per round (pairs_per_thread per thread): a
/// round's pairs are sorted by cost before any is integrated, and its last
/// work items leave warps waiting at the round's barrier. Rounds of a fixed
/// 1,024 elements, most of them off the column tile or decayed, took 0.054 s
/// on 3,388 elements (three tiles), rounds of 1,024 or 2,048 live pairs
/// 0.045 s (the rod, one tile: 0.25 s all three).
constexpr int pairs_per_thread = 16, round_pairs = pairs_per_thread * assembly_threads;

/// Cost classes of a round's counting sort, in the order their pairs are
/// integrated, costliest first (longest-processing-time order, Graham 1969,
/// "Bounds on multiprocessing timing anomalies", SIAM J. Appl. Math. 17: the
/// warps run out of work together): the split pairs by ⌊log₂ points⌋, from
/// 2^15 down; then the one-lane pairs by exact point count, from
/// warp_split_points down, those with the K blocks before those with V only.
/// A warp's 32 lanes take 32 consecutive pairs, all of one or two point
/// counts, where in element order their counts ran from 6 to 128 and a warp
/// ran as long as its costliest lane.
constexpr int split_classes = 16, cost_classes = split_classes + 2 * warp_split_points;

/// Whether pair `rule` is split over a warp's lanes: a singular one (its
/// collapsed products of 64 points or more, and the own column's remainder
/// branch, kept out of the one-lane batches) or one of many points. A
/// subdivided near pair of few points takes a lane among pairs of its cost:
/// measured on an H100, 2–3% faster on the rod than splitting every near pair
/// (0.242 s against 0.249 s, β = 0.3), the same on 3,388 elements.
__device__ bool split_over_warp(const PairRule& rule) { return rule.singular() || rule.points() > warp_split_points; }

/// Sort class of a live pair (cost_classes above).
__device__ int cost_class(const PairRule& rule, bool need_k) {
  const int points = rule.points();
  if (split_over_warp(rule)) return split_classes - 1 - min(31 - __clz(points), split_classes - 1);
  return split_classes + 2 * (warp_split_points - points) + (need_k ? 0 : 1);
}

/// A sorted pair: the element, its rule (pair_rule's at the block's s) and
/// whether the pair adds the right-hand side (the element's first column tile).
struct SortedPair {
  int element;
  unsigned rule;  ///< order | subdivisions << 8 | (symmetric_rule + 1) << 16 | (vertex + 1) << 20 | inner << 23 | add_rhs << 24

  __device__ static SortedPair pack(int e, const PairRule& r, bool add_rhs) {
    return {e, static_cast<unsigned>(r.plan.order) | static_cast<unsigned>(r.plan.subdivisions) << 8 |
                   static_cast<unsigned>(r.plan.symmetric_rule + 1) << 16 | static_cast<unsigned>(r.vertex + 1) << 20 |
                   static_cast<unsigned>(r.inner) << 23 | static_cast<unsigned>(add_rhs) << 24};
  }
  __device__ PairRule pair_rule() const {
    PairRule r;
    r.plan.order = rule & 0xff;
    r.plan.subdivisions = rule >> 8 & 0xff;
    r.plan.symmetric_rule = static_cast<int>(rule >> 16 & 0xf) - 1;
    r.vertex = static_cast<int>(rule >> 20 & 0x7) - 1;
    r.inner = rule >> 23 & 1;
    return r;
  }
  __device__ bool add_rhs() const { return rule >> 24 & 1; }
};
static_assert(QuadratureTable::max_order < 256 && QuadratureTable::symmetric_rule_count < 15,
              "SortedPair's rule fields hold the plan");

/// The sum of x over the warp's 32 lanes, in lane 0.
__device__ double warp_sum(double x) {
  for (int offset = 16; offset > 0; offset >>= 1) x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

/// Sums the lanes' partial integrals of one pair into lane 0's. Unrolled
/// throughout, so that the integrand stays in registers (a loop here put it
/// in local memory, written back for every pair).
template <class Solution>
__device__ void warp_sum(DynamicIntegrand<Solution>& r) {
  constexpr int c = Solution::components;
#pragma unroll
  for (int i = 0; i < c; ++i)
#pragma unroll
    for (int j = 0; j < c; ++j) r.v[i][j] = Complex(warp_sum(r.v[i][j].re), warp_sum(r.v[i][j].im));
  if (!r.need_k) return;
#pragma unroll
  for (int b = 0; b < 3; ++b)
#pragma unroll
    for (int i = 0; i < c; ++i)
#pragma unroll
      for (int j = 0; j < c; ++j) r.k[b][i][j] = Complex(warp_sum(r.k[b][i][j].re), warp_sum(r.k[b][i][j].im));
}

/// Exclusive prefix sum of counts[0..cost_classes) in place, by one warp; the
/// total goes to *total.
__device__ void exclusive_scan_classes(int* counts, int* total, int lane) {
  constexpr int per_lane = (cost_classes + 31) / 32;
  int own[per_lane], sum = 0;
#pragma unroll
  for (int k = 0; k < per_lane; ++k) {
    const int c = lane * per_lane + k;
    own[k] = c < cost_classes ? counts[c] : 0;
    sum += own[k];
  }
  int before = sum;
  for (int offset = 1; offset < 32; offset <<= 1) {
    const int other = __shfl_up_sync(0xffffffffu, before, offset);
    if (lane >= offset) before += other;
  }
  if (lane == 31) *total = before;
  before -= sum;
#pragma unroll
  for (int k = 0; k < per_lane; ++k) {
    const int c = lane * per_lane + k;
    if (c < cost_classes) counts[c] = before;
    before += own[k];
  }
}

/// Block (p, f): rows 3p..3p+2 of frequency f's matrix and right-hand sides.
/// Matrices column-major n×n, right-hand sides n × cases, one after the other per frequency.
template <class Solution>
__global__ void __launch_bounds__(assembly_threads) assembly_kernel(ModelView mv, const QuadratureTable* table, const double* rigid_body_sums,
                                const Complex* s, int tile_columns, Complex* matrices, Complex* rhs) {
  extern __shared__ Complex rows[];
  __shared__ SortedPair sorted[round_pairs];
  __shared__ int class_start[cost_classes];
  __shared__ int live_count, next_item;
  const int p = blockIdx.x, f = blockIdx.y;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long n = mv.unknown_count;
  const int cases = mv.load_case_count;
  Complex* matrix = matrices + f * n * n;
  Complex* b = rhs + f * n * cases;
  const int slots = 3 * (tile_columns + cases);
  const int tiles = static_cast<int>((n + tile_columns - 1) / tile_columns);
  for (int k = 3 * tile_columns + threadIdx.x; k < slots; k += blockDim.x) rows[k] = Complex();
  for (int tile = 0; tile < tiles; ++tile) {
    const int first_column = tile * tile_columns;
    for (int k = threadIdx.x; k < 3 * tile_columns; k += blockDim.x) rows[k] = Complex();
    SharedRowAdder adder{rows, p, first_column, tile_columns, false};
    // Rounds: each thread takes its elements (threadIdx.x + k·assembly_threads)
    // in turn until it holds pairs_per_thread live pairs of this tile (pairs
    // off the tile or decayed cost only their rule), so that a round sorts
    // and shares about round_pairs pairs however many are dead.
    int next_element = threadIdx.x;
    for (bool more = true; more;) {
      for (int k = threadIdx.x; k < cost_classes; k += blockDim.x) class_start[k] = 0;
      if (threadIdx.x == 0) next_item = 0;
      __syncthreads();
      // Sort the round's live pairs by cost (counting sort): a pair's slot in
      // its class from a shared counter, then the classes' starts by a scan.
      int held = 0, pair_class[pairs_per_thread], slot[pairs_per_thread];
      SortedPair pair[pairs_per_thread];
      while (held < pairs_per_thread && next_element < mv.element_count) {
        const int e = next_element;
        next_element += assembly_threads;
        int first, last;
        element_tiles(mv, e, tile_columns, first, last);
        PairRule rule;
        if (tile < first || tile > last || !pair_rule<Solution>(mv, p, e, s[f], rule)) continue;  // not in this tile, or decayed at s[f]
        pair_class[held] = cost_class(rule, pair_needs_k(mv, e, rule));
        slot[held] = atomicAdd(&class_start[pair_class[held]], 1);
        pair[held++] = SortedPair::pack(e, rule, tile == first);
      }
      __syncthreads();
      if (warp == 0) exclusive_scan_classes(class_start, &live_count, lane);
      __syncthreads();
      for (int k = 0; k < held; ++k) sorted[class_start[pair_class[k]] + slot[k]] = pair[k];
      __syncthreads();
      // Work items, costliest first, taken by whichever warp is free: a split
      // pair (each lane one 32nd of its points; every branch there is uniform
      // over the warp), or 32 consecutive one-lane pairs. One call site of
      // the pair kernel keeps the code (and the instruction cache) small.
      const int split_count = class_start[split_classes];
      const int items = split_count + (live_count - split_count + 31) / 32;
      for (;;) {
        int item = 0;
        if (lane == 0) item = atomicAdd(&next_item, 1);
        item = __shfl_sync(0xffffffffu, item, 0);
        if (item >= items) break;
        const bool split = item < split_count;
        const int k = split ? item : split_count + 32 * (item - split_count) + lane;
        if (k >= live_count) continue;
        const SortedPair sorted_pair = sorted[k];
        const PairRule rule = sorted_pair.pair_rule();
        DynamicIntegrand<Solution> integrand;
        integrate_pair(mv, p, sorted_pair.element, s[f], rule, *table, integrand,
                       split ? PointShare{lane, 32} : PointShare{});
        if (split) {
          warp_sum(integrand);
          if (lane != 0) continue;
        }
        adder.add_rhs = sorted_pair.add_rhs();
        scatter_pair(mv, p, sorted_pair.element, integrand, adder);
      }
      more = __syncthreads_or(next_element < mv.element_count);
    }
    if (p < mv.free_node_count && 3 * p >= first_column && 3 * p < first_column + tile_columns)
      for (int k = threadIdx.x; k < 9; k += blockDim.x)
        rows[(k / 3) * tile_columns + 3 * p - first_column + k % 3] -= Complex(rigid_body_sums[9 * p + k]);
    __syncthreads();
    const int columns = static_cast<int>(min(static_cast<long>(tile_columns), n - first_column));
    for (int k = threadIdx.x; k < 3 * columns; k += blockDim.x) {
      const int i = k % 3, column = k / 3;
      matrix[(3 * p + i) + (first_column + column) * n] = rows[i * tile_columns + column];
    }
    __syncthreads();
  }
  for (int k = threadIdx.x; k < 3 * cases; k += blockDim.x) b[3 * p + k % 3 + (k / 3) * n] = rows[3 * tile_columns + k];
}

/// Block p: the rigid-body sum S0 of free node p over every element (block reduction).
template <class Solution>
__global__ void __launch_bounds__(assembly_threads) rigid_body_kernel(ModelView mv, const QuadratureTable* table, double* sums) {
  __shared__ double total[9];
  const int p = blockIdx.x;
  if (threadIdx.x < 9) total[threadIdx.x] = 0.0;
  __syncthreads();
  double own[9] = {};
  for (int e = threadIdx.x; e < mv.element_count; e += blockDim.x) {
    StaticIntegrand<Solution> integrand;
    integrate_pair_static(mv, p, e, *table, integrand);
    for (int k = 0; k < 9; ++k) own[k] += integrand.s0[k / 3][k % 3];
  }
  for (int k = 0; k < 9; ++k) atomicAdd(&total[k], own[k]);
  __syncthreads();
  if (threadIdx.x < 9) sums[9 * p + threadIdx.x] = total[threadIdx.x];
}

/// Columns per tile: all n when 3 rows of n fit the shared budget, else a multiple of 3 that does.
int tile_columns_for(long n, int cases) {
  const long fit = static_cast<long>(row_shared_budget / (3 * sizeof(Complex))) - cases;
  return static_cast<int>(std::min(n, fit - fit % 3));
}

/// What every assembly launch reads on the device: the model, the quadrature
/// table, the rigid-body sums (computed once, with the free term applied on
/// the host) and the Laplace points.
template <class Solution>
struct DeviceAssembly {
  DeviceModel dm;
  DeviceBuffer<QuadratureTable> table;
  DeviceBuffer<double> sums;
  DeviceBuffer<Complex> s;
  int tile_columns;
  DeviceAssembly(const BemModel& model, const std::vector<Complex>& laplace_points, int tile_cap = 0)
      : dm(model),
        table(std::vector<QuadratureTable>{make_quadrature_table()}),
        sums(9 * static_cast<std::size_t>(std::max(1, dm.view.free_node_count))),
        s(laplace_points),
        tile_columns(tile_columns_for(dm.view.unknown_count, dm.view.load_case_count)) {
    if (tile_cap > 0) tile_columns = std::min(tile_columns, tile_cap - tile_cap % 3);
    if (tile_columns < 3) throw std::invalid_argument("assembly tile of " + std::to_string(tile_columns) + " columns");
    if (dm.view.free_node_count > 0) {
      rigid_body_kernel<Solution><<<dm.view.free_node_count, assembly_threads>>>(dm.view, table.data(), sums.data());
      GEOBEM_CUDA_CHECK_LAUNCH();
      std::vector<double> host = sums.to_host();
      Solution::apply_free_term(model, host);
      sums.upload(host.data(), host.size());
    }
    GEOBEM_CUDA_CHECK(cudaFuncSetAttribute(assembly_kernel<Solution>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(shared_bytes())));
  }
  std::size_t shared_bytes() const { return sizeof(Complex) * 3 * (tile_columns + dm.view.load_case_count); }
  /// Systems of the Laplace points first..first+count−1 into matrices (count·n²) and rhs (count·n·cases).
  void launch(int first, int count, Complex* matrices, Complex* rhs, cudaStream_t stream = nullptr) const {
    if (dm.view.collocation_count == 0 || count == 0) return;
    assembly_kernel<Solution><<<dim3(dm.view.collocation_count, count), assembly_threads, shared_bytes(), stream>>>(
        dm.view, table.data(), sums.data(), s.data() + first, tile_columns, matrices, rhs);
    GEOBEM_CUDA_CHECK_LAUNCH();
  }
};

/// Frequencies per batch: as many systems (plus `per_frequency_extra` bytes
/// each) as fit in the device-memory budget now (device_memory_budget: a
/// share of the free memory), at most `frequencies`. Refuses
/// (require_dense_system_fits) when not even one does; called once before any
/// device work, and again once the fixed buffers are allocated.
int frequencies_per_batch(int n, int cases, int frequencies, std::uint64_t per_frequency_extra) {
  const std::uint64_t budget = device_memory_budget();
  require_dense_system_fits(n, cases, budget > per_frequency_extra ? budget - per_frequency_extra : 0,
                            "the device-memory budget (80% of the free device memory)");
  const std::uint64_t per_frequency = dense_system_bytes(n, cases) + per_frequency_extra;
  return static_cast<int>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(frequencies, budget / per_frequency)));
}

/// Batches of fewer systems are factorised by cuSOLVER one system at a time
/// on `solver_streams` streams (streamed_lu.hpp): the batched LU's panels
/// run one thread block per system and leave the device idle then.
constexpr int batched_lu_min_systems = 8, solver_streams = 16;

}  // namespace

template <class Solution>
void assemble_systems_cuda(const BemModel& model, const std::vector<Complex>& s,
                           std::vector<std::vector<Complex>>& matrices, std::vector<std::vector<Complex>>& rhs,
                           int tile_columns) {
  const long n = model.unknown_count(), cases = model.load_case_count();
  const int count = static_cast<int>(s.size());
  frequencies_per_batch(n, cases, count, 0);
  const DeviceAssembly<Solution> assembly(model, s, tile_columns);
  DeviceBuffer<Complex> d_matrices(n * n * count), d_rhs(std::max(1L, n * cases * count));
  assembly.launch(0, count, d_matrices.data(), d_rhs.data());
  matrices.assign(count, std::vector<Complex>(n * n));
  rhs.assign(count, std::vector<Complex>(n * cases));
  for (int f = 0; f < count; ++f) {
    GEOBEM_CUDA_CHECK(cudaMemcpy(matrices[f].data(), d_matrices.data() + f * n * n, sizeof(Complex) * n * n,
                                 cudaMemcpyDeviceToHost));
    GEOBEM_CUDA_CHECK(cudaMemcpy(rhs[f].data(), d_rhs.data() + f * n * cases, sizeof(Complex) * n * cases,
                                 cudaMemcpyDeviceToHost));
  }
}

template <class Solution>
CqTimings assemble_cq_systems_cuda(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                   const CqSystemSink& sink) {
  check_cq_settings(settings);
  CqTimings timings;
  const int n = model.unknown_count(), cases = model.load_case_count();
  const int frequencies = cq_frequency_count(settings);
  std::vector<Complex> points(frequencies);
  for (int l = 0; l < frequencies; ++l) points[l] = cq_laplace_point(settings, l);
  auto start = std::chrono::steady_clock::now();
  frequencies_per_batch(n, cases, frequencies, 0);
  const DeviceAssembly<Solution> assembly(model, points);
  const int batch = frequencies_per_batch(n, cases, frequencies, 0);
  timings.batch_frequencies = batch;
  DeviceBuffer<Complex> d_matrices(static_cast<std::size_t>(batch) * n * n),
      d_rhs(std::max<std::size_t>(1, static_cast<std::size_t>(batch) * n * cases));
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
  timings.setup_seconds += seconds_since(start);
  ProgressReporter progress("geobem-bem: CQ frequencies (assemble)", frequencies, "frequencies", options.quiet);
  std::vector<Complex> matrix(static_cast<std::size_t>(n) * n), rhs(static_cast<std::size_t>(n) * cases);
  for (int first = 0; first < frequencies; first += batch) {
    const int count = std::min(batch, frequencies - first);
    start = std::chrono::steady_clock::now();
    assembly.launch(first, count, d_matrices.data(), d_rhs.data());
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    timings.assembly_seconds += seconds_since(start);
    timings.matrix_entries += static_cast<std::uint64_t>(count) * n * n;
    for (int f = 0; f < count; ++f) {
      GEOBEM_CUDA_CHECK(cudaMemcpy(matrix.data(), d_matrices.data() + static_cast<std::size_t>(f) * n * n,
                                   sizeof(Complex) * matrix.size(), cudaMemcpyDeviceToHost));
      GEOBEM_CUDA_CHECK(cudaMemcpy(rhs.data(), d_rhs.data() + static_cast<std::size_t>(f) * n * cases,
                                   sizeof(Complex) * rhs.size(), cudaMemcpyDeviceToHost));
      sink(first + f, matrix, rhs);
      progress.advance(1);
    }
  }
  progress.finish();
  return timings;
}

template <class Solution>
LaplaceSolution solve_laplace_cuda(const BemModel& model, const CqSettings& settings,
                                   const std::vector<int>& frequencies, const CqOptions& options, CqTimings& timings) {
  const int n = model.unknown_count(), cases = model.load_case_count();
  const int count = static_cast<int>(frequencies.size());
  LaplaceSolution solution;
  solution.unknowns = n;
  solution.load_cases = cases;
  solution.frequencies = frequencies;
  solution.values.resize(static_cast<std::size_t>(cases) * count * n);
  if (count == 0 || cases == 0) return solution;

  // Refuse before any device work when one frequency does not fit.
  auto start = std::chrono::steady_clock::now();
  const int planned = frequencies_per_batch(n, cases, count, BatchedLuSolver::bytes_per_system);
  std::vector<Complex> points(count);
  for (int k = 0; k < count; ++k) points[k] = cq_laplace_point(settings, frequencies[k]);
  std::optional<BatchedLuSolver> batched;
  std::optional<StreamedLuSolver> streamed;
  if (planned >= batched_lu_min_systems)
    batched.emplace(n, cases, planned);
  else
    streamed.emplace(n, cases, solver_streams);
  const DeviceAssembly<Solution> assembly(model, points);
  const int batch = std::min(planned, frequencies_per_batch(n, cases, count, BatchedLuSolver::bytes_per_system));
  timings.batch_frequencies = batch;
  DeviceBuffer<Complex> d_matrices(static_cast<std::size_t>(batch) * n * n),
      d_rhs(static_cast<std::size_t>(batch) * n * cases);
  DeviceBuffer<int> d_info(2 * static_cast<std::size_t>(batch));
  CudaStream stream;
  CudaEvent assembled(cudaEventDisableTiming);
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
  timings.setup_seconds += seconds_since(start);

  ProgressReporter progress("geobem-bem: CQ frequencies (assemble + solve)", count, "frequencies", options.quiet);
  std::vector<int> info(2 * batch);
  for (int first = 0; first < count; first += batch) {
    const int size = std::min(batch, count - first);
    start = std::chrono::steady_clock::now();
    // One assembly launch, then one LU of the whole batch. Measured on an
    // H100 (1,008 rod, 171 frequencies): assembling chunks of 16 frequencies
    // while the previous chunk was factorised took 2.27 s in all, against
    // 1.82 s for one launch and 0.13 s for the batched LU of all 171; the LU
    // of 16 systems fills only 16 SMs.
    GEOBEM_CUDA_CHECK(cudaMemsetAsync(d_info.data(), 0, sizeof(int) * 2 * size, stream.get()));
    assembly.launch(first, size, d_matrices.data(), d_rhs.data(), stream.get());
    assembled.record(stream.get());
    stream.synchronize();
    timings.assembly_seconds += seconds_since(start);
    timings.matrix_entries += static_cast<std::uint64_t>(size) * n * n;
    start = std::chrono::steady_clock::now();
    if (batched) {
      batched->enqueue(d_matrices.data(), d_rhs.data(), size, d_info.data(), assembled.get());
      batched->synchronize();
    } else {
      streamed->enqueue(d_matrices.data(), d_rhs.data(), size, d_info.data(), assembled.get());
      streamed->synchronize();
    }
    GEOBEM_CUDA_CHECK(cudaMemcpy(info.data(), d_info.data(), sizeof(int) * 2 * size, cudaMemcpyDeviceToHost));
    // info[f]: the factorisation's status; info[size + f]: the solve's (the
    // batched LU eliminates the right-hand sides as it factorises, and
    // leaves it 0).
    const LuRoutine& factorisation = batched ? batched_lu_factorisation() : cusolver_zgetrf();
    for (int f = 0; f < size; ++f) {
      if (info[f] != 0)
        throw std::runtime_error(lu_failure_message(frequencies[first + f], factorisation, info[f]));
      if (info[size + f] != 0)
        throw std::runtime_error(lu_failure_message(frequencies[first + f], cusolver_zgetrs(), info[size + f]));
    }
    // x̂ straight into the solution, one strided copy per load case: case c
    // of system f is column c of d_rhs's block f (n · cases values), and the
    // solution holds case c's frequencies one after another.
    for (int c = 0; c < cases; ++c)
      GEOBEM_CUDA_CHECK(cudaMemcpy2D(&solution.at(c, first, 0), sizeof(Complex) * n,
                                     d_rhs.data() + static_cast<std::size_t>(c) * n, sizeof(Complex) * n * cases,
                                     sizeof(Complex) * n, size, cudaMemcpyDeviceToHost));
    timings.solve_seconds += seconds_since(start);
    progress.advance(size);
  }
  progress.finish();
  return solution;
}

template void assemble_systems_cuda<ElastodynamicFullSpace>(const BemModel&, const std::vector<Complex>&,
                                                            std::vector<std::vector<Complex>>&,
                                                            std::vector<std::vector<Complex>>&, int);
template CqTimings assemble_cq_systems_cuda<ElastodynamicFullSpace>(const BemModel&, const CqSettings&,
                                                                    const CqOptions&, const CqSystemSink&);
template LaplaceSolution solve_laplace_cuda<ElastodynamicFullSpace>(const BemModel&, const CqSettings&,
                                                                    const std::vector<int>&, const CqOptions&,
                                                                    CqTimings&);

}  // namespace geobem::bem
