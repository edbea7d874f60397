// CUDA path: the pair kernel of collocation_pair.hpp on a grid of
// (collocation point × element) threads per frequency (blockIdx.y), atomics
// for the shared node columns; cuSOLVER getrf/getrs per frequency; cuFFT for
// both CQ transforms.
#include <cuda_runtime.h>
#include <cufft.h>
#include <cusolverDn.h>

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

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
__global__ void assembly_kernel(ModelView mv, const QuadratureTable* table, const Complex* s, const Complex* loads,
                                Complex* matrices, Complex* rhs) {
  const long pair = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (pair >= static_cast<long>(mv.collocation_count) * mv.element_count) return;
  const int f = blockIdx.y;
  const long n = mv.unknown_count;
  const int p = static_cast<int>(pair / mv.element_count), e = static_cast<int>(pair % mv.element_count);
  DynamicIntegrand integrand;
  if (!integrate_pair(mv, p, e, s[f], *table, integrand)) return;
  AtomicAdder adder{matrices + f * n * n, rhs + f * n, n};
  scatter_pair(mv, p, e, integrand, loads[f], adder);
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
                     const Complex* loads, int count, Complex* matrices, Complex* rhs) {
  const long n = dm.view.unknown_count;
  GEOBEM_CUDA_CHECK(cudaMemset(matrices, 0, sizeof(Complex) * n * n * count));
  GEOBEM_CUDA_CHECK(cudaMemset(rhs, 0, sizeof(Complex) * n * count));
  const long pairs = static_cast<long>(dm.view.collocation_count) * dm.view.element_count;
  assembly_kernel<<<dim3(blocks_for(pairs, 128), count), 128>>>(dm.view, table, s, loads, matrices, rhs);
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

}  // namespace

void assemble_systems_cuda(const BemModel& model, const std::vector<Complex>& s, const std::vector<Complex>& loads,
                           std::vector<std::vector<Complex>>& matrices, std::vector<std::vector<Complex>>& rhs) {
  const DeviceModel dm(model);
  const DeviceArray<QuadratureTable> table(std::vector<QuadratureTable>{make_quadrature_table()});
  const long n = model.unknown_count();
  const int count = static_cast<int>(s.size());
  DeviceArray<double> sums(9 * static_cast<std::size_t>(std::max(1, dm.view.free_node_count)));
  DeviceArray<Complex> d_s(s), d_loads(loads), d_matrices(n * n * count), d_rhs(n * count);
  compute_rigid_body_sums(dm, table.data, sums.data);
  launch_assembly(dm, table.data, sums.data, d_s.data, d_loads.data, count, d_matrices.data, d_rhs.data);
  matrices.assign(count, std::vector<Complex>(n * n));
  rhs.assign(count, std::vector<Complex>(n));
  for (int f = 0; f < count; ++f) {
    GEOBEM_CUDA_CHECK(cudaMemcpy(matrices[f].data(), d_matrices.data + f * n * n, sizeof(Complex) * n * n,
                                 cudaMemcpyDeviceToHost));
    GEOBEM_CUDA_CHECK(cudaMemcpy(rhs[f].data(), d_rhs.data + f * n, sizeof(Complex) * n, cudaMemcpyDeviceToHost));
  }
}

