// geobem-integrate longman: one oscillatory improper integral per row of a
// parameter table (CSV), by Longman's method on the CPU or the GPU
// (gpu/transform). Every row is read and checked before computing, and the
// result file is written as an output file (docs/stage_contract.md): bad
// input writes nothing.
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/integration_status.hpp"
#include "gpu/expression/expression_integrate.hpp"
#include "gpu/transform/transform.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/number_text.hpp"
#include "mesh/io/output_set.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/integrate/integrate_command.hpp"

namespace po = boost::program_options;
namespace tf = geobem::transform;
namespace ex = geobem::expression;

namespace {

struct LongmanCommandOptions {
  std::string input, output, family, expression, oscillation, decay_rate, accelerator = "epsilon", device = "auto";
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

constexpr const char* kExpressionHelp =
    "Your own integrand instead of a family: --integrand-expression REST --oscillation KIND:PARAM integrates\n"
    "  int_0^inf KIND(PARAM x) REST(x) dx, KIND cos, sin, J0 or J1 (its zeros are the half-cycle partition),\n"
    "  PARAM a column holding omega > 0, REST an expression in x and other columns (docs/expressions.md), e.g.\n"
    "  --integrand-expression 'exp(-a*x)' --oscillation cos:w --decay-rate a\n"
    "  Name the column of REST's decay rate lambda (an envelope e^{-lambda x}) with --decay-rate when it\n"
    "  decays faster than it oscillates. Each half-cycle area of an expression is checked against its\n"
    "  panels' halves and bisected where they differ (poles near the axis, kinks, x^-a or log x at 0), and\n"
    "  its error is in the error column; each row is integrated on its own.\n";

constexpr const char* kStatusHelp =
    "Status column (one word per row):\n"
    "  converged                 the error estimate meets max(rel-tol*|value|, abs-tol); measured on random\n"
    "                            batteries over the documented ranges at rel-tol 1e-6, 1e-10 and 1e-12, >= 99.5%\n"
    "                            of such rows are within both the tolerance and their estimate, and every row\n"
    "                            of the built-in families converges with each accelerator (bench/RESULTS.md)\n"
    "                            (expressions: >= 99.5% of converged rows of a battery of poles near the axis,\n"
    "                            kinks, singularities at 0 and Bessel products, none beyond 10x; docs/expressions.md)\n"
    "  evaluation_cap_reached    max-areas used up; value is the best estimate, error the accelerator's\n"
    "  not_converged             an expression's areas could not be resolved to the tolerance (a pole too near\n"
    "                            the axis, a singularity at 0 stronger than x^-0.9); error says how far\n"
    "  rounding_limited          rounding alone exceeds the tolerance (rel-tol below 1e-12, or weak damping\n"
    "                            in your own integrand); error is that floor, which bounds the true error\n"
    "  extrapolation_unreliable  the accelerator broke down; value is the plain partial sum\n"
    "  non_finite                the integrand gave NaN or infinity\n";

/// The command line of geobem-integrate longman, bound to `o`.
void declare_options(geobem::cli::StageOptions& command, LongmanCommandOptions& o) {
  command.add_device(&o.device);
  command.add_tolerances(&o.rel_tol, &o.abs_tol);
  command.add()
    ("input", po::value(&o.input)->required(),
     "parameter table CSV: one integral per row, the family's columns (others are copied)")
    ("family", po::value(&o.family), "integrand family (see above)")
    ("integrand-expression", po::value(&o.expression),
     "your own integrand's non-oscillating part, an expression in x and the table's columns (see above)")
    ("oscillation", po::value(&o.oscillation), "with --integrand-expression: KIND:PARAM, the factor KIND(PARAM x)")
    ("decay-rate", po::value(&o.decay_rate),
     "with --integrand-expression: the column of the decay rate lambda >= 0 of the expression's envelope e^{-lambda x}")
    ("accelerator", po::value(&o.accelerator)->default_value(o.accelerator),
     "euler (Longman's Euler differences), epsilon (Wynn), mw (Sidi; halfspace-disk away from its rim uses epsilon)")
    ("min-areas", po::value(&o.min_areas)->default_value(o.min_areas),
     "half-cycle areas always used (at most max-areas)")
    ("max-areas", po::value(&o.max_areas)->default_value(o.max_areas), "cap on half-cycle areas per integral (<= 256)")
    ("quadrature-order", po::value(&o.quadrature_order)->default_value(o.quadrature_order),
     "Gauss-Legendre points per panel (1..64)");
  command.add_output_file(&o.output,
                          "the input columns, then value,error,evaluations,areas,status (status: a word, see above)");
  command.mark_path("input");
}

/// The usage errors of the integrand: a family, or an expression with its
/// oscillation (and optionally its decay rate's column), each name parsed.
void check_integrand_options(const LongmanCommandOptions& o) {
  const bool user_integrand = !o.expression.empty();
  if (user_integrand == !o.family.empty())
    throw geobem::InputError::usage("give either --family or --integrand-expression (with --oscillation)");
  if (user_integrand && o.oscillation.empty())
    throw geobem::InputError::usage("--integrand-expression needs --oscillation KIND:PARAM (the oscillating factor)");
  if (!user_integrand && (!o.oscillation.empty() || !o.decay_rate.empty()))
    throw geobem::InputError::usage("--oscillation and --decay-rate go with --integrand-expression");
  if (user_integrand)
    ex::parse_oscillation(o.oscillation);
  else
    tf::parse_transform_family(o.family);
}

/// Longman's options of the command line, validated (and the Gauss order checked).
tf::LongmanOptions longman_settings(const LongmanCommandOptions& o) {
  tf::LongmanOptions settings;
  settings.accelerator = tf::parse_accelerator(o.accelerator);
  settings.relative_tolerance = o.rel_tol;
  settings.absolute_tolerance = o.abs_tol;
  settings.min_areas = std::min(o.min_areas, o.max_areas);
  settings.max_areas = o.max_areas;
  tf::validate_options(settings);
  tf::make_gauss_rule(o.quadrature_order);
  return settings;
}

/// The integrals of a table: for a family its parameter columns, for an
/// expression omega, the decay rate (0 without --decay-rate) and the
/// expression's parameters, row after row (stride values each).
struct LongmanRows {
  ex::Oscillation oscillation;
  ex::Expression rest;
  std::size_t stride = 0;
  std::vector<double> parameters;
};

/// The rows of `table`, each checked against the family's or the
/// expression's documented range: an error naming the row otherwise.
LongmanRows read_rows(const LongmanCommandOptions& o, const geobem::CsvTable& table) {
  const bool user_integrand = !o.expression.empty();
  LongmanRows rows;
  // A family's parameters, or omega, the decay rate and the expression's parameters.
  std::vector<std::string> names;
  if (user_integrand) {
    rows.oscillation = ex::parse_oscillation(o.oscillation);
    rows.rest = ex::parse_expression(o.expression, {"x"}, {table.columns, "a column of " + o.input});
    names = {rows.oscillation.parameter};
    if (!o.decay_rate.empty()) names.push_back(o.decay_rate);
    names.insert(names.end(), rows.rest.parameters.begin(), rows.rest.parameters.end());
  } else {
    names = tf::describe(tf::parse_transform_family(o.family)).parameters;
  }
  geobem::require_columns(table, names);
  std::vector<std::size_t> column(names.size());
  for (std::size_t j = 0; j < names.size(); ++j) column[j] = table.column(names[j]);
  const std::size_t count = table.rows.size();
  rows.stride = user_integrand ? 2 + rows.rest.parameters.size() : names.size();
  rows.parameters.resize(count * rows.stride);
  for (std::size_t i = 0; i < count; ++i) {
    double* row = &rows.parameters[i * rows.stride];
    const auto& values = table.rows[i];
    std::string problem;
    if (user_integrand) {
      const std::size_t first = o.decay_rate.empty() ? 1 : 2;  // where the expression's columns start
      row[0] = values[column[0]];
      row[1] = o.decay_rate.empty() ? 0.0 : values[column[1]];
      for (std::size_t k = 0; k < rows.rest.parameters.size(); ++k) row[2 + k] = values[column[first + k]];
      problem = ex::check_longman_row(rows.rest, row);
    } else {
      for (std::size_t j = 0; j < rows.stride; ++j) row[j] = values[column[j]];
      problem = tf::check_parameters(tf::parse_transform_family(o.family), row);
    }
    if (!problem.empty()) throw std::runtime_error(table.where(i) + ": " + problem);
  }
  return rows;
}

int run_longman(const LongmanCommandOptions& o, const geobem::cli::StageOptions& command) {
  // Options first (usage errors, exit 2), then the output location, then the
  // table (data errors, exit 1).
  check_integrand_options(o);
  const bool user_integrand = !o.expression.empty();
  const tf::LongmanOptions settings = longman_settings(o);
  const geobem::DeviceChoice choice = geobem::parse_device_choice(o.device);
  geobem::OutputFile output(o.output);

  const geobem::CsvTable table = geobem::read_csv_table(o.input, /*allow_non_finite=*/true);
  if (table.rows.empty()) throw std::runtime_error(o.input + ": no rows");
  const std::size_t count = table.rows.size();
  const LongmanRows rows = read_rows(o, table);

  const geobem::ComputeDevice device = geobem::resolve_device(choice);
  ex::KernelCompileReport compile;
  const auto results =
      user_integrand
          ? ex::integrate_longman_expression(rows.rest, rows.oscillation.kind, rows.parameters, count, settings,
                                             o.quadrature_order, device, command.quiet(), nullptr, &compile)
          : tf::integrate_family(tf::parse_transform_family(o.family), rows.parameters, count, settings,
                                 o.quadrature_order, device, command.quiet());

  if (user_integrand) geobem::cli::report_expression_kernel(command.program(), device, compile, command.quiet());
  double worst_error = 0.0;  // the largest error estimate of a row that missed its tolerance
  for (const auto& result : results)
    if (result.status != geobem::IntegrationStatus::Converged) worst_error = std::max(worst_error, result.error);
  geobem::cli::write_integral_rows(output, table, "value,error,evaluations,areas,status", results,
                                   &tf::LongmanResult::value, &tf::LongmanResult::areas);
  std::ostringstream where_to_look;
  where_to_look << "largest error estimate " << worst_error << "; see the status column";
  geobem::cli::commit_integrals(output, command, device, command.program(), geobem::cli::unconverged_count(results),
                                count, where_to_look.str());
  return 0;
}

const geobem::cli::IntegrateCommandRegistrar registrar{
    "longman",
    geobem::cli::options_subcommand("batched oscillatory improper integrals by Longman's method (transform inversion)",
                                    std::string("Integrates int_a^inf f(x; row) dx for every row of --input "
                                                "(Longman's method).\n") +
                                        family_help() + kExpressionHelp + kStatusHelp,
                                    declare_options, run_longman)};

}  // namespace
