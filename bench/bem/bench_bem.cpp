// Elastodynamic CQ-BEM benchmark on the rod (docs/references.md#rod-benchmark,
// tests/bem/rod_case.hpp), per stage: assembly, solve (LU), transform.
//   bench_bem timing cpu|cuda [max_elements_solved]
//       the paper's mesh sizes, 10 time steps, β = 0.2
//   bench_bem rod-error cpu|cuda H BETA PERIODS [RUNS]
//       free-end relative L2 error against the closed form over PERIODS periods;
//       RUNS times in one process (default 1)
//   bench_bem lu H BETA PERIODS | bench_bem lu-steps H STEPS
//       the GPU solvers alone on the case's assembled systems: the batched
//       blocked LU against cuSOLVER getrf/getrs on 16 streams (seconds,
//       fraction of the tensor-core floor, difference of the solutions,
//       backward error of each on the host)
//   bench_bem floor H BETA PERIODS | bench_bem floor-steps H STEPS
//       the work of the case (no solve): pair-frequencies, quadrature points of
//       the current plans, FP64 operations, bytes of the systems, LU flops, and
//       the time each needs at an H100's peak rates
//   bench_bem cavity ... | cavity-laplace ...: the pressurized spherical
//       cavity against Sharpe's closed form (bench_cavity.cpp)
// Plain wall-clock timers (the CUDA path synchronises before each reading);
// setup_s: the CUDA path's work before its first batch (CqTimings), the
// context included in a process's first run; total_s: solve and transform.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bem/bench_cavity.hpp"
#include "gpu/bem/collocation_pair.hpp"
#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/rod_closed_form.hpp"
#include "gpu/core/device.hpp"
#if GEOBEM_WITH_CUDA
#include "gpu/bem/batched_lu.hpp"
#include "gpu/bem/streamed_lu.hpp"
#include "gpu/core/cuda_event.hpp"
#endif
#include "gpu/core/seconds_since.hpp"
#include "tests/bem/backward_error.hpp"
#include "tests/bem/rod_case.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::test;
using geobem::seconds_since;

/// The timing cases and the -steps modes: `steps` steps of Δt = βh/c, β = 0.2, h the smallest element size.
CqSettings timing_settings(const BemModel& model, int steps) {
  return {steps, cq_time_step_from_beta(0.2, model.smallest_element_size(), model.material.p_wave_speed)};
}

/// One in-memory run: solve_laplace, then the time series; prints the per-stage times.
void run_case(const char* label, geobem::ComputeDevice device, const BemModel& model, const CqSettings& settings) {
  CqTimings timings;
  const auto start = std::chrono::steady_clock::now();
  const LaplaceSolution solution = solve_laplace(model, settings, {}, {device, true}, timings);
  const auto transform_start = std::chrono::steady_clock::now();
  const std::vector<double> unknowns =
      cq_time_series(solution, std::vector<std::vector<double>>(solution.load_cases,
                                                                std::vector<double>(settings.steps + 1, 1.0)),
                     settings);
  const double transform = seconds_since(transform_start), total = seconds_since(start);
  const double error = rod_free_end_l2_error(model, unknowns, settings.time_step);
  std::printf("%s,%s,%zu,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4g,%.6f\n", label, geobem::to_string(device).c_str(),
              model.areas.size(), model.unknown_count(), settings.steps, cq_frequency_count(settings),
              timings.batch_frequencies, timings.setup_seconds, timings.assembly_seconds, timings.solve_seconds,
              transform, total, timings.matrix_entries / timings.assembly_seconds, error);
  std::fflush(stdout);
}

const char* header =
    "case,device,elements,unknowns,steps,frequencies,batch,setup_s,assembly_s,solve_s,transform_s,total_s,"
    "entries_per_s,free_end_l2_error\n";

/// bench_bem timing: run_case on the paper's mesh sizes up to `max_solved` elements.
int timing(geobem::ComputeDevice device, int max_solved) {
  // 12, 112, 960 and 3,388 triangles: the generator's sizes nearest the paper's 12/112/822/3,288.
  std::printf("%s", header);
  for (double h : {5.0, rod_h112, 0.25, 0.1286}) {
    const BemModel model = rod_model(h);
    if (static_cast<int>(model.areas.size()) > max_solved) continue;
    run_case("timing", device, model, timing_settings(model, 10));
  }
  return 0;
}

/// `runs` runs of the same case in one process: on CUDA the first one also
/// makes the context (setup_s) and loads the kernels it launches (the LU's
/// cuBLAS kernels: about 0.08 s of its solve_s on an H100), the later ones
/// time the pipeline alone, as a program that solves several problems sees it.
int rod_error(geobem::ComputeDevice device, double h, double beta, double periods, int runs) {
  std::printf("%s", header);
  const BemModel model = rod_model(h);
  for (int run = 0; run < runs; ++run) run_case("rod-error", device, model, rod_settings(model, beta, periods));
  return 0;
}