CqResult solve_cq_cuda(const BemModel& model, const CqSettings& settings, const std::vector<double>& load_history,
                       const CqOptions& options) {
  check_cq_settings(settings);
  const int length = settings.steps + 1, frequencies = cq_frequency_count(settings);
  if (static_cast<int>(load_history.size()) != length)
    throw std::invalid_argument("load history has " + std::to_string(load_history.size()) +
                                " values, expected N + 1 = " + std::to_string(length));
  CqResult result;
  const long n = model.unknown_count();
  const double radius = cq_radius(settings);

  // Forward transform of the load history on the GPU: ĝ_l = conj(D2Z(R^j g_j)).
  auto start = std::chrono::steady_clock::now();
  std::vector<double> scaled(length);
  for (int j = 0; j < length; ++j) scaled[j] = std::pow(radius, j) * load_history[j];
  DeviceArray<double> d_history(scaled);
  DeviceArray<Complex> d_loads(length / 2 + 1);
  cufftHandle forward;
  GEOBEM_CUFFT_CHECK(cufftPlan1d(&forward, length, CUFFT_D2Z, 1));
  GEOBEM_CUFFT_CHECK(cufftExecD2Z(forward, d_history.data, reinterpret_cast<cufftDoubleComplex*>(d_loads.data)));
  GEOBEM_CUFFT_CHECK(cufftDestroy(forward));
  conjugate_kernel<<<blocks_for(frequencies, 256), 256>>>(d_loads.data, frequencies);
  GEOBEM_CUDA_CHECK_LAUNCH();
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
  result.timings.transform_seconds += seconds_since(start);

  start = std::chrono::steady_clock::now();
  const DeviceModel dm(model);
  const DeviceArray<QuadratureTable> table(std::vector<QuadratureTable>{make_quadrature_table()});
  DeviceArray<double> sums(9 * static_cast<std::size_t>(std::max(1, dm.view.free_node_count)));
  compute_rigid_body_sums(dm, table.data, sums.data);
  std::vector<Complex> s(frequencies);
  for (int l = 0; l < frequencies; ++l) s[l] = cq_laplace_point(settings, l);
  DeviceArray<Complex> d_s(s), d_solutions(static_cast<std::size_t>(frequencies) * n);
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
  result.timings.assembly_seconds += seconds_since(start);

  cusolverDnHandle_t solver;
  GEOBEM_CUSOLVER_CHECK(cusolverDnCreate(&solver));
  int workspace_size = 0;
  {
    // Workspace query on a null matrix pointer is allowed for getrf's buffer size.
    GEOBEM_CUSOLVER_CHECK(cusolverDnZgetrf_bufferSize(solver, n, n, nullptr, n, &workspace_size));
  }
  // Batch as many frequencies as fit in 80% of free memory; refuse if one does not.
  std::size_t free_bytes = 0, total_bytes = 0;
  GEOBEM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t per_frequency = sizeof(Complex) * (n * n + n);
  const std::size_t fixed = sizeof(Complex) * static_cast<std::size_t>(workspace_size) + sizeof(int) * (n + 1);
  if (per_frequency + fixed > free_bytes * 8 / 10) {
    cusolverDnDestroy(solver);
    throw std::runtime_error("the BEM system of " + std::to_string(n) + " unknowns needs " +
                             std::to_string(per_frequency + fixed) + " bytes of device memory per frequency; " +
                             std::to_string(free_bytes) + " bytes are free");
  }
  const int batch = static_cast<int>(
      std::min<std::size_t>(frequencies, (free_bytes * 8 / 10 - fixed) / per_frequency));
  DeviceArray<Complex> d_matrices(static_cast<std::size_t>(batch) * n * n), d_rhs(static_cast<std::size_t>(batch) * n),
      workspace(std::max(1, workspace_size));
  DeviceArray<int> pivots(n), info(1);
  ProgressReporter progress("geobem-bem: CQ frequencies (assemble + solve)", frequencies, "frequencies", options.quiet);
  for (int first = 0; first < frequencies; first += batch) {
    const int count = std::min(batch, frequencies - first);
    start = std::chrono::steady_clock::now();
    launch_assembly(dm, table.data, sums.data, d_s.data + first, d_loads.data + first, count, d_matrices.data,
                    d_rhs.data);
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    result.timings.assembly_seconds += seconds_since(start);
    result.timings.matrix_entries += static_cast<std::uint64_t>(count) * n * n;
    start = std::chrono::steady_clock::now();
    for (int f = 0; f < count; ++f) {
      auto* a = reinterpret_cast<cuDoubleComplex*>(d_matrices.data + static_cast<std::size_t>(f) * n * n);
      auto* b = reinterpret_cast<cuDoubleComplex*>(d_rhs.data + static_cast<std::size_t>(f) * n);
      GEOBEM_CUSOLVER_CHECK(cusolverDnZgetrf(solver, n, n, a, n, reinterpret_cast<cuDoubleComplex*>(workspace.data),
                                             pivots.data, info.data));
      int status = 0;
      GEOBEM_CUDA_CHECK(cudaMemcpy(&status, info.data, sizeof(int), cudaMemcpyDeviceToHost));
      if (status != 0) {
        cusolverDnDestroy(solver);
        throw std::runtime_error("cuSOLVER getrf: singular BEM system at CQ frequency " +
                                 std::to_string(first + f) + " (info " + std::to_string(status) + ")");
      }
      GEOBEM_CUSOLVER_CHECK(cusolverDnZgetrs(solver, CUBLAS_OP_N, n, 1, a, n, pivots.data, b, n, info.data));
      GEOBEM_CUDA_CHECK(cudaMemcpy(d_solutions.data + static_cast<std::size_t>(first + f) * n, b,
                                   sizeof(Complex) * n, cudaMemcpyDeviceToDevice));
    }
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    result.timings.solve_seconds += seconds_since(start);
    progress.advance(count);
  }
  progress.finish();
  GEOBEM_CUSOLVER_CHECK(cusolverDnDestroy(solver));

  // Inverse transform: x_n = R^{−n}/L · Z2D(conj(x̂))_n, batched over the n unknowns.
  start = std::chrono::steady_clock::now();
  const long values = static_cast<long>(frequencies) * n;
  conjugate_kernel<<<blocks_for(values, 256), 256>>>(d_solutions.data, values);
  GEOBEM_CUDA_CHECK_LAUNCH();
  DeviceArray<double> d_time(static_cast<std::size_t>(length) * n);
  cufftHandle inverse;
  int dims[1] = {length};
  GEOBEM_CUFFT_CHECK(cufftPlanMany(&inverse, 1, dims, dims, static_cast<int>(n), 1, dims, static_cast<int>(n), 1,
                                   CUFFT_Z2D, static_cast<int>(n)));
  GEOBEM_CUFFT_CHECK(
      cufftExecZ2D(inverse, reinterpret_cast<cufftDoubleComplex*>(d_solutions.data), d_time.data));
  GEOBEM_CUFFT_CHECK(cufftDestroy(inverse));
  for (int t = 0; t < length; ++t) {
    scale_kernel<<<blocks_for(n, 256), 256>>>(d_time.data + static_cast<std::size_t>(t) * n, n,
                                              std::pow(radius, -t) / length);
    GEOBEM_CUDA_CHECK_LAUNCH();
  }
  result.unknowns.resize(static_cast<std::size_t>(length) * n);
  GEOBEM_CUDA_CHECK(cudaMemcpy(result.unknowns.data(), d_time.data, sizeof(double) * result.unknowns.size(),
                               cudaMemcpyDeviceToHost));
  result.timings.transform_seconds += seconds_since(start);
  return result;
}

}  // namespace geobem::bem
