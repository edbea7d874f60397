// Elastodynamic CQ-BEM benchmark on the rod (docs/references.md#rod-benchmark):
//   bench_bem timing cpu|cuda [max_elements_solved]  -- the paper's mesh sizes, 10 time steps:
//       assembly/solve/transform times and assembly rate (entries/s)
//   bench_bem rod-error cpu|cuda ELEMENT_SIZE BETA PERIODS  -- free-end displacement relative
//       L2 error against the closed form and the run's times
// Plain wall-clock timers (the CUDA path synchronises before each reading).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/rod_closed_form.hpp"
#include "gpu/core/device.hpp"
#include "tests/bem/rod_case.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::test;

BemModel rod(double element_size) { return rod_model(element_size); }

int timing(geobem::ComputeDevice device, int max_solved) {
  // 12, 112, 960 and 3,388 triangles: the generator's sizes nearest the paper's 12/112/822/3,288.
  std::printf("device,elements,unknowns,frequencies,assembly_s,solve_s,transform_s,total_s,entries_per_s\n");
  for (double h : {5.0, 0.7072, 0.25, 0.1286}) {
    const BemModel model = rod(h);
    const int elements = static_cast<int>(model.areas.size());
    CqSettings settings{10, 0.2 * model.smallest_element_size() / std::sqrt(rod_young / rod_density)};
    if (elements > max_solved) {
      // Assembly only (one frequency), for a CPU whose LAPACK would take too long.
      std::vector<Complex> matrix, rhs;
      const auto start = std::chrono::steady_clock::now();
      const std::vector<double> sums = rigid_body_sums_cpu(model);
      assemble_system_cpu(model, sums, cq_laplace_point(settings, 1), matrix, rhs);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("%s,%d,%d,1 (assembly only),%.4f,,,,%.4g\n", geobem::to_string(device).c_str(), elements,
                  model.unknown_count(), seconds, double(model.unknown_count()) * model.unknown_count() / seconds);
      std::fflush(stdout);
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    const CqResult r = solve_cq(model, settings, std::vector<double>(settings.steps + 1, 1.0), {device, true});
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4g\n", geobem::to_string(device).c_str(), elements,
                model.unknown_count(), cq_frequency_count(settings), r.timings.assembly_seconds,
                r.timings.solve_seconds, r.timings.transform_seconds, total,
                r.timings.matrix_entries / r.timings.assembly_seconds);
    std::fflush(stdout);
  }
  return 0;
}

int rod_error(geobem::ComputeDevice device, double h, double beta, double periods) {
  const BemModel model = rod(h);
  const double c = std::sqrt(rod_young / rod_density);
  CqSettings settings;
  settings.time_step = beta * model.smallest_element_size() / c;
  settings.steps = static_cast<int>(std::ceil(periods * 4.0 * rod_length / c / settings.time_step));
  const auto start = std::chrono::steady_clock::now();
  const CqResult r = solve_cq(model, settings, std::vector<double>(settings.steps + 1, 1.0), {device, true});
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int n = model.unknown_count();
  double err2 = 0, ref2 = 0;
  for (int step = 0; step <= settings.steps; ++step) {
    double mean = 0;
    int count = 0;
    for (std::size_t p = 0; p < model.free_nodes.size(); ++p)
      if (std::abs(model.nodes[model.free_nodes[p]].x - rod_length) < 1e-9) {
        mean += r.unknowns[static_cast<std::size_t>(step) * n + 3 * p];
        ++count;
      }
    const double ref = rod_free_end_displacement(step * settings.time_step, rod_pressure, rod_young, rod_density, rod_length);
    err2 += (mean / count - ref) * (mean / count - ref);
    ref2 += ref * ref;
  }
  std::printf("%s,elements %zu,h %.4f m,beta %.2f,dt %.4g s,steps %d,periods %.2f,unknowns %d,"
              "relative L2 error %.4f,assembly %.3f s,solve %.3f s,transform %.4f s,total %.3f s\n",
              geobem::to_string(device).c_str(), model.areas.size(), model.smallest_element_size(), beta,
              settings.time_step, settings.steps, periods, n, std::sqrt(err2 / ref2), r.timings.assembly_seconds,
              r.timings.solve_seconds, r.timings.transform_seconds, total);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const auto device = geobem::resolve_device(geobem::parse_device_choice(argc > 2 ? argv[2] : "cpu"));
  if (mode == "timing") return timing(device, argc > 3 ? std::atoi(argv[3]) : 1 << 30);
  if (mode == "rod-error" && argc == 6) return rod_error(device, std::atof(argv[3]), std::atof(argv[4]), std::atof(argv[5]));
  std::fprintf(stderr, "usage: bench_bem timing cpu|cuda [max_elements_solved] | rod-error cpu|cuda H BETA PERIODS\n");
  return 2;
}
