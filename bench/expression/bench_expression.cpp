// bench_expression: a user expression against the built-in family it spells,
// both on the GPU:
//   Longman, 10^6 integrals each:
//     exp-cos    vs 'exp(-a*x)' --oscillation cos:w --decay-rate a
//     hankel-exp (nu = 0, m = 1) vs 'x*exp(-a*x)' --oscillation J0:r --decay-rate a
//   adaptive 1D, 10^4 integrals: exp_sin vs 'exp(p0*x)*sin(p1*x)'
//   cubature: Arumugam et al.'s f3 (4D, 1e-5) and f4 (7D, 1e-4) vs the same
//     functions as expressions
// Reported: the NVRTC compile time of the expression's kernels (first run in
// a fresh cache folder, then a load from that cache), and the times of each
// (Longman: best of three warm runs, wall and kernel span, the span from the
// first chunk's kernel to the last one's end; the summed kernel times of
// overlapping chunks are shown too but overstate; adaptive: best of three
// warm walls; cubature: median of five warm walls), with the largest
// difference between the two results.
// Usage: bench_expression [--count N]
#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "gpu/core/device.hpp"
#include "gpu/core/nvrtc_program.hpp"
#include "gpu/core/seconds_since.hpp"
#include "gpu/expression/expression_integrate.hpp"
#include "gpu/expression/expression_kernels.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "gpu/quadrature/cubature.hpp"
#include "gpu/transform/transform.hpp"
#include "stages/cli/stage_options.hpp"
#include "tests/expression/arumugam_expression_cases.hpp"

namespace ex = geobem::expression;
namespace q = geobem::quadrature;
namespace tf = geobem::transform;
using Clock = std::chrono::steady_clock;
using geobem::seconds_since;

