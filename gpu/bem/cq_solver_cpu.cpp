// OpenMP assembly over collocation rows (each thread owns its rows: no
// atomics), LAPACK zgesv from OpenBLAS per frequency with one right-hand side
// per load case; the CUDA path's dispatch.
#include <omp.h>

#include <chrono>
#include <numeric>
#include <stdexcept>
#include <string>

#include "gpu/bem/collocation_pair.hpp"
#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/hierarchical_solver.hpp"
#include "gpu/bem/lu_failure.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/core/resource_error.hpp"
#include "gpu/core/seconds_since.hpp"

/// LAPACK's zgesv (Fortran interface) as OpenBLAS exports it: A X = B by LU
/// with partial pivoting; and OpenBLAS's thread count.
extern "C" void zgesv_(const int* n, const int* nrhs, void* a, const int* lda, int* ipiv, void* b, const int* ldb,
                       int* info);
extern "C" void openblas_set_num_threads(int threads);
extern "C" int openblas_get_num_threads();

namespace geobem::bem {

namespace {

struct RowAdder {
  Complex* matrix_data;
  Complex* rhs_data;
  long n;
  void matrix(int row, int column, Complex value) { matrix_data[row + column * n] += value; }
  void rhs(int row, int load_case, Complex value) { rhs_data[row + load_case * n] += value; }
};

/// 0…F−1 when `frequencies` is empty, else `frequencies` checked against F.
std::vector<int> frequencies_or_all(const std::vector<int>& frequencies, const CqSettings& settings) {
  const int count = cq_frequency_count(settings);
  if (frequencies.empty()) {
    std::vector<int> all(count);
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  for (int l : frequencies)
    if (l < 0 || l >= count)
      throw InputError("CQ frequency " + std::to_string(l) + " outside 0.." + std::to_string(count - 1));
  return frequencies;
}

}  // namespace

std::uint64_t dense_system_bytes(int unknowns, int load_cases) {
  const std::uint64_t n = static_cast<std::uint64_t>(unknowns);
  return sizeof(Complex) * (n * n + n * static_cast<std::uint64_t>(load_cases));
}

void require_dense_system_fits(int unknowns, int load_cases, std::uint64_t available_bytes, const char* where) {
  const std::uint64_t needed = dense_system_bytes(unknowns, load_cases);
  if (needed <= available_bytes) return;
  char text[400];
  std::snprintf(text, sizeof text,
                "the dense BEM system of %d unknowns needs %.4g GB (%llu bytes: n^2 + n*%d complex128) per "
                "frequency, but %s has %.4g GB (%llu bytes) available: use a coarser mesh",
                unknowns, needed / 1e9, static_cast<unsigned long long>(needed), load_cases, where,
                available_bytes / 1e9, static_cast<unsigned long long>(available_bytes));
  throw ResourceError(text);
}

template <class Solution>
std::vector<double> rigid_body_sums_cpu(const BemModel& model) {
  const ModelView mv = model.view();
  const QuadratureTable table = make_quadrature_table();
  std::vector<double> sums(9 * static_cast<std::size_t>(mv.free_node_count), 0.0);
#pragma omp parallel for schedule(dynamic, 4)
  for (int p = 0; p < mv.free_node_count; ++p)
    for (int e = 0; e < mv.element_count; ++e) {
      StaticIntegrand<Solution> integrand;
      integrate_pair_static(mv, p, e, table, integrand);
      for (int k = 0; k < 9; ++k) sums[9 * p + k] += integrand.s0[k / 3][k % 3];
    }
  Solution::apply_free_term(model, sums);
  return sums;
}

template <class Solution>
void assemble_system_cpu(const BemModel& model, const std::vector<double>& rigid_body_sums, Complex s,
                         std::vector<Complex>& matrix, std::vector<Complex>& rhs, int* threads_used) {
  const ModelView mv = model.view();
  const long n = mv.unknown_count;
  matrix.assign(n * n, Complex());
  rhs.assign(n * mv.load_case_count, Complex());
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
        DynamicIntegrand<Solution> integrand;
        if (integrate_pair(mv, p, e, s, table, integrand)) scatter_pair(mv, p, e, integrand, local);
      }
      if (p < mv.free_node_count)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) local.matrix(3 * p + i, 3 * p + j, Complex(-rigid_body_sums[9 * p + 3 * i + j]));
    }
  }
  if (threads_used) *threads_used = threads;
}

