// bench_longman: batches of int_0^inf e^{-lambda x} cos(omega x) dx (Mesquita
// et al.'s family, closed form lambda/(lambda^2+omega^2)) by
//   - GSL's QAWF (QUADPACK's Fourier integral with Wynn's epsilon), one
//     integral after another on one CPU thread (the peer);
//   - our Longman CPU path (OpenMP, all threads, and one thread);
//   - our CUDA path (one thread per integral), wall time of integrate_family
//     including the result vector, both transfers and the host staging copies,
//     plus the device times from CUDA events; the first call of each setting
//     is cold (the pipeline's buffers grow to full chunks), the others warm.
// Settings: the paper's (M = 50,000, N = 16 areas, Euler, double) and
// M = 10^6 at 1e-12 relative (adaptive N, Euler and Wynn's epsilon).
// Device times: "kernel span" (first chunk's kernel start to last chunk's
// kernel end) is the figure to set beside an older build's single launch;
// "kernel sum" adds the chunks' overlapping kernel intervals (LongmanTimings).
// The CUDA calls of a setting reuse one result vector, as a caller running
// batch after batch does.
// Usage: bench_longman [--quick]   (--quick: smaller batches, no GPU needed)
#include <boost/program_options.hpp>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/transform/transform.hpp"
#include "stages/cli/stage_options.hpp"

using namespace geobem::transform;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// lambda in [0.1, 1], omega in [1, 20] (omega/lambda 1..200, around the paper's 0.5, 10).
std::vector<double> paper_batch(std::size_t count) {
  std::mt19937_64 random(2026);
  std::uniform_real_distribution<double> lambda(0.1, 1.0), omega(1.0, 20.0);
  std::vector<double> p(2 * count);
  for (std::size_t i = 0; i < count; ++i) {
    p[2 * i] = lambda(random);
    p[2 * i + 1] = omega(random);
  }
  return p;
}

struct Accuracy {
  double worst_relative = 0.0, worst_converged = 0.0;  ///< worst relative error of all rows, of converged rows
  std::size_t converged = 0, within_1e12 = 0;
};

Accuracy accuracy(const std::vector<double>& p, const std::vector<LongmanResult>& results) {
  Accuracy a;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const double exact = p[2 * i] / (p[2 * i] * p[2 * i] + p[2 * i + 1] * p[2 * i + 1]);
    a.worst_relative = std::fmax(a.worst_relative, std::fabs(results[i].value - exact) / exact);
    if (results[i].status == geobem::IntegrationStatus::Converged) {
      ++a.converged;
      a.worst_converged = std::fmax(a.worst_converged, std::fabs(results[i].value - exact) / exact);
    }
    a.within_1e12 += std::fabs(results[i].value - exact) <= 1e-12 * exact;
  }
  return a;
}

double exponential(double x, void* lambda) { return std::exp(-*static_cast<double*>(lambda) * x); }

/// GSL QAWF on the first `count` integrals, one thread; returns seconds.
double run_gsl(const std::vector<double>& p, std::size_t count, double relative, double& worst, std::size_t& failures) {
  gsl_set_error_handler_off();
  gsl_integration_workspace* workspace = gsl_integration_workspace_alloc(1000);
  gsl_integration_workspace* cycles = gsl_integration_workspace_alloc(1000);
  gsl_integration_qawo_table* table = gsl_integration_qawo_table_alloc(1.0, 1.0, GSL_INTEG_COSINE, 50);
  worst = 0.0;
  failures = 0;
  const auto start = Clock::now();
  for (std::size_t i = 0; i < count; ++i) {
    double lambda = p[2 * i];
    const double omega = p[2 * i + 1], exact = lambda / (lambda * lambda + omega * omega);
    gsl_function f{&exponential, &lambda};
    gsl_integration_qawo_table_set(table, omega, 1.0, GSL_INTEG_COSINE);
    double value = 0.0, error = 0.0;
    // QAWF takes an absolute tolerance only: relative x the known magnitude.
    const int status = gsl_integration_qawf(&f, 0.0, relative * exact, 1000, workspace, cycles, table, &value, &error);
    failures += status != GSL_SUCCESS;
    worst = std::fmax(worst, std::fabs(value - exact) / exact);
  }
  const double elapsed = seconds_since(start);
  gsl_integration_qawo_table_free(table);
  gsl_integration_workspace_free(cycles);
  gsl_integration_workspace_free(workspace);
  return elapsed;
}

void report(const char* setting, const char* path, std::size_t count, double seconds, const Accuracy& a,
            const std::vector<LongmanResult>& results, const LongmanTimings* timings = nullptr) {
  double evaluations = 0, areas = 0;
  for (const auto& r : results) {
    evaluations += r.evaluations;
    areas += r.areas;
  }
  std::printf("%-34s %-28s M=%8zu  %10.3f ms  %8.3f us/integral  worst rel %.2e (converged %.2e)  <=1e-12: %zu  converged %zu/%zu  mean areas %.1f  mean evals %.0f",
              setting, path, count, 1e3 * seconds, 1e6 * seconds / count, a.worst_relative, a.worst_converged, a.within_1e12, a.converged, count,
              areas / count, evaluations / count);
  if (timings)
    std::printf("  [events: upload %.3f, kernel sum %.3f, download %.3f ms; kernel span %.3f, device span %.3f ms]",
                timings->upload_ms, timings->kernel_ms, timings->download_ms, timings->kernel_span_ms,
                timings->device_span_ms);
  std::printf("\n");
  std::fflush(stdout);
}

