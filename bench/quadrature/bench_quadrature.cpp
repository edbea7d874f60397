// Adaptive quadrature and cubature against peers, same integrands and
// tolerances: n-D f1-f4 of Arumugam et al. by our CUDA and CPU
// two-phase cubature and by libcubature's hcubature (CPU); Kern & Alaghband's
// Table 2 set at 1e-10 by our CUDA and CPU block cutting and GSL QAGS; a
// batch of 1D integrals. Prints CSV on stdout:
// method,case,dim,rel_tol,estimate,error_estimate,true_error,evaluations,regions,status,seconds
// (true_error against the references below; status: the word of
// gpu/core/integration_status.hpp, hcubature's and GSL's outcomes mapped onto
// it; batch rows: true_error = the worst relative error, status = converged
// when every integral converged, else the first other status met, the count
// of integrals not converged on stderr).
//
// What is timed (host steady clock around ONE library call, after the device
// has finished: the call returns host results; it includes every device
// allocation, launch, copy and synchronisation the call makes). The same
// convention as PAGANI's own driver (docs/references.md#cubature): one warm-up
// integration at start (context creation, module load), then the four cases
// back to back, each timed around its integrate call.
// - geobem_cuda_warmup: the untimed-in-spirit first call (a 2D case that runs
//   both phases, so every kernel is loaded), reported on its own row.
// - geobem_cuda: the first call of each n-D case, cases f1..f4 back to back
//   right after the warm-up (before any CPU peer runs).
// - geobem_cuda_median: median over --reps passes of f1..f4 (the first pass
//   included); the bench checks that every pass gives the same result.
// - geobem_cpu, hcubature_cpu: one call each, after all CUDA passes.
// - with --idle-probe S: f3 on the device again after S seconds of host sleep
//   (geobem_cuda_after_idle, then at once geobem_cuda_after_idle_repeat) and
//   after S seconds of one busy host thread (geobem_cuda_after_host_busy, as
//   when f3 followed single-core hcubature in the earlier layout); the epoch
//   time of each probe goes to stderr to line up with an nvidia-smi log.
// - 1D: geobem_cuda_1d_warmup (one Table-2 integral), then one call per row.
//
// usage: bench_quadrature [--cpu-cap EVALS] [--no-cuda] [--reps N] [--idle-probe SECONDS] (--help)
#include <boost/program_options.hpp>
#include <cubature.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_expint.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/core/seconds_since.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "gpu/quadrature/cubature.hpp"
#include "stages/cli/stage_options.hpp"

using namespace geobem::quadrature;
using geobem::ComputeDevice;
using geobem::kPi;
using geobem::seconds_since;

