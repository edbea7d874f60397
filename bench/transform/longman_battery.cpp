// longman_battery: random batteries of Longman integrals over each built-in
// family's parameter range, checked against closed forms evaluated in long
// double (never the solver's own output), on the CPU path. Prints, per family,
// accelerator and relative tolerance: how many rows are converged and within
// both the tolerance and their own error estimate, how many converged rows miss
// by more than 10x the tolerance, how many flagged rows' estimates bound their
// true error, how many flagged rows are within the tolerance anyway, and the
// worst error of a converged row in units of its tolerance.
// Usage: longman_battery [--count N] [--seed S] [--family NAME] [--rows FILE]
//   --rows FILE writes every row (family, parameters, tolerance, value, exact,
//   error, status) as CSV for a closer look.
#include <boost/program_options.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <random>
#include <string>
#include <vector>

#include "gpu/transform/transform.hpp"
#include "stages/cli/stage_options.hpp"

using namespace geobem::transform;

namespace {

using Real = long double;

/// The closed form of one integral of `family` (the formulas of families.hpp), in long double.
Real closed_form(TransformFamily family, const double* p) {
  const Real pi = 3.141592653589793238462643383279502884L;
  switch (family) {
    case TransformFamily::ExponentialCosine: return Real(p[0]) / (Real(p[0]) * p[0] + Real(p[1]) * p[1]);
    case TransformFamily::ExponentialSine: return Real(p[1]) / (Real(p[0]) * p[0] + Real(p[1]) * p[1]);
    case TransformFamily::LorentzianCosine:
    case TransformFamily::LorentzianSine: return pi / 2 * std::exp(-Real(p[0]));
    case TransformFamily::HankelExponential: {
      const Real a = p[2], r = p[3], s = std::sqrt(a * a + r * r);
      if (p[0] == 0) return p[1] == 0 ? 1 / s : a / (s * s * s);
      return p[1] == 0 ? r / (s * (s + a)) : r / (s * s * s);
    }
    case TransformFamily::HalfSpaceDisk: {
      const Real a = p[0], r = p[1];
      if (r == 0) return 1;
      if (r < a) return 2 / pi * std::comp_ellint_2(r / a);
      if (r == a) return 2 / pi;
      const Real k = a / r;
      return 2 * r / (pi * a) * (std::comp_ellint_2(k) - (1 - k * k) * std::comp_ellint_1(k));
    }
  }
  return NAN;
}

/// Random parameter rows over the family's documented range (transform.cpp),
/// log-uniform in each scale and in the damping or rim ratio, with a tenth of
/// the rows on the edges of the range.
std::vector<double> draw(TransformFamily family, std::size_t count, std::mt19937_64& random) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto log_uniform = [&](double lo, double hi) { return lo * std::pow(hi / lo, unit(random)); };
  const ParameterRange range = parameter_range(family);
  std::vector<double> rows;
  for (std::size_t i = 0; i < count; ++i) {
    const bool edge = i % 10 == 9;
    const double scale = log_uniform(range.scale_min, range.scale_max);
    double ratio = log_uniform(range.ratio_min, range.ratio_max);
    if (edge) ratio = unit(random) < 0.5 ? range.ratio_min * log_uniform(1.0, 1.5) : range.ratio_max / log_uniform(1.0, 1.5);
    switch (family) {
      case TransformFamily::ExponentialCosine:
      case TransformFamily::ExponentialSine:  // scale = omega, ratio = damping lambda/omega
        rows.insert(rows.end(), {scale * ratio, scale});
        break;
      case TransformFamily::LorentzianCosine:
      case TransformFamily::LorentzianSine:  // ratio = omega
        rows.push_back(ratio);
        break;
      case TransformFamily::HankelExponential: {  // scale = r, ratio = a/r; m = 0 down to a = 0
        const double nu = std::floor(2 * unit(random)), m = std::floor(2 * unit(random));
        if (m == 0 && i % 4 == 3) ratio = log_uniform(1e-6, range.ratio_min);
        const double a = (m == 0 && i % 8 == 7) ? 0.0 : scale * ratio;
        rows.insert(rows.end(), {nu, m, a, scale});
        break;
      }
      case TransformFamily::HalfSpaceDisk: {  // scale = a, ratio = r/a; a third near the rim, some at r = 0
        if (i % 3 == 1) ratio = 1.0 + (unit(random) < 0.5 ? -1.0 : 1.0) * log_uniform(1e-4, 0.3);
        if (i % 50 == 7) ratio = 0.0;
        rows.insert(rows.end(), {scale, scale * ratio});
        break;
      }
    }
  }
  return rows;
}

