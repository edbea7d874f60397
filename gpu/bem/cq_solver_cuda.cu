// CUDA path of solve_laplace: batches of CQ frequencies. Per batch one
// assembly launch, a thread block per (collocation point, frequency) that owns
// its three matrix rows: the block sorts its pairs by quadrature point count,
// then its warps take them costliest first, the costly ones (ξ on the
// element, or more than 128 points) one pair per warp with the points split
// over its lanes, the others 32 of like cost at a time, one per lane, so that
// a warp's lanes finish together (pair_rounds.cuh). They add into the rows held in shared memory
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
#include "gpu/bem/pair_rounds.cuh"
#include "gpu/bem/streamed_lu.hpp"
#include "gpu/core/cuda_check.hpp"
#include "gpu/core/cuda_event.hpp"
#include "gpu/core/cuda_stream.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/core/seconds_since.hpp"

namespace geobem::bem {

namespace {

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

/// The pairs of collocation point p with the elements that add to column
/// tile `tile`, not decayed at s; the flag: the element's first tile (it adds
/// the right-hand side there).
template <class Solution>
struct DenseTileSource {
  const ModelView& mv;
  int p, tile, tile_columns;
  Complex s;
  __device__ int count() const { return mv.element_count; }
  __device__ int element(int index) const { return index; }
  __device__ bool take(int e, PairRule& rule, bool& first_tile) const {
    int first, last;
    element_tiles(mv, e, tile_columns, first, last);
    first_tile = tile == first;
    return tile >= first && tile <= last && pair_rule<Solution>(mv, p, e, s, rule);
  }
};

/// Scatters a pair into the block's rows in shared memory (SharedRowAdder).
struct SharedRowSink {
  const ModelView& mv;
  int p;
  SharedRowAdder adder;
  template <class Integrand>
  __device__ void add(int, int e, const Integrand& integrand, bool add_rhs) {
    adder.add_rhs = add_rhs;
    scatter_pair(mv, p, e, integrand, adder);
  }
};

/// Block (p, f): rows 3p..3p+2 of frequency f's matrix and right-hand sides.
/// Matrices column-major n×n, right-hand sides n × cases, one after the other per frequency.
template <class Solution>
__global__ void __launch_bounds__(assembly_threads) assembly_kernel(ModelView mv, const QuadratureTable* table, const double* rigid_body_sums,
                                const Complex* s, int tile_columns, Complex* matrices, Complex* rhs) {
  extern __shared__ Complex rows[];
  const int p = blockIdx.x, f = blockIdx.y;
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
    const DenseTileSource<Solution> source{mv, p, tile, tile_columns, s[f]};
    SharedRowSink sink{mv, p, SharedRowAdder{rows, p, first_column, tile_columns, false}};
    integrate_in_rounds<Solution>(mv, p, s[f], *table, source, sink);
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
        sums(rigid_body_sums_cuda<Solution>(model)),
        s(laplace_points),
        tile_columns(tile_columns_for(dm.view.unknown_count, dm.view.load_case_count)) {
    if (tile_cap > 0) tile_columns = std::min(tile_columns, tile_cap - tile_cap % 3);
    if (tile_columns < 3) throw InputError("assembly tile of " + std::to_string(tile_columns) + " columns");
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
std::vector<double> rigid_body_sums_cuda(const BemModel& model) {
  const DeviceModel dm(model);
  const DeviceBuffer<QuadratureTable> table(std::vector<QuadratureTable>{make_quadrature_table()});
  DeviceBuffer<double> sums(9 * static_cast<std::size_t>(dm.view.free_node_count));
  std::vector<double> host;
  if (dm.view.free_node_count > 0) {
    rigid_body_kernel<Solution><<<dm.view.free_node_count, assembly_threads>>>(dm.view, table.data(), sums.data());
    GEOBEM_CUDA_CHECK_LAUNCH();
    host = sums.to_host();
  }
  Solution::apply_free_term(model, host);
  return host;
}

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
  LaplaceSolution solution = LaplaceSolution::zeros(n, cases, frequencies);
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

template std::vector<double> rigid_body_sums_cuda<ElastodynamicFullSpace>(const BemModel&);
template void assemble_systems_cuda<ElastodynamicFullSpace>(const BemModel&, const std::vector<Complex>&,
                                                            std::vector<std::vector<Complex>>&,
                                                            std::vector<std::vector<Complex>>&, int);
template CqTimings assemble_cq_systems_cuda<ElastodynamicFullSpace>(const BemModel&, const CqSettings&,
                                                                    const CqOptions&, const CqSystemSink&);
template LaplaceSolution solve_laplace_cuda<ElastodynamicFullSpace>(const BemModel&, const CqSettings&,
                                                                    const std::vector<int>&, const CqOptions&,
                                                                    CqTimings&);

}  // namespace geobem::bem
