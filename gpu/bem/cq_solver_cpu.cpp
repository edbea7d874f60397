// OpenMP assembly over collocation rows (each thread owns its rows: no
// atomics), LAPACK zgesv per frequency, FFTW transforms.
#include <lapacke.h>
#include <omp.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "gpu/bem/collocation_pair.hpp"
#include "gpu/bem/cq_solver.hpp"
#include "gpu/core/progress.hpp"

namespace geobem::bem {

namespace {

struct RowAdder {
  Complex* matrix_data;
  Complex* rhs_data;
  long n;
  void matrix(int row, int column, Complex value) { matrix_data[row + column * n] += value; }
  void rhs(int row, Complex value) { rhs_data[row] += value; }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::vector<double> rigid_body_sums_cpu(const BemModel& model) {
  const ModelView mv = model.view();
  const QuadratureTable table = make_quadrature_table();
  std::vector<double> sums(9 * static_cast<std::size_t>(mv.free_node_count), 0.0);
#pragma omp parallel for schedule(dynamic, 4)
  for (int p = 0; p < mv.free_node_count; ++p)
    for (int e = 0; e < mv.element_count; ++e) {
      StaticIntegrand integrand;
      integrate_pair_static(mv, p, e, table, integrand);
      for (int k = 0; k < 9; ++k) sums[9 * p + k] += integrand.s0[k / 3][k % 3];
    }
  return sums;
}

void assemble_system_cpu(const BemModel& model, const std::vector<double>& rigid_body_sums, Complex s,
                         std::vector<Complex>& matrix, std::vector<Complex>& rhs, int* threads_used) {
  const ModelView mv = model.view();
  const long n = mv.unknown_count;
  matrix.assign(n * n, Complex());
  rhs.assign(n, Complex());
  static const QuadratureTable table = make_quadrature_table();
  RowAdder adder{matrix.data(), rhs.data(), n};
  int threads = 1;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
#pragma omp for schedule(dynamic, 2)
    for (int p = 0; p < mv.collocation_count; ++p) {
      RowAdder local = adder;
      for (int e = 0; e < mv.element_count; ++e) {
        DynamicIntegrand integrand;
        if (integrate_pair(mv, p, e, s, table, integrand)) scatter_pair(mv, p, e, integrand, local);
      }
      if (p < mv.free_node_count)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) local.matrix(3 * p + i, 3 * p + j, Complex(-rigid_body_sums[9 * p + 3 * i + j]));
    }
  }
  if (threads_used) *threads_used = threads;
}

CqTimings assemble_cq_systems(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                              const CqSystemSink& sink) {
  check_cq_settings(settings);
  if (options.device == ComputeDevice::Cuda) return assemble_cq_systems_cuda(model, settings, options, sink);
  CqTimings timings;
  const int frequencies = cq_frequency_count(settings);
  const long n = model.unknown_count();
  auto start = std::chrono::steady_clock::now();
  const std::vector<double> sums = rigid_body_sums_cpu(model);
  timings.assembly_seconds += seconds_since(start);
  ProgressReporter progress("geobem-bem: CQ frequencies (assemble)", frequencies, "frequencies", options.quiet);
  std::vector<Complex> matrix, rhs;
  for (int l = 0; l < frequencies; ++l) {
    start = std::chrono::steady_clock::now();
    assemble_system_cpu(model, sums, cq_laplace_point(settings, l), matrix, rhs, &timings.cpu_threads);
    timings.assembly_seconds += seconds_since(start);
    timings.matrix_entries += static_cast<std::uint64_t>(n) * n;
    sink(l, matrix, rhs);
    progress.advance(1);
  }
  progress.finish();
  return timings;
}

CqResult solve_cq_systems(int unknown_count, const CqSettings& settings, const std::vector<double>& load_history,
                          const CqSystemSource& source, const CqOptions& options) {
  check_cq_settings(settings);
  if (options.device == ComputeDevice::Cuda)
    return solve_cq_systems_cuda(unknown_count, settings, load_history, source, options);
  CqResult result;
  const int n = unknown_count, frequencies = cq_frequency_count(settings);

  auto start = std::chrono::steady_clock::now();
  const std::vector<Complex> loads = cq_forward_transform(load_history, settings);
  result.timings.transform_seconds += seconds_since(start);

  std::vector<Complex> solutions(static_cast<std::size_t>(frequencies) * n);
  ProgressReporter progress("geobem-bem: CQ frequencies (solve)", frequencies, "frequencies", options.quiet);
  std::vector<Complex> matrix, rhs;
  std::vector<lapack_int> pivots(n);
  for (int l = 0; l < frequencies; ++l) {
    start = std::chrono::steady_clock::now();
    source(l, matrix, rhs);
    if (matrix.size() != static_cast<std::size_t>(n) * n || rhs.size() != static_cast<std::size_t>(n))
      throw std::invalid_argument("CQ frequency " + std::to_string(l) + ": system of " + std::to_string(rhs.size()) +
                                  " rows, expected " + std::to_string(n));
    result.timings.assembly_seconds += seconds_since(start);
    result.timings.matrix_entries += static_cast<std::uint64_t>(n) * n;
    start = std::chrono::steady_clock::now();
    for (Complex& value : rhs) value = loads[l] * value;
    const lapack_int info = LAPACKE_zgesv(LAPACK_COL_MAJOR, n, 1, reinterpret_cast<lapack_complex_double*>(matrix.data()),
                                          n, pivots.data(), reinterpret_cast<lapack_complex_double*>(rhs.data()), n);
    if (info != 0)
      throw std::runtime_error("LAPACK zgesv failed at CQ frequency " + std::to_string(l) + " (info " +
                               std::to_string(info) + "): singular BEM system");
    result.timings.solve_seconds += seconds_since(start);
    std::copy(rhs.begin(), rhs.end(), solutions.begin() + static_cast<std::size_t>(l) * n);
    progress.advance(1);
  }
  progress.finish();
  start = std::chrono::steady_clock::now();
  result.unknowns = cq_inverse_transform(solutions, n, settings);
  result.timings.transform_seconds += seconds_since(start);
  return result;
}

CqResult solve_cq(const BemModel& model, const CqSettings& settings, const std::vector<double>& load_history,
                  const CqOptions& options) {
  check_cq_settings(settings);
  if (options.device == ComputeDevice::Cuda) return solve_cq_cuda(model, settings, load_history, options);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<double> sums = rigid_body_sums_cpu(model);
  const double sums_seconds = seconds_since(start);
  int threads = 1;
  CqResult result = solve_cq_systems(
      model.unknown_count(), settings, load_history,
      [&](int l, std::vector<Complex>& matrix, std::vector<Complex>& rhs) {
        assemble_system_cpu(model, sums, cq_laplace_point(settings, l), matrix, rhs, &threads);
      },
      options);
  result.timings.assembly_seconds += sums_seconds;
  result.timings.cpu_threads = threads;
  return result;
}

}  // namespace geobem::bem
