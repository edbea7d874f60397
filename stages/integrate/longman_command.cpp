// geobem-integrate longman: one oscillatory improper integral per row of a
// parameter table (CSV), by Longman's method on the CPU or the GPU
// (gpu/transform). Every row is read and checked before computing, and the
// result file is written as an output file (docs/stage_contract.md): bad
// input writes nothing.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/integration_status.hpp"
#include "gpu/transform/transform.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/output_set.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/integrate/integrate_command.hpp"

namespace po = boost::program_options;
namespace tf = geobem::transform;

namespace {

struct LongmanCommandOptions {
  std::string input, output, family, accelerator = "epsilon", device = "auto";
  double rel_tol = 1e-12, abs_tol = 0.0;
  int min_areas = 4, max_areas = 200, quadrature_order = 16;
};

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
  LongmanCommandOptions o;
  geobem::cli::StageOptions command(
      argv[0],
      std::string("Integrates int_a^inf f(x; row) dx for every row of --input (Longman's method).\n") +
          family_help() + kStatusHelp);
  command.add_device(&o.device);
  command.add_tolerances(&o.rel_tol, &o.abs_tol);
  command.add()
    ("input", po::value(&o.input)->required(),
     "parameter table CSV: one integral per row, the family's columns (others are copied)")
    ("family", po::value(&o.family)->required(), "integrand family (see above)")
    ("accelerator", po::value(&o.accelerator)->default_value(o.accelerator),
     "euler (Longman's Euler differences), epsilon (Wynn), mw (Sidi; halfspace-disk away from its rim uses epsilon)")
    ("min-areas", po::value(&o.min_areas)->default_value(o.min_areas),
     "half-cycle areas always used (at most max-areas)")
    ("max-areas", po::value(&o.max_areas)->default_value(o.max_areas), "cap on half-cycle areas per integral (<= 256)")
    ("quadrature-order", po::value(&o.quadrature_order)->default_value(o.quadrature_order),
     "Gauss-Legendre points per panel (1..64)");
  command.add_output_file(&o.output,
                          "the input columns, then value,error,evaluations,areas,status (status: a word, see above)");
  if (!command.parse(argc, argv)) return 0;

  // Options first (usage errors, exit 2), then the output location, then the
  // table (data errors, exit 1).
  const tf::TransformFamily family = tf::parse_transform_family(o.family);
  tf::LongmanOptions settings;
  settings.accelerator = tf::parse_accelerator(o.accelerator);
  settings.relative_tolerance = o.rel_tol;
  settings.absolute_tolerance = o.abs_tol;
  settings.min_areas = std::min(o.min_areas, o.max_areas);
  settings.max_areas = o.max_areas;
  tf::validate_options(settings);
  tf::make_gauss_rule(o.quadrature_order);
  const geobem::DeviceChoice choice = geobem::parse_device_choice(o.device);
  geobem::OutputFile output(o.output);

  const geobem::CsvTable table = geobem::read_csv_table(o.input, /*allow_non_finite=*/true);
  const auto& names = tf::describe(family).parameters;
  geobem::require_columns(table, names);
  if (table.rows.empty()) throw std::runtime_error(o.input + ": no rows");
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
  const auto results =
      tf::integrate_family(family, parameters, count, settings, o.quadrature_order, device, command.quiet());

  std::size_t unconverged = 0;
  double worst_error = 0.0;  // the largest error estimate of a row that missed its tolerance
  for (const auto& result : results)
    if (result.status != geobem::IntegrationStatus::Converged) {
      ++unconverged;
      worst_error = std::max(worst_error, result.error);
    }
  output.write_result([&](std::ostream& out) {
    for (const auto& name : table.columns) out << name << ",";
    out << "value,error,evaluations,areas,status\n" << std::setprecision(17);
    for (std::size_t i = 0; i < count; ++i) {
      for (const double value : table.rows[i]) out << value << ",";
      const auto& r = results[i];
      out << r.value << "," << r.error << "," << r.evaluations << "," << r.areas << "," << geobem::to_string(r.status)
          << "\n";
    }
  });
  output.write_record(command.record() + "# computed on " + geobem::to_string(device) + "\n");
  output.commit();
  if (unconverged > 0)
    std::cerr << argv[0] << ": warning: " << unconverged << " of " << count
              << " integrals did not meet the tolerance (largest error estimate " << worst_error
              << "; see the status column)\n";
  return 0;
}

const geobem::cli::IntegrateCommandRegistrar registrar{
    "longman", {"batched oscillatory improper integrals by Longman's method (transform inversion)", run_longman}};

}  // namespace
