// CUDA path: the pair kernel of collocation_pair.hpp on a grid of
// (collocation point × element) threads per frequency (blockIdx.y), atomics
// for the shared node columns; cuSOLVER getrf/getrs per frequency; cuFFT for
// both CQ transforms. DeviceCqSolve is the one solve/transform path, fed by
// device-assembled batches (solve_cq) or by systems from the host
// (solve_cq_systems, e.g. read from files).
#include <cuda_runtime.h>
#include <cufft.h>
#include <cusolverDn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/bem/collocation_pair.hpp"
#include "gpu/bem/cq_solver.hpp"
#include "gpu/core/cuda_check.hpp"
#include "gpu/core/cufft_check.hpp"
#include "gpu/core/cusolver_check.hpp"
#include "gpu/core/progress.hpp"

namespace geobem::bem {

namespace {

/// A device copy of a host vector, freed on destruction.
template <class T>
struct DeviceArray {
  T* data = nullptr;
  std::size_t size = 0;
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) : size(count) {
    if (count) GEOBEM_CUDA_CHECK(cudaMalloc(&data, count * sizeof(T)));
  }
  explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) {
    if (size) GEOBEM_CUDA_CHECK(cudaMemcpy(data, host.data(), size * sizeof(T), cudaMemcpyHostToDevice));
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray& operator=(DeviceArray&& other) noexcept {
    std::swap(data, other.data);
    std::swap(size, other.size);
    return *this;
  }
  ~DeviceArray() { cudaFree(data); }
};

/// Device copies of a BemModel's arrays and a ModelView of them.
struct DeviceModel {
  DeviceArray<Vec3> nodes, normals, centroids, points, traction;
  DeviceArray<int> triangles, colloc_node, colloc_element, node_block, element_block;
  DeviceArray<double> areas, edges;
  ModelView view;
  explicit DeviceModel(const BemModel& m)
      : nodes(m.nodes), normals(m.normals), centroids(m.centroids), points(m.collocation_points),
        traction(m.element_traction), triangles(m.triangles), colloc_node(m.collocation_node),
        colloc_element(m.collocation_element), node_block(m.node_block), element_block(m.element_block),
        areas(m.areas), edges(m.longest_edges) {
    view = m.view();
    view.nodes = nodes.data;
    view.normals = normals.data;
    view.centroids = centroids.data;
    view.collocation_points = points.data;
    view.element_traction = traction.data;
    view.triangles = triangles.data;
    view.collocation_node = colloc_node.data;
    view.collocation_element = colloc_element.data;
    view.node_block = node_block.data;
    view.element_block = element_block.data;
    view.areas = areas.data;
    view.longest_edges = edges.data;
  }
};

struct AtomicAdder {
  Complex* matrix_data;
  Complex* rhs_data;
  long n;
  __device__ void matrix(int row, int column, Complex value) {
    double* target = reinterpret_cast<double*>(matrix_data + row + column * n);
    atomicAdd(target, value.re);
    atomicAdd(target + 1, value.im);
  }
  __device__ void rhs(int row, Complex value) {
    double* target = reinterpret_cast<double*>(rhs_data + row);
    atomicAdd(target, value.re);
    atomicAdd(target + 1, value.im);
  }
};

__global__ void rigid_body_kernel(ModelView mv, const QuadratureTable* table, double* sums) {
  const long pair = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (pair >= static_cast<long>(mv.free_node_count) * mv.element_count) return;
  const int p = static_cast<int>(pair / mv.element_count), e = static_cast<int>(pair % mv.element_count);
  StaticIntegrand integrand;
  integrate_pair_static(mv, p, e, *table, integrand);
  for (int k = 0; k < 9; ++k) atomicAdd(sums + 9 * p + k, integrand.s0[k / 3][k % 3]);
}

/// Frequency f = blockIdx.y of the batch; thread = one (p, e) pair.
__global__ void assembly_kernel(ModelView mv, const QuadratureTable* table, const Complex* s, Complex* matrices,
                                Complex* rhs) {
  const long pair = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (pair >= static_cast<long>(mv.collocation_count) * mv.element_count) return;
  const int f = blockIdx.y;
  const long n = mv.unknown_count;
  const int p = static_cast<int>(pair / mv.element_count), e = static_cast<int>(pair % mv.element_count);
  DynamicIntegrand integrand;
  if (!integrate_pair(mv, p, e, s[f], *table, integrand)) return;
  AtomicAdder adder{matrices + f * n * n, rhs + f * n, n};
  scatter_pair(mv, p, e, integrand, adder);
}

/// A(3p+i, 3p+j) −= S0_p[i][j] for the node rows of every matrix of the batch.
__global__ void free_term_kernel(int free_nodes, long n, const double* sums, Complex* matrices) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= 9 * free_nodes) return;
  const int p = k / 9, i = (k % 9) / 3, j = k % 3;
  Complex* a = matrices + blockIdx.y * n * n;
  a[(3 * p + i) + (3 * p + j) * n].re -= sums[k];
}

