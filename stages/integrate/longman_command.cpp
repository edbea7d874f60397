// geobem-integrate longman: one oscillatory improper integral per row of a
// parameter table (CSV), by Longman's method on the CPU or the GPU
// (gpu/transform). Every row is read and checked before computing, and the
// result table is written atomically: bad input writes nothing.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/integration_status.hpp"
#include "gpu/transform/transform.hpp"
#include "mesh/io/atomic_file.hpp"
#include "mesh/io/csv_table.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/integrate/integrate_command.hpp"

namespace po = boost::program_options;
namespace tf = geobem::transform;

namespace {

std::string family_help() {
  std::string text = "Families (--family; parameter columns) and their documented ranges (rows outside are refused):";
  for (const auto& family : tf::transform_families()) {
    text += "\n  " + family.name + " (";
    for (std::size_t i = 0; i < family.parameters.size(); ++i) text += (i ? "," : "") + family.parameters[i];
    text += "): " + family.integral + "\n      range: " + family.range;
  }
  return text + "\n";
}

constexpr const char* kStatusHelp =
    "Status column (one word per row):\n"
    "  converged                 the error estimate meets max(rel-tol*|value|, abs-tol); measured on random\n"
    "                            batteries over the documented ranges at rel-tol 1e-6, 1e-10 and 1e-12, >= 99.5%\n"
    "                            of such rows are within both the tolerance and their estimate (bench/RESULTS.md)\n"
    "  evaluation_cap_reached    max-areas used up; value is the best estimate, error the accelerator's\n"
    "  rounding_limited          rounding alone exceeds the tolerance (weak damping, tight rel-tol);\n"
    "                            error is that floor, which bounds the true error\n"
    "  extrapolation_unreliable  the accelerator broke down; value is the plain partial sum\n"
    "  non_finite                the integrand gave NaN or infinity\n";

int run_longman(int argc, const char* const argv[]) {
  po::options_description options("Options");
  geobem::cli::add_common_options(options);
  geobem::cli::add_device_option(options);
  options.add_options()("input", po::value<std::string>()->required(),
                        "parameter table CSV: one integral per row, the family's columns (others are copied)")(
      "output", po::value<std::string>()->required(),
      "result CSV: the input columns, then value,error,evaluations,areas,status (status: a word, see above)")(
      "family", po::value<std::string>()->required(), "integrand family (see above)")(
      "rel-tol", po::value<double>()->default_value(1e-12), "relative tolerance per integral (> 0)")(
      "abs-tol", po::value<double>()->default_value(0.0), "absolute tolerance per integral (>= 0)")(
      "accelerator", po::value<std::string>()->default_value("epsilon"),
      "euler (Longman's Euler differences), epsilon (Wynn), mw (Sidi; halfspace-disk away from its rim uses epsilon)")(
      "min-areas", po::value<int>()->default_value(4), "half-cycle areas always used (at most max-areas)")(
      "max-areas", po::value<int>()->default_value(200), "cap on half-cycle areas per integral (<= 256)")(
      "quadrature-order", po::value<int>()->default_value(16), "Gauss-Legendre points per panel (1..64)");
  const auto parsed = geobem::cli::parse_stage_options(
      argc, argv, argv[0],
      std::string("Integrates int_a^inf f(x; row) dx for every row of --input (Longman's method).\n") +
          family_help() + kStatusHelp,
      options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;

  // Options first (usage errors, exit 2), then the table (data errors, exit 1).
  tf::LongmanOptions settings;
  tf::TransformFamily family;
  geobem::DeviceChoice choice;
  const int order = vm["quadrature-order"].as<int>();
  try {
    family = tf::parse_transform_family(vm["family"].as<std::string>());
    settings.accelerator = tf::parse_accelerator(vm["accelerator"].as<std::string>());
    settings.relative_tolerance = vm["rel-tol"].as<double>();
    settings.absolute_tolerance = vm["abs-tol"].as<double>();
    settings.min_areas = std::min(vm["min-areas"].as<int>(), vm["max-areas"].as<int>());
    settings.max_areas = vm["max-areas"].as<int>();
    tf::validate_options(settings);
    tf::make_gauss_rule(order);
    choice = geobem::parse_device_choice(vm["device"].as<std::string>());
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }

  const std::string input = vm["input"].as<std::string>();
  const geobem::CsvTable table = geobem::read_csv_table(input, /*allow_non_finite=*/true);
  const auto& names = tf::describe(family).parameters;
  geobem::require_columns(table, names);
  if (table.rows.empty()) throw std::runtime_error(input + ": no rows");
  std::vector<std::size_t> column(names.size());
  for (std::size_t j = 0; j < names.size(); ++j) column[j] = table.column(names[j]);
  const std::size_t count = table.rows.size();
  std::vector<double> parameters(count * names.size());
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t j = 0; j < names.size(); ++j) parameters[i * names.size() + j] = table.rows[i][column[j]];
    const std::string problem = tf::check_parameters(family, &parameters[i * names.size()]);
    if (!problem.empty()) throw std::runtime_error(table.where(i) + ": " + problem);
  }

  const geobem::ComputeDevice device = geobem::resolve_device(choice);
  const bool quiet = vm["quiet"].as<bool>();
  const auto results = tf::integrate_family(family, parameters, count, settings, order, device, quiet);

  std::size_t unconverged = 0;
  double worst_error = 0.0;  // the largest error estimate of a row that missed its tolerance
  for (const auto& result : results)
    if (result.status != geobem::IntegrationStatus::Converged) {
      ++unconverged;
      worst_error = std::max(worst_error, result.error);
    }
  geobem::write_text_file_atomically(vm["output"].as<std::string>(), [&](std::ostream& out) {
    out << "# geobem-integrate longman --family " << tf::describe(family).name << " --accelerator "
        << tf::to_string(settings.accelerator) << " --rel-tol " << settings.relative_tolerance << " --abs-tol "
        << settings.absolute_tolerance << " on " << geobem::to_string(device) << "\n";
    for (const auto& name : table.columns) out << name << ",";
    out << "value,error,evaluations,areas,status\n" << std::setprecision(17);
    for (std::size_t i = 0; i < count; ++i) {
      for (const double value : table.rows[i]) out << value << ",";
      const auto& r = results[i];
      out << r.value << "," << r.error << "," << r.evaluations << "," << r.areas << "," << geobem::to_string(r.status)
          << "\n";
    }
  });
  if (unconverged > 0 && !quiet)
    std::cerr << argv[0] << ": warning: " << unconverged << " of " << count
              << " integrals did not meet the tolerance (largest error estimate " << worst_error
              << "; see the status column)\n";
  return 0;
}

const geobem::cli::IntegrateCommandRegistrar registrar{
    "longman", {"batched oscillatory improper integrals by Longman's method (transform inversion)",
                [](int argc, const char* const argv[]) {
                  return geobem::cli::run_stage(argv[0], [&] { return run_longman(argc, argv); });
                }}};

}  // namespace