/// The case's work, counted from the plans the kernels use (pair_quadrature_points).
int floor_counts(const BemModel& model, const CqSettings& settings) {
  const ModelView mv = model.view();
  const int frequencies = cq_frequency_count(settings);
  const double n = model.unknown_count();
  double pair_frequencies = 0, live = 0, points = 0;
  for (int l = 0; l < frequencies; ++l) {
    const Complex s = cq_laplace_point(settings, l);
    double level_points = 0, level_live = 0;
#pragma omp parallel for reduction(+ : level_points, level_live) schedule(dynamic, 8)
    for (int p = 0; p < mv.collocation_count; ++p)
      for (int e = 0; e < mv.element_count; ++e) {
        const int q = pair_quadrature_points<ElastodynamicFullSpace>(mv, p, e, s);
        level_points += q;
        level_live += q > 0;
      }
    points += level_points;
    live += level_live;
    pair_frequencies += double(mv.collocation_count) * mv.element_count;
  }
  // FP64 operations per point and frequency of today's kernel (point_kernel
  // and DynamicIntegrand), measured with Nsight Compute on an H100 (the
  // 3,388-element assembly launch, 2·DFMA + DMUL + DADD over its 1.96e8
  // points, per-pair work included): 986, kept at ≈ 1,050 as the floors of
  // earlier figures were counted (the kernel before the regrouped traction
  // and the shared exponentials measured 1,819). An ideal kernel keeps the
  // geometry of a point across the frequencies of a batch and needs ≈ 250
  // per point and frequency (two complex exponentials and the accumulation)
  // at ≈ 20 points per regular pair (a degree-8 symmetric rule, Dunavant 1985).
  const double ops_today = 1050.0 * points, ops_ideal = 250.0 * 20.0 * live;
  const double bytes = 16.0 * n * n * frequencies, lu_flops = 8.0 / 3.0 * n * n * n * frequencies;
  // H100 SXM peaks: FP64 34 TFLOP/s (vector), 67 TFLOP/s (tensor cores, what
  // cuSOLVER's LU reaches at best), HBM3 3.35 TB/s.
  const double vector = 34e12, tensor = 67e12, bandwidth = 3.35e12;
  std::printf("elements,unknowns,steps,frequencies,pair_frequencies,live_pair_frequencies,quadrature_points,"
              "points_per_live_pair,fp64_ops_today,fp64_ops_ideal,system_bytes,lu_flops,floor_assembly_today_s,"
              "floor_assembly_ideal_s,floor_write_s,floor_lu_s\n");
  std::printf("%zu,%d,%d,%d,%.4g,%.4g,%.4g,%.1f,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g\n", model.areas.size(),
              model.unknown_count(), settings.steps, frequencies, pair_frequencies, live, points, points / live,
              ops_today, ops_ideal, bytes, lu_flops, ops_today / vector, ops_ideal / vector, bytes / bandwidth,
              lu_flops / tensor);
  return 0;
}

#if GEOBEM_WITH_CUDA
/// The largest backward error of the first right-hand side's solution over
/// three frequencies (first, middle, last); x as the solvers leave it
/// (n × cases per frequency).
double backward_error(const std::vector<std::vector<Complex>>& a, const std::vector<std::vector<Complex>>& b,
                      const std::vector<Complex>& x, int n) {
  const int count = static_cast<int>(a.size());
  double worst = 0;
  for (int f : {0, count / 2, count - 1})
    worst = std::max(worst, geobem::test::backward_error(a[f].data(), &x[f * b[f].size()], b[f].data(), n));
  return worst;
}