void run_setting(const char* setting, const std::vector<double>& p, const LongmanOptions& options, bool gpu,
                 std::size_t gsl_count, double gsl_relative) {
  const std::size_t count = p.size() / 2;
  const auto family = transform_family<ExponentialCosine>;
  auto start = Clock::now();
  auto results = integrate_family(family, p, count, options, 16, geobem::ComputeDevice::Cpu);
  report(setting, ("cpu " + std::to_string(omp_get_max_threads()) + " threads").c_str(), count, seconds_since(start),
         accuracy(p, results), results);
  {
    const std::size_t one = std::min<std::size_t>(count, 50000);
    std::vector<double> subset(p.begin(), p.begin() + 2 * one);
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    start = Clock::now();
    const auto single = integrate_family(family, subset, one, options, 16, geobem::ComputeDevice::Cpu);
    report(setting, "cpu 1 thread", one, seconds_since(start), accuracy(subset, single), single);
    omp_set_num_threads(threads);
  }
  if (gpu) {
    // Call 1 grows the pipeline's staging and device buffers to full chunks
    // (cold); calls 2.. reuse them (warm), as every later batch of a process does.
    constexpr int calls = 5;
    std::vector<double> warm_ms;
    std::vector<LongmanResult> device_results;
    for (int call = 1; call <= calls; ++call) {
      LongmanTimings timings;
      start = Clock::now();
      integrate_family(family, p, count, options, 16, geobem::ComputeDevice::Cuda, device_results, true, &timings);
      const double seconds = seconds_since(start);
      if (call > 1) warm_ms.push_back(1e3 * seconds);
      report(setting, ("cuda wall incl. transfers #" + std::to_string(call) + (call == 1 ? " cold" : " warm")).c_str(),
             count, seconds, accuracy(p, device_results), device_results, &timings);
    }
    std::sort(warm_ms.begin(), warm_ms.end());
    std::printf("%-34s %-28s M=%8zu  warm calls 2-%d: best %.3f ms, median %.3f ms, worst %.3f ms\n", setting,
                "cuda summary", count, calls, warm_ms.front(), warm_ms[warm_ms.size() / 2], warm_ms.back());
    std::fflush(stdout);
  }
  if (gsl_count > 0) {
    double worst = 0.0;
    std::size_t failures = 0;
    const double seconds = run_gsl(p, std::min(gsl_count, count), gsl_relative, worst, failures);
    const std::size_t n = std::min(gsl_count, count);
    std::printf("%-34s %-28s M=%8zu  %10.3f ms  %8.3f us/integral  worst rel %.2e  failures %zu (epsabs = %.0e x exact)\n",
                setting, "gsl qawf 1 thread", n, 1e3 * seconds, 1e6 * seconds / n, worst, failures, gsl_relative);
    std::fflush(stdout);
  }
}

}  // namespace

int run_bench(int argc, char** argv) {
  namespace po = boost::program_options;
  geobem::cli::StageOptions command("bench_longman",
                                    "Longman transform inversion: our CPU and CUDA batches against GSL QAWF.");
  command.add()("quick", "smaller batches (5,000 and 20,000 integrals)");
  if (!command.parse(argc, argv)) return 0;  // --help
  const bool quick = command.given("quick");
  const bool gpu = geobem::cuda_device_count() > 0;
  std::printf("bench_longman: %s, %d CPU threads, %s\n", quick ? "quick" : "full", omp_get_max_threads(),
              gpu ? "CUDA device present" : "no CUDA device");
  if (gpu) {  // create the context outside the timings
    LongmanOptions options;
    const std::vector<double> p = paper_batch(16);
    integrate_family(transform_family<ExponentialCosine>, p, 16, options, 16, geobem::ComputeDevice::Cuda);
  }
  const std::size_t paper_m = quick ? 5000 : 50000, large_m = quick ? 20000 : 1000000;

  LongmanOptions paper;  // N = 16 areas, Euler differences (the paper's method), Gauss order 16
  paper.accelerator = Accelerator::Euler;
  paper.min_areas = paper.max_areas = 16;
  run_setting("paper: N=16 euler", paper_batch(paper_m), paper, gpu, paper_m, 1e-12);

  for (const Accelerator accelerator : {Accelerator::Euler, Accelerator::Epsilon}) {
    LongmanOptions adaptive;
    adaptive.accelerator = accelerator;
    adaptive.relative_tolerance = 1e-12;
    adaptive.max_areas = 200;
    const std::string setting = "1e-12 adaptive " + to_string(accelerator);
    run_setting(setting.c_str(), paper_batch(large_m), adaptive, gpu, accelerator == Accelerator::Euler ? paper_m : 0,
                1e-12);
  }
  return 0;
}

int main(int argc, char** argv) {
  return geobem::cli::run_stage("bench_longman", [&] { return run_bench(argc, argv); });
}