namespace {

/// The CPU path of assemble_cq_systems: one frequency after another, the
/// entries of each over OpenMP threads.
template <class Solution>
CqTimings assemble_cq_systems_cpu(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                  const CqSystemSink& sink) {
  CqTimings timings;
  const int frequencies = cq_frequency_count(settings);
  const long n = model.unknown_count();
  auto start = std::chrono::steady_clock::now();
  const std::vector<double> sums = rigid_body_sums_cpu<Solution>(model);
  timings.assembly_seconds += seconds_since(start);
  ProgressReporter progress("geobem-bem: CQ frequencies (assemble)", frequencies, "frequencies", options.quiet);
  std::vector<Complex> matrix, rhs;
  for (int l = 0; l < frequencies; ++l) {
    start = std::chrono::steady_clock::now();
    assemble_system_cpu<Solution>(model, sums, cq_laplace_point(settings, l), matrix, rhs, &timings.cpu_threads);
    timings.assembly_seconds += seconds_since(start);
    timings.matrix_entries += static_cast<std::uint64_t>(n) * n;
    sink(l, matrix, rhs);
    progress.advance(1);
  }
  progress.finish();
  return timings;
}

/// The dense CPU path of solve_laplace: each listed frequency assembled and
/// solved by LAPACK's LU (zgesv).
template <class Solution>
LaplaceSolution solve_laplace_dense_cpu(const BemModel& model, const CqSettings& settings, const std::vector<int>& list,
                                        const CqOptions& options, CqTimings& timings) {
  const int n = model.unknown_count(), cases = model.load_case_count();
  LaplaceSolution solution = LaplaceSolution::zeros(n, cases, list);
  if (list.empty() || cases == 0) return solution;

  auto start = std::chrono::steady_clock::now();
  const std::vector<double> sums = rigid_body_sums_cpu<Solution>(model);
  timings.assembly_seconds += seconds_since(start);
  ProgressReporter progress("geobem-bem: CQ frequencies (assemble + solve)", static_cast<long>(list.size()),
                            "frequencies", options.quiet);
  std::vector<Complex> matrix, rhs;
  std::vector<int> pivots(n);
  for (std::size_t k = 0; k < list.size(); ++k) {
    const int l = list[k];
    start = std::chrono::steady_clock::now();
    assemble_system_cpu<Solution>(model, sums, cq_laplace_point(settings, l), matrix, rhs, &timings.cpu_threads);
    timings.assembly_seconds += seconds_since(start);
    timings.matrix_entries += static_cast<std::uint64_t>(n) * n;
    start = std::chrono::steady_clock::now();
    int info = 0;
    // Below ~1,000 unknowns an LU is a few milliseconds: threads only add
    // barrier waits, which cost whole time slices on a loaded machine
    // (measured: n = 171 took 0.78 s per solve with 2 threads, 6 ms with 1).
    const int blas_threads = openblas_get_num_threads();
    if (n < 1000) openblas_set_num_threads(1);
    zgesv_(&n, &cases, matrix.data(), &n, pivots.data(), rhs.data(), &n, &info);
    openblas_set_num_threads(blas_threads);
    if (info != 0) throw std::runtime_error(lu_failure_message(l, lapack_zgesv(), info));
    timings.solve_seconds += seconds_since(start);
    for (int c = 0; c < cases; ++c)
      std::copy(rhs.begin() + static_cast<std::size_t>(c) * n, rhs.begin() + static_cast<std::size_t>(c + 1) * n,
                &solution.at(c, static_cast<int>(k), 0));
    progress.advance(1);
  }
  progress.finish();
  return solution;
}

}  // namespace

template <class Solution>
CqTimings assemble_cq_systems(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                              const CqSystemSink& sink) {
  check_cq_settings(settings);
  return run_on(
      options.device, "CQ-BEM", [&] { return assemble_cq_systems_cuda<Solution>(model, settings, options, sink); },
      [&] { return assemble_cq_systems_cpu<Solution>(model, settings, options, sink); });
}

template <class Solution>
LaplaceSolution solve_laplace(const BemModel& model, const CqSettings& settings, const std::vector<int>& frequencies,
                              const CqOptions& options, CqTimings& timings) {
  check_cq_settings(settings);
  const std::vector<int> list = frequencies_or_all(frequencies, settings);
  if (choose_bem_solver(options.solver, options.device, model.unknown_count(),
                        little_damped_share(model, settings, options.hierarchical.tolerance)) ==
      BemSolver::hierarchical) {
    check_compression_tolerance(options.hierarchical.tolerance);
    LaplaceSolution solution = LaplaceSolution::zeros(model.unknown_count(), model.load_case_count(), list);
    solution.solves.resize(list.size());
    if (list.empty() || model.load_case_count() == 0) return solution;
    run_on(
        options.device, "CQ-BEM",
        [&] { solve_laplace_hierarchical_cuda<Solution>(model, settings, options, solution, timings); },
        [&] { solve_laplace_hierarchical_cpu<Solution>(model, settings, options, solution, timings); });
    return solution;
  }
  return run_on(
      options.device, "CQ-BEM", [&] { return solve_laplace_cuda<Solution>(model, settings, list, options, timings); },
      [&] { return solve_laplace_dense_cpu<Solution>(model, settings, list, options, timings); });
}

template <class Solution>
CqResult solve_cq(const BemModel& model, const CqSettings& settings, const std::vector<double>& load_history,
                  const CqOptions& options) {
  CqResult result;
  const LaplaceSolution solution = solve_laplace<Solution>(model, settings, {}, options, result.timings);
  const auto start = std::chrono::steady_clock::now();
  result.unknowns = cq_time_series(solution, std::vector<std::vector<double>>(solution.load_cases, load_history), settings);
  result.timings.transform_seconds += seconds_since(start);
  return result;
}

template std::vector<double> rigid_body_sums_cpu<ElastodynamicFullSpace>(const BemModel&);
template void assemble_system_cpu<ElastodynamicFullSpace>(const BemModel&, const std::vector<double>&, Complex,
                                                          std::vector<Complex>&, std::vector<Complex>&, int*);
template CqTimings assemble_cq_systems<ElastodynamicFullSpace>(const BemModel&, const CqSettings&, const CqOptions&,
                                                               const CqSystemSink&);
template LaplaceSolution solve_laplace<ElastodynamicFullSpace>(const BemModel&, const CqSettings&,
                                                               const std::vector<int>&, const CqOptions&, CqTimings&);
template CqResult solve_cq<ElastodynamicFullSpace>(const BemModel&, const CqSettings&, const std::vector<double>&,
                                                   const CqOptions&);

}  // namespace geobem::bem