namespace {

void print_row(const char* method, const std::string& name, int dim, double tol, double estimate, double error,
               double reference, unsigned long long evaluations, unsigned long long regions,
               IntegrationStatus status, double seconds) {
  std::printf("%s,%s,%d,%.0e,%.15g,%.3e,%.3e,%llu,%llu,%s,%.4f\n", method, name.c_str(), dim, tol, estimate, error,
              std::fabs(estimate - reference), evaluations, regions, to_string(status).c_str(), seconds);
  std::fflush(stdout);
}

/// GSL QAGS's return code in our words (GSL manual, QAGS: GSL_EMAXITER the
/// subdivision limit, GSL_EROUND roundoff, GSL_ESING/GSL_EDIVERGE otherwise).
IntegrationStatus gsl_status(int code) {
  switch (code) {
    case GSL_SUCCESS: return IntegrationStatus::Converged;
    case GSL_EMAXITER: return IntegrationStatus::EvaluationCapReached;
    case GSL_EROUND: return IntegrationStatus::RoundingLimited;
    default: return IntegrationStatus::NotConverged;
  }
}

// References over [0,1]^n from bench/quadrature/reference_values.py (series
// and Fourier expansions in mpmath, no n-dimensional quadrature; see that file).
constexpr double kF1Reference7D = 18.163673020465765663;
constexpr double kF2Reference4D = 0.96524060916864002184;
constexpr double kF3Reference4D = 0.090415164700330145624;
constexpr double kF4Reference7D = 0.019196994669629073495;

struct NdCase {
  CubatureFamily family;
  int dim;
  double rel_tol;
  double reference;
};

int hcubature_integrand(unsigned ndim, const double* x, void* data, unsigned, double* value) {
  *value = (*static_cast<const CubatureIntegrand*>(data))(x, static_cast<int>(ndim));
  return 0;
}

double exact_table2(const Integrand1D& f, double a, double b) {
  const double* p = f.p;
  auto F = [&](double x) {
    switch (f.family) {
      case integrand_1d_family<ExpSin>:
        return std::exp(p[0] * x) * (p[0] * std::sin(p[1] * x) - p[1] * std::cos(p[1] * x)) / (p[0] * p[0] + p[1] * p[1]);
      case integrand_1d_family<PolyCos>:
        return p[0] * (std::cos(p[1] * x) / (p[1] * p[1]) + x * std::sin(p[1] * x) / p[1]) - std::pow(x - p[2], 3) / 3.0;
      case integrand_1d_family<ExpCos>: {
        const double k = p[1] * kPi;
        return std::exp(-p[0] * x) * (k * std::sin(k * x) - p[0] * std::cos(k * x)) / (p[0] * p[0] + k * k);
      }
      case integrand_1d_family<Sinc>: return gsl_sf_Si(p[0] * kPi * x) / kPi;
    }
    return 0.0;
  };
  return F(b) - F(a);
}

double gsl_integrand(double x, void* data) { return (*static_cast<const Integrand1D*>(data))(x); }

double epoch_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// "f1,f3" → {"f1", "f3"}.
std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');)
    if (!name.empty()) names.push_back(name);
  return names;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// One timed CUDA cubature call: the result and its seconds.
struct TimedResult {
  CubatureResult result;
  double seconds;
};

/// Phase-one size and evaluation cap of the CUDA n-D rows (--min-regions, --max-evals).
struct CudaSettings {
  std::size_t min_regions = CubatureOptions{}.min_regions;
  std::uint64_t max_evaluations = CubatureOptions{}.max_evaluations;
};

TimedResult timed_cuda_cubature(const NdCase& c, const CudaSettings& settings) {
  CubatureOptions o;
  o.dim = c.dim;
  o.rel_tol = c.rel_tol;
  o.min_regions = settings.min_regions;
  o.max_evaluations = settings.max_evaluations;
  const CubatureIntegrand f = make_cubature_integrand(c.family, c.dim);
  const auto start = std::chrono::steady_clock::now();
  const CubatureResult r = integrate_cubature(f, o, ComputeDevice::Cuda);
  return {r, seconds_since(start)};
}

void print_cubature_row(const char* method, const NdCase& c, const CubatureResult& r, double seconds) {
  print_row(method, to_string(c.family), c.dim, c.rel_tol, r.estimate, r.error, c.reference, r.evaluations, r.regions,
            r.status, seconds);
}

}  // namespace

