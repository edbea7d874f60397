// bench_expression: a user expression against the built-in family it spells,
// both on the GPU, 10^6 Longman integrals each:
//   exp-cos    vs 'exp(-a*x)' --oscillation cos:w --decay-rate a
//   hankel-exp (nu = 0, m = 1) vs 'x*exp(-a*x)' --oscillation J0:r --decay-rate a
// Reported: the NVRTC compile time of the expression's kernel (first run in
// a fresh cache folder, then a second process-level load from that cache),
// and the wall and kernel times of each (best of three warm runs), with the
// largest difference between the two result columns.
// Usage: bench_expression [--count N] [--quick]
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
#include "gpu/expression/expression_integrate.hpp"
#include "gpu/expression/expression_kernels.hpp"
#include "gpu/transform/transform.hpp"
#include "stages/cli/stage_options.hpp"

namespace ex = geobem::expression;
namespace tf = geobem::transform;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct Timing {
  double wall = 1e300, kernel_ms = 1e300;
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
  }
  return best;
}

void compare(const char* name, tf::TransformFamily family, const std::vector<double>& family_rows,
             const std::string& text, ex::OscillationKind kind, const std::vector<double>& expression_rows,
             std::size_t count) {
  tf::LongmanOptions options;
  options.relative_tolerance = 1e-10;
  const ex::Expression rest = ex::parse_expression(text, {"x"}, {{"a"}, "a column"});
  // Compile time: a fresh cache folder (the compile), then NVRTC's image read back from it.
  const auto folder = std::filesystem::temp_directory_path() / ("geobem_bench_cache_" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  const std::string source = ex::longman_kernel_source(rest, kind);
  auto start = Clock::now();
  const auto compiled = geobem::nvrtc_compile_cached("bench", source, ex::device_headers(), "sm_90",
                                                     {"-default-device"}, folder.string());
  const double compile_wall = seconds_since(start);
  start = Clock::now();
  const auto cached = geobem::nvrtc_compile_cached("bench", source, ex::device_headers(), "sm_90",
                                                   {"-default-device"}, folder.string());
  const double cached_wall = seconds_since(start);
  std::filesystem::remove_all(folder);
  // The kernel used below: compiled (or read from the user's cache) once in this process.
  ex::KernelCompileReport report;
  start = Clock::now();
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
  std::printf("%s, %zu integrals, rel-tol 1e-10, Euler\n", name, count);
  std::printf("  compile (NVRTC %s, sm_90, fresh cache): %.3f s (nvrtcCompileProgram %.3f s); from the disk cache: %.4f s\n",
              geobem::nvrtc_version().c_str(), compile_wall, compiled.compile_seconds, cached_wall);
  std::printf("  first call in this process (%s, %s): %.3f s\n", report.architecture.c_str(),
              report.from_cache ? "kernel read from the user cache" : "kernel compiled", first_call);
  std::printf("  built-in family: wall %.4f s, kernel %.2f ms\n", builtin.wall, builtin.kernel_ms);
  std::printf("  expression     : wall %.4f s, kernel %.2f ms  (%.2fx the family's kernel time)\n", user.wall,
              user.kernel_ms, user.kernel_ms / builtin.kernel_ms);
  std::printf("  largest relative difference of the values %.2e; same status in %zu of %zu rows\n", largest,
              same_status, count);
  (void)cached;
}

int run_bench(int argc, char** argv) {
  namespace po = boost::program_options;
  po::options_description options("bench_expression options");
  std::size_t count = 1000000;
  options.add_options()("help", "this text")("count", po::value(&count)->default_value(count), "integrals per batch");
  const auto parsed = geobem::cli::parse_stage_options(
      argc, argv, "bench_expression", "User expressions (NVRTC) against the built-in Longman families on the GPU.",
      options);
  if (!parsed) return 0;
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
  compare("exp-cos vs 'exp(-a*x)' cos:w", tf::TransformFamily::ExponentialCosine, exp_cos, "exp(-a*x)",
          ex::OscillationKind::Cos, exp_cos_expression, count);
  compare("hankel-exp (nu 0, m 1) vs 'x*exp(-a*x)' J0:r", tf::TransformFamily::HankelExponential, hankel,
          "x*exp(-a*x)", ex::OscillationKind::J0, hankel_expression, count);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return geobem::cli::run_stage("bench_expression", [&] { return run_bench(argc, argv); });
}
