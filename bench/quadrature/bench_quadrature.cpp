// Adaptive quadrature and cubature against peers, same integrands and
// tolerances (issue 5): n-D f1-f4 of Arumugam et al. by our CUDA and CPU
// two-phase cubature and by libcubature's hcubature (CPU); Kern & Alaghband's
// Table 2 set at 1e-10 by our CUDA and CPU block cutting and GSL QAGS; a
// batch of 1D integrals. Prints CSV on stdout:
// method,case,dim,rel_tol,estimate,error_estimate,true_error,evaluations,regions,status,seconds
// (true_error against the references below; status: 0 converged, 1 cap, 2 not converged;
// batch rows: true_error = the worst relative error, status = integrals not converged).
//
// usage: bench_quadrature [--cpu-cap EVALS] [--no-cuda]
#include <cubature.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_expint.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "gpu/quadrature/cubature.hpp"

using namespace geobem::quadrature;
using geobem::ComputeDevice;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void print_row(const char* method, const std::string& name, int dim, double tol, double estimate, double error,
               double reference, unsigned long long evaluations, unsigned long long regions, int status,
               double seconds) {
  std::printf("%s,%s,%d,%.0e,%.15g,%.3e,%.3e,%llu,%llu,%d,%.4f\n", method, name.c_str(), dim, tol, estimate, error,
              std::fabs(estimate - reference), evaluations, regions, status, seconds);
  std::fflush(stdout);
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
      case Integrand1DFamily::ExpSin:
        return std::exp(p[0] * x) * (p[0] * std::sin(p[1] * x) - p[1] * std::cos(p[1] * x)) / (p[0] * p[0] + p[1] * p[1]);
      case Integrand1DFamily::PolyCos:
        return p[0] * (std::cos(p[1] * x) / (p[1] * p[1]) + x * std::sin(p[1] * x) / p[1]) - std::pow(x - p[2], 3) / 3.0;
      case Integrand1DFamily::ExpCos: {
        const double k = p[1] * M_PI;
        return std::exp(-p[0] * x) * (k * std::sin(k * x) - p[0] * std::cos(k * x)) / (p[0] * p[0] + k * k);
      }
      case Integrand1DFamily::Sinc: return gsl_sf_Si(p[0] * M_PI * x) / M_PI;
    }
    return 0.0;
  };
  return F(b) - F(a);
}

double gsl_integrand(double x, void* data) { return (*static_cast<const Integrand1D*>(data))(x); }

}  // namespace