struct Tally {
  std::size_t rows = 0, converged = 0, converged_good = 0, converged_off_10x = 0, flagged = 0, flagged_bounded = 0,
              flagged_within = 0;
  double worst_converged = 0.0, worst_flagged = 0.0;  // |error| / tolerance
};

}  // namespace

int run_battery(int argc, char** argv) {
  namespace po = boost::program_options;
  po::options_description options("longman_battery options");
  options.add_options()("count", po::value<std::size_t>()->default_value(2000), "integrals per family")(
      "seed", po::value<unsigned>()->default_value(20261124), "random seed")(
      "family", po::value<std::string>(), "one family only (default: all)")(
      "accelerator", po::value<std::string>(), "one accelerator only (default: all)")(
      "rows", po::value<std::string>(), "write every row to this CSV file");
  const auto parsed = geobem::cli::parse_stage_options(
      argc, argv, "longman_battery", "Random batteries of Longman integrals against closed forms (CPU).", options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const std::size_t count = vm["count"].as<std::size_t>();
  std::ofstream rows_file;
  if (vm.count("rows")) {
    rows_file.open(vm["rows"].as<std::string>());
    rows_file << "family,accelerator,rel_tol,p0,p1,p2,p3,value,exact,error,estimate,areas,status\n"
              << std::setprecision(17);
  }
  std::printf("%-15s %-8s %-6s %6s %9s %9s %6s %8s %8s %8s %10s %10s %8s\n", "family", "accel", "tol", "rows",
              "converged", "conv_good", "off10x", "flagged", "f_bound", "f_within", "worst_conv", "worst_flag",
              "seconds");
  for (const auto& description : transform_families()) {
    if (vm.count("family") && vm["family"].as<std::string>() != description.name) continue;
    std::mt19937_64 random(vm["seed"].as<unsigned>() + static_cast<unsigned>(description.family));
    const std::vector<double> parameters = draw(description.family, count, random);
    const std::size_t stride = description.parameters.size();
    for (const Accelerator accelerator : {Accelerator::Euler, Accelerator::Epsilon, Accelerator::SidiMW}) {
      if (vm.count("accelerator") && vm["accelerator"].as<std::string>() != to_string(accelerator)) continue;
      for (const double tolerance : {1e-6, 1e-10, 1e-12}) {
        LongmanOptions settings;
        settings.accelerator = accelerator;
        settings.relative_tolerance = tolerance;
        settings.max_areas = 200;
        const auto start = std::chrono::steady_clock::now();
        const auto results = integrate_family(description.family, parameters, count, settings, 16,
                                              geobem::ComputeDevice::Cpu);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        Tally t;
        for (std::size_t i = 0; i < count; ++i) {
          const double* p = &parameters[i * stride];
          const Real exact = closed_form(description.family, p);
          const auto& r = results[i];
          const double error = static_cast<double>(std::fabs(Real(r.value) - exact));
          const double allowed = tolerance * static_cast<double>(std::fabs(exact));
          const bool within = error <= allowed;
          ++t.rows;
          if (static_cast<int>(r.status) == 0) {
            ++t.converged;
            t.converged_good += within && error <= r.error;
            t.converged_off_10x += !(error <= 10 * allowed);
            t.worst_converged = std::fmax(t.worst_converged, error / allowed);
          } else {
            ++t.flagged;
            t.flagged_bounded += error <= r.error;
            t.flagged_within += within;
            if (std::isfinite(error / allowed)) t.worst_flagged = std::fmax(t.worst_flagged, error / allowed);
          }
          if (rows_file.is_open()) {
            rows_file << description.name << "," << to_string(accelerator) << "," << tolerance;
            for (std::size_t j = 0; j < 4; ++j) rows_file << "," << (j < stride ? p[j] : 0.0);
            rows_file << "," << r.value << "," << static_cast<double>(exact) << "," << error << "," << r.error << ","
                      << r.areas << "," << static_cast<int>(r.status) << "\n";
          }
        }
        std::printf("%-15s %-8s %-6.0e %6zu %9zu %9zu %6zu %8zu %8zu %8zu %10.2e %10.2e %8.2f\n",
                    description.name.c_str(), to_string(accelerator).c_str(), tolerance, t.rows, t.converged,
                    t.converged_good, t.converged_off_10x, t.flagged, t.flagged_bounded, t.flagged_within,
                    t.worst_converged, t.worst_flagged, seconds);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  return geobem::cli::run_stage("longman_battery", [&] { return run_battery(argc, argv); });
}
