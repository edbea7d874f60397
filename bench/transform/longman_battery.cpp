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

#include "gpu/core/input_error.hpp"
#include "gpu/core/seconds_since.hpp"
#include "gpu/transform/transform.hpp"
#include "stages/cli/stage_options.hpp"
#include "tests/transform/longman_battery.hpp"

using namespace geobem::transform;
using geobem::test::BatteryTally;


int run_battery(int argc, char** argv) {
  namespace po = boost::program_options;
  std::size_t count = 2000;
  unsigned seed = 20261124;
  std::string only_family, only_accelerator, rows_path;
  geobem::cli::StageOptions command("longman_battery",
                                    "Random batteries of Longman integrals against closed forms (CPU).");
  command.add()("count", po::value(&count)->default_value(count), "integrals per family")(
      "seed", po::value(&seed)->default_value(seed), "random seed")(
      "family", po::value(&only_family), "one family only (default: all)")(
      "accelerator", po::value(&only_accelerator), "one accelerator only (default: all)")(
      "rows", po::value(&rows_path), "write every row to this CSV file");
  if (!command.parse(argc, argv)) return 0;  // --help
  std::ofstream rows_file;
  if (!rows_path.empty()) {
    rows_file.open(rows_path);
    if (!rows_file) throw geobem::InputError::usage("--rows " + rows_path + ": cannot open for writing");
    rows_file << "family,accelerator,rel_tol,p0,p1,p2,p3,value,exact,error,estimate,areas,status\n"
              << std::setprecision(17);
  }
  std::printf("%-15s %-8s %-6s %6s %9s %9s %6s %8s %8s %8s %10s %10s %8s\n", "family", "accel", "tol", "rows",
              "converged", "conv_good", "off10x", "flagged", "f_bound", "f_within", "worst_conv", "worst_flag",
              "seconds");
  for (const auto& description : transform_families()) {
    if (!only_family.empty() && only_family != description.name) continue;
    std::mt19937_64 random(seed + static_cast<unsigned>(description.family));
    const std::vector<double> parameters = geobem::test::draw_battery(description.family, count, random);
    const std::size_t stride = description.parameters.size();
    for (const Accelerator accelerator : {Accelerator::Euler, Accelerator::Epsilon, Accelerator::SidiMW}) {
      if (!only_accelerator.empty() && only_accelerator != to_string(accelerator)) continue;
      for (const double tolerance : {1e-6, 1e-10, 1e-12}) {
        LongmanOptions settings;
        settings.accelerator = accelerator;
        settings.relative_tolerance = tolerance;
        settings.max_areas = 200;
        const auto start = std::chrono::steady_clock::now();
        const auto results = integrate_family(description.family, parameters, count, settings, 16,
                                              geobem::ComputeDevice::Cpu);
        const double seconds = geobem::seconds_since(start);
        BatteryTally t;
        double worst_flagged = 0.0;  // largest |error| / tolerance of a flagged row
        for (std::size_t i = 0; i < count; ++i) {
          const double* p = &parameters[i * stride];
          const long double exact = geobem::test::closed_form_long(description.family, p);
          const auto& r = results[i];
          t.add(r, exact, tolerance);
          const double error = static_cast<double>(std::fabs(static_cast<long double>(r.value) - exact));
          const double relative = error / (tolerance * static_cast<double>(std::fabs(exact)));
          if (r.status != geobem::IntegrationStatus::Converged && std::isfinite(relative))
            worst_flagged = std::fmax(worst_flagged, relative);
          if (rows_file.is_open()) {
            rows_file << description.name << "," << to_string(accelerator) << "," << tolerance;
            for (std::size_t j = 0; j < 4; ++j) rows_file << "," << (j < stride ? p[j] : 0.0);
            rows_file << "," << r.value << "," << static_cast<double>(exact) << "," << error << "," << r.error << ","
                      << r.areas << "," << geobem::to_string(r.status) << "\n";
          }
        }
        std::printf("%-15s %-8s %-6.0e %6zu %9zu %9zu %6zu %8zu %8zu %8zu %10.2e %10.2e %8.2f\n",
                    description.name.c_str(), to_string(accelerator).c_str(), tolerance, t.rows, t.converged,
                    t.converged_good, t.converged_off_10x, t.flagged, t.flagged_bounded, t.flagged_within,
                    t.worst_converged, worst_flagged, seconds);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  return geobem::cli::run_stage("longman_battery", [&] { return run_battery(argc, argv); });
}