int main(int argc, char** argv) {
  double cpu_cap = 2e8;
  bool cuda = geobem::cuda_device_count() > 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--cpu-cap") && i + 1 < argc) cpu_cap = std::atof(argv[++i]);
    if (!std::strcmp(argv[i], "--no-cuda")) cuda = false;
  }
  std::printf("method,case,dim,rel_tol,estimate,error_estimate,true_error,evaluations,regions,status,seconds\n");
  const NdCase nd_cases[] = {{CubatureFamily::F1, 7, 1e-5, kF1Reference7D},
                             {CubatureFamily::F2, 4, 1e-4, kF2Reference4D},
                             {CubatureFamily::F3, 4, 1e-5, kF3Reference4D},
                             {CubatureFamily::F4, 7, 1e-4, kF4Reference7D}};
  if (cuda) {  // context creation and module load outside the timings
    CubatureOptions warm;
    warm.dim = 2;
    warm.rel_tol = 1e-3;
    integrate_cubature(make_cubature_integrand(CubatureFamily::F1, 2), warm, ComputeDevice::Cuda);
  }
  for (const NdCase& c : nd_cases) {
    const CubatureIntegrand f = make_cubature_integrand(c.family, c.dim);
    const std::string name = to_string(c.family);
    CubatureOptions o;
    o.dim = c.dim;
    o.rel_tol = c.rel_tol;
    if (cuda) {
      const auto start = std::chrono::steady_clock::now();
      const CubatureResult r = integrate_cubature(f, o, ComputeDevice::Cuda);
      print_row("geobem_cuda", name, c.dim, c.rel_tol, r.estimate, r.error, c.reference, r.evaluations, r.regions,
                static_cast<int>(r.status), seconds_since(start));
    }
    o.max_evaluations = static_cast<std::uint64_t>(cpu_cap);
    {
      const auto start = std::chrono::steady_clock::now();
      const CubatureResult r = integrate_cubature(f, o, ComputeDevice::Cpu);
      print_row("geobem_cpu", name, c.dim, c.rel_tol, r.estimate, r.error, c.reference, r.evaluations, r.regions,
                static_cast<int>(r.status), seconds_since(start));
    }
    {
      std::vector<double> lower(c.dim, 0.0), upper(c.dim, 1.0);
      double value = 0.0, error = 0.0;
      const auto start = std::chrono::steady_clock::now();
      hcubature(1, hcubature_integrand, const_cast<CubatureIntegrand*>(&f), c.dim, lower.data(), upper.data(),
                static_cast<size_t>(cpu_cap), 0.0, c.rel_tol, ERROR_INDIVIDUAL, &value, &error);
      const int status = error <= c.rel_tol * std::fabs(value) ? 0 : 1;
      print_row("hcubature_cpu", name, c.dim, c.rel_tol, value, error, c.reference, 0, 0, status, seconds_since(start));
    }
  }

  // Kern & Alaghband's Table 2 at 1e-10 relative.
  struct Case1D {
    Integrand1DFamily family;
    double lower, upper;
  };
  const Case1D table2[] = {{Integrand1DFamily::ExpSin, 0, 5},   {Integrand1DFamily::ExpSin, 0, 6},
                           {Integrand1DFamily::ExpSin, 0, 7},   {Integrand1DFamily::PolyCos, 0, 30},
                           {Integrand1DFamily::PolyCos, 0, 50}, {Integrand1DFamily::PolyCos, 0, 70},
                           {Integrand1DFamily::ExpCos, 0, 10},  {Integrand1DFamily::ExpCos, 0, 20},
                           {Integrand1DFamily::ExpCos, 0, 30},  {Integrand1DFamily::Sinc, 1e-6, 10},
                           {Integrand1DFamily::Sinc, 1e-6, 15}, {Integrand1DFamily::Sinc, 1e-6, 20}};
  gsl_set_error_handler_off();
  gsl_integration_workspace* workspace = gsl_integration_workspace_alloc(100000);
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
                exact, r.evaluations, r.blocks, static_cast<int>(r.status), seconds_since(start));
    }
    gsl_function F{gsl_integrand, const_cast<Integrand1D*>(&f)};
    double value = 0.0, error = 0.0;
    const auto start = std::chrono::steady_clock::now();
    const int status = gsl_integration_qags(&F, c.lower, c.upper, 0.0, 1e-10, 100000, workspace, &value, &error);
    print_row("gsl_qags", name, 1, 1e-10, value, error, exact, 0, workspace->size, status == GSL_SUCCESS ? 0 : 2,
              seconds_since(start));
  }

  // A batch: 100,000 integrals of e^{-p0 x} cos(p1 pi x) on [0, b], each adaptive on its own.
  std::vector<Problem1D> problems(100000);
  for (std::size_t i = 0; i < problems.size(); ++i) {
    problems[i].integrand = table2_integrand(Integrand1DFamily::ExpCos);
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
    for (std::size_t i = 0; i < problems.size(); ++i) {
      const double exact = exact_table2(problems[i].integrand, problems[i].lower, problems[i].upper);
      worst = std::max(worst, std::fabs(results[i].estimate - exact) / std::fabs(exact));
      evaluations += results[i].evaluations;
      unconverged += results[i].status != CubatureStatus::Converged;
    }
    print_row(device == ComputeDevice::Cuda ? "geobem_cuda_batch" : "geobem_cpu_batch", "exp_cos_x100000", 1, 1e-10,
              0.0, 0.0, worst, evaluations, problems.size(), static_cast<int>(unconverged), seconds);
  }
  {
    const auto start = std::chrono::steady_clock::now();
    double worst = 0.0;
    for (const Problem1D& p : problems) {
      gsl_function F{gsl_integrand, const_cast<Integrand1D*>(&p.integrand)};
      double value = 0.0, error = 0.0;
      gsl_integration_qags(&F, p.lower, p.upper, 0.0, 1e-10, 100000, workspace, &value, &error);
      const double exact = exact_table2(p.integrand, p.lower, p.upper);
      worst = std::max(worst, std::fabs(value - exact) / std::fabs(exact));
    }
    print_row("gsl_qags_loop", "exp_cos_x100000", 1, 1e-10, 0.0, 0.0, worst, 0, problems.size(), 0,
              seconds_since(start));
  }
  gsl_integration_workspace_free(workspace);
  return 0;
}