int run_bench(int argc, char** argv) {
  namespace po = boost::program_options;
  double cpu_cap = 2e8, idle_probe = 0.0, cuda_cap = 2e9;
  int reps = 5, min_regions = 1 << 20;
  std::string case_list = "f1,f2,f3,f4";
  geobem::cli::StageOptions command(
      "bench_quadrature", "Adaptive cubature and 1D quadrature, CPU and CUDA, against hcubature and GSL QAGS.");
  command.add()
      ("cpu-cap", po::value(&cpu_cap)->default_value(2e8, "2e8"), "evaluation cap of the CPU rows (ours and hcubature)")
      ("reps", po::value(&reps)->default_value(5), "CUDA passes of f1..f4 (median reported), at least 1")
      ("idle-probe", po::value(&idle_probe)->default_value(0.0, "0"),
       "seconds of host sleep, then of one busy host thread, before f3 runs again on the device (0: skip)")
      ("min-regions", po::value(&min_regions)->default_value(1 << 20), "CUDA n-D rows: L_max, phase one's live regions")
      ("max-evals", po::value(&cuda_cap)->default_value(2e9, "2e9"), "CUDA n-D rows: evaluation cap")
      ("cases", po::value(&case_list)->default_value(case_list), "n-D cases to run, a comma-separated subset of f1,f2,f3,f4")
      ("no-cuda", "CPU rows only");
  if (!command.parse(argc, argv)) return 0;  // --help
  if (reps < 1) throw po::error("--reps must be at least 1");
  if (min_regions < 1) throw po::error("--min-regions must be at least 1");
  if (!(cuda_cap >= 1.0 && cuda_cap < 1.8e19)) throw po::error("--max-evals out of range");
  const bool cuda = !command.given("no-cuda") && geobem::cuda_device_count() > 0;
  const NdCase nd_cases[] = {{cubature_family<ArumugamF1>, 7, 1e-5, kF1Reference7D},
                             {cubature_family<ArumugamF2>, 4, 1e-4, kF2Reference4D},
                             {cubature_family<ArumugamF3>, 4, 1e-5, kF3Reference4D},
                             {cubature_family<ArumugamF4>, 7, 1e-4, kF4Reference7D}};
  std::vector<NdCase> cases;
  for (const std::string& name : split_names(case_list)) {
    const auto it = std::find_if(std::begin(nd_cases), std::end(nd_cases),
                                 [&](const NdCase& c) { return to_string(c.family) == name; });
    if (it == std::end(nd_cases)) throw po::error("--cases: '" + name + "' is not one of f1,f2,f3,f4");
    cases.push_back(*it);
  }
  std::printf("method,case,dim,rel_tol,estimate,error_estimate,true_error,evaluations,regions,status,seconds\n");
  const CudaSettings cuda_settings{static_cast<std::size_t>(min_regions), static_cast<std::uint64_t>(cuda_cap)};
  if (cuda) {
    // Warm-up (context, module load): phase one stops at 64 live regions, so
    // phase two and its kernel run too. Reported, not part of any case.
    CubatureOptions warm;
    warm.dim = 2;
    warm.rel_tol = 1e-9;
    warm.min_regions = 64;
    const NdCase warm_case{cubature_family<ArumugamF1>, 2, warm.rel_tol, std::nan("")};  // no reference: true_error nan
    const auto start = std::chrono::steady_clock::now();
    const CubatureResult r = integrate_cubature(make_cubature_integrand(cubature_family<ArumugamF1>, 2), warm, ComputeDevice::Cuda);
    print_cubature_row("geobem_cuda_warmup", warm_case, r, seconds_since(start));
    // Passes of f1..f4 back to back; the first pass is the geobem_cuda row.
    std::vector<std::vector<double>> seconds(cases.size());
    std::vector<CubatureResult> first(cases.size());
    for (int pass = 0; pass < reps; ++pass) {
      for (std::size_t k = 0; k < cases.size(); ++k) {
        const TimedResult t = timed_cuda_cubature(cases[k], cuda_settings);
        seconds[k].push_back(t.seconds);
        if (pass == 0) {
          first[k] = t.result;
          print_cubature_row("geobem_cuda", cases[k], t.result, t.seconds);
        } else if (t.result.estimate != first[k].estimate || t.result.error != first[k].error ||
                   t.result.evaluations != first[k].evaluations) {
          std::fprintf(stderr, "warning: %s pass %d differs from pass 0: estimate %.17g error %.17g evaluations %llu\n",
                       to_string(cases[k].family).c_str(), pass, t.result.estimate, t.result.error,
                       static_cast<unsigned long long>(t.result.evaluations));
        }
      }
    }
    for (std::size_t k = 0; k < cases.size(); ++k)
      print_cubature_row("geobem_cuda_median", cases[k], first[k], median(seconds[k]));
  }
  for (const NdCase& c : cases) {
    const CubatureIntegrand f = make_cubature_integrand(c.family, c.dim);
    CubatureOptions o;
    o.dim = c.dim;
    o.rel_tol = c.rel_tol;
    o.max_evaluations = static_cast<std::uint64_t>(cpu_cap);
    {
      const auto start = std::chrono::steady_clock::now();
      const CubatureResult r = integrate_cubature(f, o, ComputeDevice::Cpu);
      print_cubature_row("geobem_cpu", c, r, seconds_since(start));
    }
    {
      std::vector<double> lower(c.dim, 0.0), upper(c.dim, 1.0);
      double value = 0.0, error = 0.0;
      const auto start = std::chrono::steady_clock::now();
      hcubature(1, hcubature_integrand, const_cast<CubatureIntegrand*>(&f), c.dim, lower.data(), upper.data(),
                static_cast<size_t>(cpu_cap), 0.0, c.rel_tol, ERROR_INDIVIDUAL, &value, &error);
      // hcubature stops at the tolerance or at its evaluation cap.
      const IntegrationStatus status = error <= c.rel_tol * std::fabs(value) ? IntegrationStatus::Converged
                                                                             : IntegrationStatus::EvaluationCapReached;
      print_row("hcubature_cpu", to_string(c.family), c.dim, c.rel_tol, value, error, c.reference, 0, 0, status,
                seconds_since(start));
    }
  }
  if (cuda && idle_probe > 0.0) {
    const NdCase& f3 = nd_cases[2];
    std::fprintf(stderr, "# idle probe: host sleeps %.1f s from epoch %.3f\n", idle_probe, epoch_seconds());
    std::this_thread::sleep_for(std::chrono::duration<double>(idle_probe));
    std::fprintf(stderr, "# idle probe: f3 starts at epoch %.3f\n", epoch_seconds());
    TimedResult t = timed_cuda_cubature(f3, cuda_settings);
    print_cubature_row("geobem_cuda_after_idle", f3, t.result, t.seconds);
    t = timed_cuda_cubature(f3, cuda_settings);
    print_cubature_row("geobem_cuda_after_idle_repeat", f3, t.result, t.seconds);
    std::fprintf(stderr, "# busy probe: one host thread spins %.1f s from epoch %.3f\n", idle_probe, epoch_seconds());
    const auto spin_start = std::chrono::steady_clock::now();
    volatile double sink = 0.0;
    while (seconds_since(spin_start) < idle_probe)
      for (int i = 0; i < 100000; ++i) sink = sink + std::sqrt(static_cast<double>(i));
    std::fprintf(stderr, "# busy probe: f3 starts at epoch %.3f\n", epoch_seconds());
    t = timed_cuda_cubature(f3, cuda_settings);
    print_cubature_row("geobem_cuda_after_host_busy", f3, t.result, t.seconds);
  }

  // Kern & Alaghband's Table 2 at 1e-10 relative.
  struct Case1D {
    Integrand1DFamily family;
    double lower, upper;
  };
  const Case1D table2[] = {{integrand_1d_family<ExpSin>, 0, 5},   {integrand_1d_family<ExpSin>, 0, 6},
                           {integrand_1d_family<ExpSin>, 0, 7},   {integrand_1d_family<PolyCos>, 0, 30},
                           {integrand_1d_family<PolyCos>, 0, 50}, {integrand_1d_family<PolyCos>, 0, 70},
                           {integrand_1d_family<ExpCos>, 0, 10},  {integrand_1d_family<ExpCos>, 0, 20},
                           {integrand_1d_family<ExpCos>, 0, 30},  {integrand_1d_family<Sinc>, 1e-6, 10},
                           {integrand_1d_family<Sinc>, 1e-6, 15}, {integrand_1d_family<Sinc>, 1e-6, 20}};
  gsl_set_error_handler_off();
  gsl_integration_workspace* workspace = gsl_integration_workspace_alloc(100000);
  if (cuda) {  // first 1D launch (module load) reported on its own row
    const Integrand1D f = table2_integrand(table2[0].family);
    Adaptive1DOptions o;
    o.rel_tol = 1e-10;
    const auto start = std::chrono::steady_clock::now();
    const Adaptive1DResult r = integrate_adaptive_1d(f, table2[0].lower, table2[0].upper, o, ComputeDevice::Cuda);
    print_row("geobem_cuda_1d_warmup", to_string(table2[0].family) + "_0_5", 1, o.rel_tol, r.estimate, r.error,
              exact_table2(f, table2[0].lower, table2[0].upper), r.evaluations, r.blocks, r.status,
              seconds_since(start));
  }
  for (const Case1D& c : table2) {
    const Integrand1D f = table2_integrand(c.family);
    const double exact = exact_table2(f, c.lower, c.upper);
    const std::string name = to_string(c.family) + "_0_" + std::to_string(static_cast<int>(c.upper));
    Adaptive1DOptions o;
    o.rel_tol = 1e-10;
    for (ComputeDevice device : {ComputeDevice::Cuda, ComputeDevice::Cpu}) {
      if (device == ComputeDevice::Cuda && !cuda) continue;
      const auto start = std::chrono::steady_clock::now();
      const Adaptive1DResult r = integrate_adaptive_1d(f, c.lower, c.upper, o, device);
      print_row(device == ComputeDevice::Cuda ? "geobem_cuda" : "geobem_cpu", name, 1, o.rel_tol, r.estimate, r.error,
                exact, r.evaluations, r.blocks, r.status, seconds_since(start));
    }
    gsl_function F{gsl_integrand, const_cast<Integrand1D*>(&f)};
    double value = 0.0, error = 0.0;
    const auto start = std::chrono::steady_clock::now();
    const int status = gsl_integration_qags(&F, c.lower, c.upper, 0.0, 1e-10, 100000, workspace, &value, &error);
    print_row("gsl_qags", name, 1, 1e-10, value, error, exact, 0, workspace->size, gsl_status(status),
              seconds_since(start));
  }

  // A batch: 100,000 integrals of e^{-p0 x} cos(p1 pi x) on [0, b], each adaptive on its own.
  std::vector<Problem1D> problems(100000);
  for (std::size_t i = 0; i < problems.size(); ++i) {
    problems[i].integrand = table2_integrand(integrand_1d_family<ExpCos>);
    problems[i].integrand.p[0] = 0.5 + 1e-5 * i;
    problems[i].integrand.p[1] = 1.0 + 4e-5 * i;
    problems[i].upper = 1.0 + 1e-4 * i;
  }
  Adaptive1DOptions o;
  o.rel_tol = 1e-10;
  o.beta = 32;
  for (ComputeDevice device : {ComputeDevice::Cuda, ComputeDevice::Cpu}) {
    if (device == ComputeDevice::Cuda && !cuda) continue;
    const auto start = std::chrono::steady_clock::now();
    const auto results = integrate_adaptive_1d_batch(problems, o, device);
    const double seconds = seconds_since(start);
    double worst = 0.0;
    unsigned long long evaluations = 0, unconverged = 0;
    IntegrationStatus status = IntegrationStatus::Converged;
    for (std::size_t i = 0; i < problems.size(); ++i) {
      const double exact = exact_table2(problems[i].integrand, problems[i].lower, problems[i].upper);
      worst = std::max(worst, std::fabs(results[i].estimate - exact) / std::fabs(exact));
      evaluations += results[i].evaluations;
      if (results[i].status != IntegrationStatus::Converged) {
        if (unconverged++ == 0) status = results[i].status;
      }
    }
    const char* method = device == ComputeDevice::Cuda ? "geobem_cuda_batch" : "geobem_cpu_batch";
    if (unconverged > 0)
      std::fprintf(stderr, "# %s: %llu of %zu integrals not converged\n", method, unconverged, problems.size());
    print_row(method, "exp_cos_x100000", 1, 1e-10, 0.0, 0.0, worst, evaluations, problems.size(), status, seconds);
  }
  {
    const auto start = std::chrono::steady_clock::now();
    double worst = 0.0;
    IntegrationStatus status = IntegrationStatus::Converged;
    for (const Problem1D& p : problems) {
      gsl_function F{gsl_integrand, const_cast<Integrand1D*>(&p.integrand)};
      double value = 0.0, error = 0.0;
      const int code = gsl_integration_qags(&F, p.lower, p.upper, 0.0, 1e-10, 100000, workspace, &value, &error);
      if (status == IntegrationStatus::Converged) status = gsl_status(code);
      const double exact = exact_table2(p.integrand, p.lower, p.upper);
      worst = std::max(worst, std::fabs(value - exact) / std::fabs(exact));
    }
    print_row("gsl_qags_loop", "exp_cos_x100000", 1, 1e-10, 0.0, 0.0, worst, 0, problems.size(), status,
              seconds_since(start));
  }
  gsl_integration_workspace_free(workspace);
  return 0;
}

int main(int argc, char** argv) {
  return geobem::cli::run_stage("bench_quadrature", [&] { return run_bench(argc, argv); });
}