/// bench_bem lu: the case's systems, assembled once, solved by each GPU
/// solver from the same copies; one CSV line per solver.
int lu_compare(const BemModel& model, const CqSettings& settings) {
  const int count = cq_frequency_count(settings), n = model.unknown_count(), cases = model.load_case_count();
  std::vector<Complex> s(count);
  for (int l = 0; l < count; ++l) s[l] = cq_laplace_point(settings, l);
  std::vector<std::vector<Complex>> matrices, rhs;
  assemble_systems_cuda(model, s, matrices, rhs);
  const std::size_t square = static_cast<std::size_t>(n) * n, block = static_cast<std::size_t>(n) * cases;
  geobem::DeviceBuffer<Complex> d_a(square * count), d_b(block * count);
  geobem::DeviceBuffer<int> d_info(2 * static_cast<std::size_t>(count));
  const double lu_flops = 8.0 / 3.0 * double(n) * n * n * count, tensor_peak = 67e12;
  std::printf("solver,elements,unknowns,frequencies,seconds,tflops,floor_fraction,difference_to_cusolver,"
              "backward_error,info_ok\n");
  std::vector<Complex> reference;
  // The batched LU twice on the whole batch (the first run loads its kernels
  // and cuBLAS's), then in chunks of 16 systems one after another.
  for (const std::string name : {"cusolver-16-streams", "batched-lu", "batched-lu", "batched-lu-chunks-16"}) {
    for (int f = 0; f < count; ++f) {
      d_a.upload(matrices[f].data(), square, f * square);
      d_b.upload(rhs[f].data(), block, f * block);
    }
    GEOBEM_CUDA_CHECK(cudaMemset(d_info.data(), 0, sizeof(int) * 2 * count));
    geobem::CudaEvent ready(cudaEventDisableTiming);
    ready.record();
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    if (name == "batched-lu") {
      BatchedLuSolver solver(n, cases, count);
      solver.enqueue(d_a.data(), d_b.data(), count, d_info.data(), ready.get());
      solver.synchronize();
    } else if (name == "batched-lu-chunks-16") {
      BatchedLuSolver solver(n, cases, 16);
      for (int first = 0; first < count; first += 16)
        solver.enqueue(d_a.data() + first * square, d_b.data() + first * block, std::min(16, count - first),
                       d_info.data() + first, ready.get());
      solver.synchronize();
    } else {
      StreamedLuSolver solver(n, cases, 16);
      solver.enqueue(d_a.data(), d_b.data(), count, d_info.data(), ready.get());
      solver.synchronize();
    }
    const double seconds = seconds_since(start);
    const std::vector<Complex> x = d_b.to_host();
    const std::vector<int> info = d_info.to_host();
    bool ok = true;
    for (int v : info) ok = ok && v == 0;
    if (reference.empty()) reference = x;
    double diff = 0, scale = 0;
    for (std::size_t k = 0; k < x.size(); ++k) {
      diff = std::max(diff, abs(x[k] - reference[k]));
      scale = std::max(scale, abs(reference[k]));
    }
    std::printf("%s,%zu,%d,%d,%.4f,%.2f,%.3f,%.3g,%.3g,%d\n", name.c_str(), model.areas.size(), n, count, seconds,
                lu_flops / seconds / 1e12, lu_flops / tensor_peak / seconds, diff / scale,
                backward_error(matrices, rhs, x, n), ok);
    std::fflush(stdout);
  }
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "cavity" || mode == "cavity-laplace" || mode == "cavity-cq")
    return geobem::bench::cavity_benchmark(argc, argv);
  // floor and lu take H BETA PERIODS, floor-steps and lu-steps H STEPS at β = 0.2.
  const bool by_steps = mode == "floor-steps" || mode == "lu-steps";
  const bool floor = mode == "floor" || mode == "floor-steps";
  if ((floor || mode == "lu" || mode == "lu-steps") && argc == (by_steps ? 4 : 5)) {
    const BemModel model = rod_model(std::atof(argv[2]));
    const CqSettings settings = by_steps ? timing_settings(model, std::atoi(argv[3]))
                                         : rod_settings(model, std::atof(argv[3]), std::atof(argv[4]));
    if (floor) return floor_counts(model, settings);
#if GEOBEM_WITH_CUDA
    return lu_compare(model, settings);
#else
    std::fprintf(stderr, "bench_bem %s: built without CUDA\n", mode.c_str());
    return 1;
#endif
  }
  const auto device = geobem::resolve_device(geobem::parse_device_choice(argc > 2 ? argv[2] : "cpu"));
  if (mode == "timing") return timing(device, argc > 3 ? std::atoi(argv[3]) : 1 << 30);
  if (mode == "rod-error" && (argc == 6 || argc == 7))
    return rod_error(device, std::atof(argv[3]), std::atof(argv[4]), std::atof(argv[5]),
                     argc == 7 ? std::max(1, std::atoi(argv[6])) : 1);
  std::fprintf(stderr,
               "usage: bench_bem timing cpu|cuda [max_elements_solved] | rod-error cpu|cuda H BETA PERIODS [RUNS] |\n"
               "       bench_bem lu H BETA PERIODS | lu-steps H STEPS | floor H BETA PERIODS | floor-steps H STEPS |\n"
               "       bench_bem cavity cpu|cuda MESH.vtu BETA DURATION_C_OVER_A [dense|hierarchical [EPS]] |\n"
               "       bench_bem cavity-laplace cpu|cuda MESH.vtu |\n"
               "       bench_bem cavity-cq DT_C_OVER_A DURATION_C_OVER_A\n");
  return 2;
}
