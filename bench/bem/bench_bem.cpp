// Elastodynamic CQ-BEM benchmark on the rod (docs/references.md#rod-benchmark,
// tests/bem/rod_case.hpp), per stage: assembly, solve (LU), transform.
//   bench_bem timing cpu|cuda [max_elements_solved]
//       the paper's mesh sizes, 10 time steps, β = 0.2
//   bench_bem rod-error cpu|cuda H BETA PERIODS
//       free-end relative L2 error against the closed form over PERIODS periods
//   bench_bem floor H BETA PERIODS | bench_bem floor-steps H STEPS
//       the work of the case (no solve): pair-frequencies, quadrature points of
//       the current plans, FP64 operations, bytes of the systems, LU flops, and
//       the time each needs at an H100's peak rates
//   bench_bem cavity ... | cavity-laplace ...: the pressurized spherical
//       cavity against Sharpe's closed form (bench_cavity.cpp)
// Plain wall-clock timers (the CUDA path synchronises before each reading).
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
#include "tests/bem/rod_case.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::test;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
  std::printf("%s,%s,%zu,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4g,%.6f\n", label, geobem::to_string(device).c_str(),
              model.areas.size(), model.unknown_count(), settings.steps, cq_frequency_count(settings),
              timings.batch_frequencies, timings.assembly_seconds, timings.solve_seconds, transform, total,
              timings.matrix_entries / timings.assembly_seconds, error);
  std::fflush(stdout);
}

const char* header =
    "case,device,elements,unknowns,steps,frequencies,batch,assembly_s,solve_s,transform_s,total_s,entries_per_s,"
    "free_end_l2_error\n";

int timing(geobem::ComputeDevice device, int max_solved) {
  // 12, 112, 960 and 3,388 triangles: the generator's sizes nearest the paper's 12/112/822/3,288.
  std::printf("%s", header);
  for (double h : {5.0, rod_h112, 0.25, 0.1286}) {
    const BemModel model = rod_model(h);
    if (static_cast<int>(model.areas.size()) > max_solved) continue;
    const CqSettings settings{10, cq_time_step_from_beta(0.2, model.smallest_element_size(),
                                                         model.material.p_wave_speed)};
    run_case("timing", device, model, settings);
  }
  return 0;
}

int rod_error(geobem::ComputeDevice device, double h, double beta, double periods) {
  std::printf("%s", header);
  const BemModel model = rod_model(h);
  run_case("rod-error", device, model, rod_settings(model, beta, periods));
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
        const int q = pair_quadrature_points(mv, p, e, s);
        level_points += q;
        level_live += q > 0;
      }
    points += level_points;
    live += level_live;
    pair_frequencies += double(mv.collocation_count) * mv.element_count;
  }
  // FP64 operations per point and frequency, counted from the source
  // (point_kernel and DynamicIntegrand): distance and direction (≈ 30), two
  // radial remainders in closed form with the Kelvin parts added to their
  // coefficients (≈ 300; the series branch below |s r/c| = 1/2 costs ≈ 700
  // more), nine complex traction entries (≈ 450) and nine displacement
  // entries with the accumulation of V and K (≈ 270): ≈ 1,050 as the floor
  // of today's kernel. An ideal kernel keeps the geometry of a point across
  // the frequencies of a batch and needs ≈ 250 per point and frequency (two
  // complex exponentials and the accumulation) at ≈ 20 points per regular
  // pair (a degree-8 symmetric rule, Dunavant 1985).
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

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "cavity" || mode == "cavity-laplace" || mode == "cavity-cq") return geobem::bench::cavity_benchmark(argc, argv);
  if (mode == "floor" && argc == 5) {
    const BemModel model = rod_model(std::atof(argv[2]));
    return floor_counts(model, rod_settings(model, std::atof(argv[3]), std::atof(argv[4])));
  }
  if (mode == "floor-steps" && argc == 4) {
    const BemModel model = rod_model(std::atof(argv[2]));
    return floor_counts(model, {std::atoi(argv[3]), cq_time_step_from_beta(0.2, model.smallest_element_size(),
                                                                            model.material.p_wave_speed)});
  }
  const auto device = geobem::resolve_device(geobem::parse_device_choice(argc > 2 ? argv[2] : "cpu"));
  if (mode == "timing") return timing(device, argc > 3 ? std::atoi(argv[3]) : 1 << 30);
  if (mode == "rod-error" && argc == 6) return rod_error(device, std::atof(argv[3]), std::atof(argv[4]), std::atof(argv[5]));
  std::fprintf(stderr,
               "usage: bench_bem timing cpu|cuda [max_elements_solved] | rod-error cpu|cuda H BETA PERIODS |\n"
               "       bench_bem floor H BETA PERIODS | floor-steps H STEPS |\n"
               "       bench_bem cavity cpu|cuda MESH.vtu BETA DURATION_C_OVER_A | cavity-laplace cpu|cuda MESH.vtu\n");
  return 2;
}