__global__ void conjugate_kernel(Complex* data, long count) {
  const long k = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (k < count) data[k].im = -data[k].im;
}

/// b *= ĝ_l (one value on the device): the unit-load right-hand side times the transformed load.
__global__ void scale_by_load_kernel(Complex* b, long count, const Complex* load) {
  const long k = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (k < count) b[k] = *load * b[k];
}

__global__ void scale_kernel(double* data, long count, double value) {
  const long k = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (k < count) data[k] *= value;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

unsigned blocks_for(long count, int threads) { return static_cast<unsigned>((count + threads - 1) / threads); }

/// Assembles `count` frequencies into device arrays (zeroed here).
void launch_assembly(const DeviceModel& dm, const QuadratureTable* table, const double* sums, const Complex* s,
                     int count, Complex* matrices, Complex* rhs) {
  const long n = dm.view.unknown_count;
  GEOBEM_CUDA_CHECK(cudaMemset(matrices, 0, sizeof(Complex) * n * n * count));
  GEOBEM_CUDA_CHECK(cudaMemset(rhs, 0, sizeof(Complex) * n * count));
  const long pairs = static_cast<long>(dm.view.collocation_count) * dm.view.element_count;
  assembly_kernel<<<dim3(blocks_for(pairs, 128), count), 128>>>(dm.view, table, s, matrices, rhs);
  GEOBEM_CUDA_CHECK_LAUNCH();
  if (dm.view.free_node_count > 0) {
    free_term_kernel<<<dim3(blocks_for(9L * dm.view.free_node_count, 256), count), 256>>>(dm.view.free_node_count, n,
                                                                                        sums, matrices);
    GEOBEM_CUDA_CHECK_LAUNCH();
  }
}

void compute_rigid_body_sums(const DeviceModel& dm, const QuadratureTable* table, double* sums) {
  GEOBEM_CUDA_CHECK(cudaMemset(sums, 0, sizeof(double) * 9 * dm.view.free_node_count));
  const long pairs = static_cast<long>(dm.view.free_node_count) * dm.view.element_count;
  if (pairs == 0) return;
  rigid_body_kernel<<<blocks_for(pairs, 128), 128>>>(dm.view, table, sums);
  GEOBEM_CUDA_CHECK_LAUNCH();
}

/// What every assembly launch reads, on the device: the model, the quadrature
/// table, the rigid-body sums (computed once) and the Laplace points s_l.
struct DeviceAssembly {
  DeviceModel dm;
  DeviceArray<QuadratureTable> table;
  DeviceArray<double> sums;
  DeviceArray<Complex> s;
  DeviceAssembly(const BemModel& model, const std::vector<Complex>& laplace_points)
      : dm(model),
        table(std::vector<QuadratureTable>{make_quadrature_table()}),
        sums(9 * static_cast<std::size_t>(std::max(1, dm.view.free_node_count))),
        s(laplace_points) {
    compute_rigid_body_sums(dm, table.data, sums.data);
  }
  /// Systems of the points first..first+count-1 into matrices (count·n·n) and rhs (count·n).
  void launch(int first, int count, Complex* matrices, Complex* rhs) const {
    launch_assembly(dm, table.data, sums.data, s.data + first, count, matrices, rhs);
  }
};

/// The Laplace points s_l of every CQ frequency.
std::vector<Complex> cq_laplace_points(const CqSettings& settings) {
  std::vector<Complex> s(cq_frequency_count(settings));
  for (int l = 0; l < static_cast<int>(s.size()); ++l) s[l] = cq_laplace_point(settings, l);
  return s;
}

std::size_t free_device_bytes() {
  std::size_t free_bytes = 0, total_bytes = 0;
  GEOBEM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

std::size_t system_bytes(long n) { return sizeof(Complex) * static_cast<std::size_t>(n * n + n); }

/// The solve and both transforms of the CUDA path: ĝ by cuFFT at
/// construction, then solve(l, A, b) per frequency (b ← ĝ_l b, getrf, getrs,
/// x̂_l kept on the device), then inverse_transform().
class DeviceCqSolve {
 public:
  DeviceCqSolve(long n, const CqSettings& settings, const std::vector<double>& load_history, CqTimings& timings)
      : n_(n), settings_(settings), frequencies_(cq_frequency_count(settings)), timings_(timings),
        solutions_(static_cast<std::size_t>(frequencies_) * n), pivots_(n), info_(1) {
    const int length = settings.steps + 1;
    if (static_cast<int>(load_history.size()) != length)
      throw std::invalid_argument("load history has " + std::to_string(load_history.size()) +
                                  " values, expected N + 1 = " + std::to_string(length));
    // Forward transform of the load history: ĝ_l = conj(D2Z(R^j g_j)).
    const auto start = std::chrono::steady_clock::now();
    const double radius = cq_radius(settings);
    std::vector<double> scaled(length);
    for (int j = 0; j < length; ++j) scaled[j] = std::pow(radius, j) * load_history[j];
    DeviceArray<double> d_history(scaled);
    loads_ = DeviceArray<Complex>(length / 2 + 1);
    cufftHandle forward;
    GEOBEM_CUFFT_CHECK(cufftPlan1d(&forward, length, CUFFT_D2Z, 1));
    const cufftResult status =
        cufftExecD2Z(forward, d_history.data, reinterpret_cast<cufftDoubleComplex*>(loads_.data));
    cufftDestroy(forward);
    GEOBEM_CUFFT_CHECK(status);
    conjugate_kernel<<<blocks_for(frequencies_, 256), 256>>>(loads_.data, frequencies_);
    GEOBEM_CUDA_CHECK_LAUNCH();
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    timings_.transform_seconds += seconds_since(start);

    GEOBEM_CUSOLVER_CHECK(cusolverDnCreate(&solver_));
    int workspace_size = 0;
    // Workspace query on a null matrix pointer is allowed for getrf's buffer size.
    GEOBEM_CUSOLVER_CHECK(cusolverDnZgetrf_bufferSize(solver_, n, n, nullptr, n, &workspace_size));
    workspace_ = DeviceArray<Complex>(std::max(1, workspace_size));
  }
  ~DeviceCqSolve() { cusolverDnDestroy(solver_); }
  DeviceCqSolve(const DeviceCqSolve&) = delete;
  DeviceCqSolve& operator=(const DeviceCqSolve&) = delete;

  /// Device bytes this object holds besides the systems.
  std::size_t bytes() const {
    return sizeof(Complex) * (solutions_.size + workspace_.size + loads_.size) + sizeof(int) * (n_ + 1);
  }

  /// Solves A x̂_l = ĝ_l b in place (a: n×n column-major, b: n; device memory).
  void solve(int l, Complex* a, Complex* b) {
    const auto start = std::chrono::steady_clock::now();
    scale_by_load_kernel<<<blocks_for(n_, 256), 256>>>(b, n_, loads_.data + l);
    GEOBEM_CUDA_CHECK_LAUNCH();
    auto* da = reinterpret_cast<cuDoubleComplex*>(a);
    auto* db = reinterpret_cast<cuDoubleComplex*>(b);
    GEOBEM_CUSOLVER_CHECK(cusolverDnZgetrf(solver_, n_, n_, da, n_,
                                           reinterpret_cast<cuDoubleComplex*>(workspace_.data), pivots_.data,
                                           info_.data));
    int status = 0;
    GEOBEM_CUDA_CHECK(cudaMemcpy(&status, info_.data, sizeof(int), cudaMemcpyDeviceToHost));
    if (status != 0)
      throw std::runtime_error("cuSOLVER getrf: singular BEM system at CQ frequency " + std::to_string(l) +
                               " (info " + std::to_string(status) + ")");
    GEOBEM_CUSOLVER_CHECK(cusolverDnZgetrs(solver_, CUBLAS_OP_N, n_, 1, da, n_, pivots_.data, db, n_, info_.data));
    GEOBEM_CUDA_CHECK(cudaMemcpy(solutions_.data + static_cast<std::size_t>(l) * n_, b, sizeof(Complex) * n_,
                                 cudaMemcpyDeviceToDevice));
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    timings_.solve_seconds += seconds_since(start);
  }

  /// x_n = R^{−n}/L · Z2D(conj(x̂))_n, batched over the n unknowns; row-major (N+1)×n on the host.
  std::vector<double> inverse_transform() {
    const auto start = std::chrono::steady_clock::now();
    const int length = settings_.steps + 1;
    const double radius = cq_radius(settings_);
    const long values = static_cast<long>(frequencies_) * n_;
    conjugate_kernel<<<blocks_for(values, 256), 256>>>(solutions_.data, values);
    GEOBEM_CUDA_CHECK_LAUNCH();
    DeviceArray<double> d_time(static_cast<std::size_t>(length) * n_);
    cufftHandle inverse;
    int dims[1] = {length};
    GEOBEM_CUFFT_CHECK(cufftPlanMany(&inverse, 1, dims, dims, static_cast<int>(n_), 1, dims, static_cast<int>(n_), 1,
                                     CUFFT_Z2D, static_cast<int>(n_)));
    const cufftResult status =
        cufftExecZ2D(inverse, reinterpret_cast<cufftDoubleComplex*>(solutions_.data), d_time.data);
    cufftDestroy(inverse);
    GEOBEM_CUFFT_CHECK(status);
    for (int t = 0; t < length; ++t) {
      scale_kernel<<<blocks_for(n_, 256), 256>>>(d_time.data + static_cast<std::size_t>(t) * n_, n_,
                                                std::pow(radius, -t) / length);
      GEOBEM_CUDA_CHECK_LAUNCH();
    }
    std::vector<double> unknowns(static_cast<std::size_t>(length) * n_);
    GEOBEM_CUDA_CHECK(
        cudaMemcpy(unknowns.data(), d_time.data, sizeof(double) * unknowns.size(), cudaMemcpyDeviceToHost));
    timings_.transform_seconds += seconds_since(start);
    return unknowns;
  }

 private:
  long n_;
  CqSettings settings_;
  int frequencies_;
  CqTimings& timings_;
  DeviceArray<Complex> solutions_;
  DeviceArray<int> pivots_, info_;
  DeviceArray<Complex> loads_, workspace_;
  cusolverDnHandle_t solver_ = nullptr;
};

/// Frequencies per assembly batch: as many as fit in `fraction` of the free
/// device memory after `reserved` bytes; refuses with the bytes needed when
/// not even one does.
int frequencies_per_batch(long n, int frequencies, std::size_t reserved, double fraction) {
  const std::size_t free_bytes = free_device_bytes();
  const std::size_t usable = static_cast<std::size_t>(fraction * static_cast<double>(free_bytes));
  const std::size_t per_frequency = system_bytes(n);
  if (reserved + per_frequency > usable)
    throw std::runtime_error("the BEM system of " + std::to_string(n) + " unknowns needs " +
                             std::to_string(per_frequency + reserved) + " bytes of device memory per frequency; " +
                             std::to_string(free_bytes) + " bytes are free");
  return static_cast<int>(std::min<std::size_t>(frequencies, (usable - reserved) / per_frequency));
}

}  // namespace

void assemble_systems_cuda(const BemModel& model, const std::vector<Complex>& s,
                           std::vector<std::vector<Complex>>& matrices, std::vector<std::vector<Complex>>& rhs) {
  const DeviceAssembly assembly(model, s);
  const long n = model.unknown_count();
  const int count = static_cast<int>(s.size());
  DeviceArray<Complex> d_matrices(n * n * count), d_rhs(n * count);
  assembly.launch(0, count, d_matrices.data, d_rhs.data);
  matrices.assign(count, std::vector<Complex>(n * n));
  rhs.assign(count, std::vector<Complex>(n));
  for (int f = 0; f < count; ++f) {
    GEOBEM_CUDA_CHECK(cudaMemcpy(matrices[f].data(), d_matrices.data + f * n * n, sizeof(Complex) * n * n,
                                 cudaMemcpyDeviceToHost));
    GEOBEM_CUDA_CHECK(cudaMemcpy(rhs[f].data(), d_rhs.data + f * n, sizeof(Complex) * n, cudaMemcpyDeviceToHost));
  }
}

CqTimings assemble_cq_systems_cuda(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                   const CqSystemSink& sink) {
  check_cq_settings(settings);
  CqTimings timings;
  const long n = model.unknown_count();
  const int frequencies = cq_frequency_count(settings);
  auto start = std::chrono::steady_clock::now();
  const DeviceAssembly assembly(model, cq_laplace_points(settings));
  // A quarter of the free memory: the batch is also copied to the host.
  const int batch = frequencies_per_batch(n, frequencies, 0, 0.25);
  DeviceArray<Complex> d_matrices(static_cast<std::size_t>(batch) * n * n), d_rhs(static_cast<std::size_t>(batch) * n);
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
  timings.assembly_seconds += seconds_since(start);
  ProgressReporter progress("geobem-bem: CQ frequencies (assemble)", frequencies, "frequencies", options.quiet);
  std::vector<Complex> matrix(n * n), rhs(n);
  for (int first = 0; first < frequencies; first += batch) {
    const int count = std::min(batch, frequencies - first);
    start = std::chrono::steady_clock::now();
    assembly.launch(first, count, d_matrices.data, d_rhs.data);
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    timings.assembly_seconds += seconds_since(start);
    timings.matrix_entries += static_cast<std::uint64_t>(count) * n * n;
    for (int f = 0; f < count; ++f) {
      GEOBEM_CUDA_CHECK(cudaMemcpy(matrix.data(), d_matrices.data + static_cast<std::size_t>(f) * n * n,
                                   sizeof(Complex) * n * n, cudaMemcpyDeviceToHost));
      GEOBEM_CUDA_CHECK(cudaMemcpy(rhs.data(), d_rhs.data + static_cast<std::size_t>(f) * n, sizeof(Complex) * n,
                                   cudaMemcpyDeviceToHost));
      sink(first + f, matrix, rhs);
      progress.advance(1);
    }
  }
  progress.finish();
  return timings;
}

CqResult solve_cq_systems_cuda(int unknown_count, const CqSettings& settings, const std::vector<double>& load_history,
                               const CqSystemSource& source, const CqOptions& options) {
  check_cq_settings(settings);
  CqResult result;
  const long n = unknown_count;
  const int frequencies = cq_frequency_count(settings);
  DeviceCqSolve solver(n, settings, load_history, result.timings);
  frequencies_per_batch(n, 1, solver.bytes(), 0.8);
  DeviceArray<Complex> d_matrix(static_cast<std::size_t>(n) * n), d_rhs(n);
  ProgressReporter progress("geobem-bem: CQ frequencies (solve)", frequencies, "frequencies", options.quiet);
  std::vector<Complex> matrix, rhs;
  for (int l = 0; l < frequencies; ++l) {
    const auto start = std::chrono::steady_clock::now();
    source(l, matrix, rhs);
    if (matrix.size() != static_cast<std::size_t>(n) * n || rhs.size() != static_cast<std::size_t>(n))
      throw std::invalid_argument("CQ frequency " + std::to_string(l) + ": system of " + std::to_string(rhs.size()) +
                                  " rows, expected " + std::to_string(n));
    GEOBEM_CUDA_CHECK(cudaMemcpy(d_matrix.data, matrix.data(), sizeof(Complex) * n * n, cudaMemcpyHostToDevice));
    GEOBEM_CUDA_CHECK(cudaMemcpy(d_rhs.data, rhs.data(), sizeof(Complex) * n, cudaMemcpyHostToDevice));
    result.timings.assembly_seconds += seconds_since(start);
    result.timings.matrix_entries += static_cast<std::uint64_t>(n) * n;
    solver.solve(l, d_matrix.data, d_rhs.data);
    progress.advance(1);
  }
  progress.finish();
  result.unknowns = solver.inverse_transform();
  return result;
}

CqResult solve_cq_cuda(const BemModel& model, const CqSettings& settings, const std::vector<double>& load_history,
                       const CqOptions& options) {
  check_cq_settings(settings);
  CqResult result;
  const long n = model.unknown_count();
  const int frequencies = cq_frequency_count(settings);
  DeviceCqSolve solver(n, settings, load_history, result.timings);

  auto start = std::chrono::steady_clock::now();
  const DeviceAssembly assembly(model, cq_laplace_points(settings));
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
  result.timings.assembly_seconds += seconds_since(start);

  // Batch as many frequencies as fit in 80% of free memory; refuse if one does not.
  const int batch = frequencies_per_batch(n, frequencies, 0, 0.8);
  DeviceArray<Complex> d_matrices(static_cast<std::size_t>(batch) * n * n), d_rhs(static_cast<std::size_t>(batch) * n);
  ProgressReporter progress("geobem-bem: CQ frequencies (assemble + solve)", frequencies, "frequencies", options.quiet);
  for (int first = 0; first < frequencies; first += batch) {
    const int count = std::min(batch, frequencies - first);
    start = std::chrono::steady_clock::now();
    assembly.launch(first, count, d_matrices.data, d_rhs.data);
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    result.timings.assembly_seconds += seconds_since(start);
    result.timings.matrix_entries += static_cast<std::uint64_t>(count) * n * n;
    for (int f = 0; f < count; ++f)
      solver.solve(first + f, d_matrices.data + static_cast<std::size_t>(f) * n * n,
                   d_rhs.data + static_cast<std::size_t>(f) * n);
    progress.advance(count);
  }
  progress.finish();
  result.unknowns = solver.inverse_transform();
  return result;
}

}  // namespace geobem::bem