namespace {

struct Timing {
  double wall = 1e300, kernel_ms = 1e300, span_ms = 1e300;
};

template <class Run>
Timing best_of_three(Run run) {
  Timing best;
  for (int repeat = 0; repeat < 3; ++repeat) {
    tf::LongmanTimings timings;
    const auto start = Clock::now();
    run(&timings);
    best.wall = std::min(best.wall, seconds_since(start));
    best.kernel_ms = std::min(best.kernel_ms, timings.kernel_ms);
    best.span_ms = std::min(best.span_ms, timings.kernel_span_ms);
  }
  return best;
}

/// Seconds of NVRTC for `source` in a fresh cache folder, then of reading it back.
void print_compile_times(const std::string& source) {
  const auto folder = std::filesystem::temp_directory_path() / ("geobem_bench_cache_" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  auto start = Clock::now();
  const auto compiled = geobem::nvrtc_compile_cached("bench", source, ex::device_headers(), "sm_90",
                                                     {"-default-device"}, folder.string());
  const double compile_wall = seconds_since(start);
  start = Clock::now();
  geobem::nvrtc_compile_cached("bench", source, ex::device_headers(), "sm_90", {"-default-device"}, folder.string());
  const double cached_wall = seconds_since(start);
  std::filesystem::remove_all(folder);
  std::printf("  compile (NVRTC %s, sm_90, fresh cache): %.3f s (nvrtcCompileProgram %.3f s); from the disk cache: %.4f s\n",
              geobem::nvrtc_version().c_str(), compile_wall, compiled.compile_seconds, cached_wall);
}

template <class Run>
double median_wall(int reps, Run run) {
  std::vector<double> walls;
  for (int k = 0; k < reps; ++k) {
    const auto start = Clock::now();
    run();
    walls.push_back(seconds_since(start));
  }
  std::sort(walls.begin(), walls.end());
  return walls[walls.size() / 2];
}

void compare(const char* name, tf::TransformFamily family, const std::vector<double>& family_rows,
             const std::string& text, ex::OscillationKind kind, const std::vector<double>& expression_rows,
             std::size_t count) {
  tf::LongmanOptions options;
  options.relative_tolerance = 1e-10;
  const ex::Expression rest = ex::parse_expression(text, {"x"}, {{"a"}, "a column"});
  std::printf("%s, %zu integrals, rel-tol 1e-10, Euler\n", name, count);
  print_compile_times(ex::longman_kernel_source(rest, kind));
  // The kernel used below: compiled (or read from the user's cache) once in this process.
  ex::KernelCompileReport report;
  auto start = Clock::now();
  ex::integrate_longman_expression(rest, kind, expression_rows, 1000, options, 16, geobem::ComputeDevice::Cuda, true,
                                   nullptr, &report);
  const double first_call = seconds_since(start);

  std::vector<tf::LongmanResult> family_results, expression_results;
  const Timing builtin = best_of_three([&](tf::LongmanTimings* t) {
    family_results = tf::integrate_family(family, family_rows, count, options, 16, geobem::ComputeDevice::Cuda, true, t);
  });
  const Timing user = best_of_three([&](tf::LongmanTimings* t) {
    expression_results = ex::integrate_longman_expression(rest, kind, expression_rows, count, options, 16,
                                                          geobem::ComputeDevice::Cuda, true, t);
  });
  double largest = 0.0;
  std::size_t same_status = 0;
  for (std::size_t i = 0; i < count; ++i) {
    largest = std::max(largest, std::fabs(family_results[i].value - expression_results[i].value) /
                                    std::max(std::fabs(family_results[i].value), 1e-300));
    same_status += family_results[i].status == expression_results[i].status;
  }
  std::printf("  first call in this process (%s, %s): %.3f s\n", report.architecture.c_str(),
              report.from_cache ? "kernel read from the user cache" : "kernel compiled", first_call);
  std::printf("  built-in family: wall %.4f s, kernel span %.2f ms (chunk kernels summed %.2f ms)\n", builtin.wall,
              builtin.span_ms, builtin.kernel_ms);
  std::printf("  expression     : wall %.4f s, kernel span %.2f ms (chunk kernels summed %.2f ms)  "
              "(%.2fx the family's span, %.2fx its wall)\n",
              user.wall, user.span_ms, user.kernel_ms, user.span_ms / builtin.span_ms, user.wall / builtin.wall);
  std::printf("  largest relative difference of the values %.2e; same status in %zu of %zu rows\n", largest,
              same_status, count);
}

/// exp_sin of Kern & Alaghband against 'exp(p0*x)*sin(p1*x)', `count` rows at 1e-10, batched.
void compare_adaptive(std::size_t count) {
  std::mt19937_64 random(2027);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto log_uniform = [&](double low, double high) {
    return std::pow(10.0, std::log10(low) + (std::log10(high) - std::log10(low)) * unit(random));
  };
  std::vector<q::Problem1D> problems;
  std::vector<double> rows;
  for (std::size_t i = 0; i < count; ++i) {
    q::Problem1D p;
    p.integrand.family = q::integrand_1d_family<q::ExpSin>;
    p.integrand.p[0] = log_uniform(1e-3, 50.0);
    p.integrand.p[1] = log_uniform(1e-3, 1000.0);
    p.integrand.p[2] = 0.0;
    const double limit = q::exp_family_limit(p.integrand);
    p.lower = -limit * log_uniform(1e-3, 1.0);
    p.upper = limit * log_uniform(1e-3, 1.0);
    problems.push_back(p);
    rows.insert(rows.end(), {p.lower, p.upper, p.integrand.p[0], p.integrand.p[1]});
  }
  q::Adaptive1DOptions options;
  options.rel_tol = 1e-10;
  const ex::Expression f = ex::parse_expression("exp(p0*x)*sin(p1*x)", {"x"}, {{"p0", "p1"}, "a column"});
  std::printf("adaptive 1D exp_sin vs 'exp(p0*x)*sin(p1*x)', %zu integrals, rel-tol 1e-10, beta %d\n", count,
              options.beta);
  print_compile_times(ex::adaptive_kernel_source(f));
  ex::integrate_adaptive_expression(f, rows, 1, options, geobem::ComputeDevice::Cuda);  // load the kernel
  std::vector<q::Adaptive1DResult> family, mine;
  const Timing builtin = best_of_three([&](tf::LongmanTimings*) {
    family = q::integrate_adaptive_1d_batch(problems, options, geobem::ComputeDevice::Cuda);
  });
  const Timing user = best_of_three([&](tf::LongmanTimings*) {
    mine = ex::integrate_adaptive_expression(f, rows, count, options, geobem::ComputeDevice::Cuda);
  });
  double largest = 0.0;
  std::size_t same_status = 0, evaluations = 0, family_evaluations = 0, converged = 0, family_converged = 0;
  for (std::size_t i = 0; i < count; ++i) {
    largest = std::max(largest, std::fabs(family[i].estimate - mine[i].estimate) /
                                    std::max(family[i].error + mine[i].error, 1e-300));
    same_status += family[i].status == mine[i].status;
    evaluations += mine[i].evaluations;
    family_evaluations += family[i].evaluations;
    converged += mine[i].status == geobem::IntegrationStatus::Converged;
    family_converged += family[i].status == geobem::IntegrationStatus::Converged;
  }
  std::printf("  built-in family: wall %.4f s, %zu evaluations, %zu converged\n", builtin.wall, family_evaluations,
              family_converged);
  std::printf("  expression     : wall %.4f s, %zu evaluations, %zu converged  (%.2fx the family's wall)\n", user.wall,
              evaluations, converged, user.wall / builtin.wall);
  std::printf("  largest |difference| / (sum of the error estimates) %.2f; same status in %zu of %zu rows\n", largest,
              same_status, count);
}

/// f3 (4D, 1e-5) and f4 (7D, 1e-4) built in against the same as expressions, at the stage's defaults.
void compare_cubature() {
  for (const auto& c : geobem::test::kArumugamExpressionCases) {
    q::CubatureOptions options;
    options.dim = c.dim;
    options.rel_tol = c.rel_tol;
    const ex::Expression f = ex::parse_expression(c.expression, ex::numbered_variables(c.dim), {});
    std::printf("cubature %s vs '%s', %dD, rel-tol %g\n", q::to_string(c.family).c_str(), c.expression, c.dim,
                c.rel_tol);
    print_compile_times(ex::cubature_kernel_source(f));
    const q::CubatureIntegrand integrand = q::make_cubature_integrand(c.family, c.dim);
    q::CubatureResult family = q::integrate_cubature(integrand, options, geobem::ComputeDevice::Cuda);
    q::CubatureResult mine = ex::integrate_cubature_expression(f, {}, 1, options, geobem::ComputeDevice::Cuda)[0];
    const double builtin = median_wall(5, [&] { family = q::integrate_cubature(integrand, options, geobem::ComputeDevice::Cuda); });
    const double user = median_wall(5, [&] {
      mine = ex::integrate_cubature_expression(f, {}, 1, options, geobem::ComputeDevice::Cuda)[0];
    });
    std::printf("  built-in family: %.4f s, %s, estimate %.12f, error %.2e, true error %.2e, %.3g evaluations\n",
                builtin, geobem::to_string(family.status).c_str(), family.estimate, family.error,
                std::fabs(family.estimate - c.reference), static_cast<double>(family.evaluations));
    std::printf("  expression     : %.4f s, %s, estimate %.12f, error %.2e, true error %.2e, %.3g evaluations  "
                "(%.2fx the family's)\n",
                user, geobem::to_string(mine.status).c_str(), mine.estimate, mine.error,
                std::fabs(mine.estimate - c.reference), static_cast<double>(mine.evaluations), user / builtin);
  }
}

int run_bench(int argc, char** argv) {
  namespace po = boost::program_options;
  std::size_t count = 1000000;
  geobem::cli::StageOptions command("bench_expression",
                                    "User expressions (NVRTC) against the built-in Longman families on the GPU.");
  command.add()("count", po::value(&count)->default_value(count), "integrals per batch");
  if (!command.parse(argc, argv)) return 0;  // --help
  if (geobem::cuda_device_count() == 0) {
    std::printf("bench_expression: no CUDA device\n");
    return 0;
  }
  std::mt19937_64 random(2026);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> exp_cos, exp_cos_expression, hankel, hankel_expression;
  for (std::size_t i = 0; i < count; ++i) {
    // The documented exp-cos range: omega 1e-8..1e8, lambda/omega 0.02..1e10 (log-uniform).
    const double omega = std::pow(10.0, -8.0 + 16.0 * unit(random));
    const double lambda = omega * std::pow(10.0, std::log10(0.02) + (10.0 - std::log10(0.02)) * unit(random));
    exp_cos.insert(exp_cos.end(), {lambda, omega});
    exp_cos_expression.insert(exp_cos_expression.end(), {omega, lambda, lambda});
    // hankel-exp nu = 0, m = 1: r 1e-6..1e6, a/r 0.05..1e8.
    const double r = std::pow(10.0, -6.0 + 12.0 * unit(random));
    const double a = r * std::pow(10.0, std::log10(0.05) + (8.0 - std::log10(0.05)) * unit(random));
    hankel.insert(hankel.end(), {0.0, 1.0, a, r});
    hankel_expression.insert(hankel_expression.end(), {r, a, a});
  }
  compare("exp-cos vs 'exp(-a*x)' cos:w", tf::transform_family<tf::ExponentialCosine>, exp_cos, "exp(-a*x)",
          ex::OscillationKind::Cos, exp_cos_expression, count);
  compare("hankel-exp (nu 0, m 1) vs 'x*exp(-a*x)' J0:r", tf::transform_family<tf::HankelExponential>, hankel,
          "x*exp(-a*x)", ex::OscillationKind::J0, hankel_expression, count);
  compare_adaptive(std::min<std::size_t>(count, 10000));
  compare_cubature();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_stage("bench_expression", [&] { return run_bench(argc, argv); });
}
