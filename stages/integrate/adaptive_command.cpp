// geobem-integrate adaptive: 1D integrals of a built-in family by the
// block-cutting adaptive quadrature (gpu/quadrature): one integral from the
// options, or one per row of a CSV (lower,upper and optional p0,p1,p2) in
// batched mode. Every row is checked before computing; the result CSV is
// an output file (docs/stage_contract.md): bad input writes nothing.
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/expression/expression_integrate.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "mesh/io/output_set.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/number_text.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/integrate/integrate_command.hpp"

namespace po = boost::program_options;
namespace q = geobem::quadrature;
namespace ex = geobem::expression;

namespace {

const char* const kDescription =
    "Integrates f(x) over [lower, upper] by block-cutting adaptive quadrature (Kern & Alaghband) with\n"
    "Gauss-Kronrod 7/15: QUADPACK's truncation estimate plus a rounding term (the rule summed\n"
    "without rounding of its own, nodes and phases in two doubles, the function values' roundings\n"
    "added in quadrature). The status column:\n"
    "  converged               error <= max(abs-tol, rel-tol*|estimate|); random batteries over the\n"
    "                          documented ranges at 1e-6, 1e-10, 1e-12 find the true error within both\n"
    "                          (bench/RESULTS.md)\n"
    "  evaluation_cap_reached  --max-evals stopped the sweep; its last block took the unswept remainder\n"
    "                          and the error column includes it\n"
    "  rounding_limited        the rounding term alone exceeds the target, also after a finer grid has\n"
    "                          averaged the function values' roundings down as far as --max-evals allows\n"
    "                          (cancellation: |integral| far below integral(|f|), or a tolerance near\n"
    "                          1e-15); the error column bounds the error\n"
    "  not_converged           the blocks met their shares but not the total, or a singularity at a limit\n"
    "                          stronger than x^-0.9 was not resolved within blocks of 1e-250 of the interval\n"
    "  non_finite              the integrand gave NaN or infinity\n"
    "Values outside the documented ranges below are refused.\n"
    "Your own integrand instead of a family: --integrand-expression EXPR, an expression in x and the\n"
    "--input table's columns (docs/expressions.md), e.g. 'exp(-a*x)*cos(w*x)'; each row gives lower, upper\n"
    "and the columns it names; the output is the input columns then estimate,error,evaluations,blocks,status.\n"
    "Each row is swept on its own (beta subintervals per step), the same bytes alone or in a batch. Kinks,\n"
    "poles near the axis and integrable singularities at a limit (x^-a with a <= 0.9, log x; put the singular\n"
    "point at 0) give converged only within the tolerance: >= 99.5% of converged rows of the expression\n"
    "battery within it and their estimate, none beyond 10x (docs/expressions.md).\n"
    "On the GPU the expression is compiled (NVRTC) into the integrator's kernels, once, and cached on disk.";

/// --integrand's help: each family with its defaults and documented ranges.
std::string integrand_help() {
  std::string families, ranges, rates, exponential;
  for (const q::Integrand1DDescription& f : q::integrand_1d_families()) {
    families += (families.empty() ? "" : "; ") + f.name + " " + f.formula + " [" + f.table2 + "]";
    ranges += " " + f.name + " " + q::describe_integrand_1d_ranges(f.family) + ";";
    rates += (rates.empty() ? "" : ", ") + f.name + " " + f.rate;
    if (f.exponential) exponential += (exponential.empty() ? "" : ", ") + f.name;
  }
  return "family (Kern & Alaghband Table 2, defaults in brackets): " + families + ". Documented ranges:" + ranges +
         " limits within [-" + std::to_string(static_cast<int>(q::kMaxLimit1D)) + ", " +
         std::to_string(static_cast<int>(q::kMaxLimit1D)) + "] and within +-" +
         std::to_string(static_cast<int>(q::kMaxPhase1D)) + "/rate, rate = " + rates +
         " (measured to 1e-12 there), and for " + exponential + " within +-" +
         std::to_string(static_cast<int>(q::kMaxExponent1D)) + "/|p0|";
}

struct AdaptiveCommandOptions {
  std::string integrand, expression, output, expansion = "double", device = "auto";
  std::optional<std::string> input;
  std::optional<double> lower, upper, p0, p1, p2;
  double rel_tol = 1e-10, abs_tol = 0.0, max_evals = 1e9;
  int alpha = 64, beta = 128;
};

/// The --integrand-expression path: every row (or the single --lower/--upper
/// integral) checked, integrated and written with the input's columns.
int run_adaptive_expression(const AdaptiveCommandOptions& o, const q::Adaptive1DOptions& settings,
                            geobem::DeviceChoice choice, const geobem::cli::StageOptions& command,
                            geobem::OutputFile& output) {
  geobem::CsvTable table;
  if (o.input) {
    table = geobem::read_csv_table(*o.input);
    geobem::require_columns(table, {"lower", "upper"});
    if (table.rows.empty()) throw std::runtime_error(*o.input + ": no rows");
  } else {
    table.columns = {"lower", "upper"};
    table.rows = {{*o.lower, *o.upper}};
  }
  const ex::ParameterSource source = o.input ? ex::ParameterSource{table.columns, "a column of " + *o.input}
                                             : ex::ParameterSource{};
  const ex::Expression f = ex::parse_expression(o.expression, {"x"}, source);
  const std::size_t count = table.rows.size(), stride = 2 + f.parameters.size();
  std::vector<std::string> names{"lower", "upper"};
  names.insert(names.end(), f.parameters.begin(), f.parameters.end());
  const std::vector<double> rows = geobem::cli::gather_columns(table, names);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string problem = ex::check_adaptive_row(f, &rows[i * stride]);
    if (!problem.empty()) {
      if (!o.input) throw geobem::InputError::usage(problem);
      throw std::runtime_error(table.where(i) + ": " + problem);
    }
  }
  const geobem::ComputeDevice device = geobem::resolve_device(choice);
  ex::KernelCompileReport compile;
  // A table's rows each on their own (a row's result independent of the
  // others); the single integral of --lower/--upper spread over α·β subintervals.
  const auto results = ex::integrate_adaptive_expression(
      f, rows, count, settings, device, &compile, o.input ? ex::AdaptiveSweep::PerRow : ex::AdaptiveSweep::Spread);
  geobem::cli::report_expression_kernel(command.program(), device, compile, command.quiet());
  geobem::cli::write_integral_rows(output, table, "estimate,error,evaluations,blocks,status", results,
                                   &q::Adaptive1DResult::estimate, &q::Adaptive1DResult::blocks);
  geobem::cli::commit_integrals(output, command, device, command.program(), geobem::cli::unconverged_count(results),
                                count);
  return 0;
}

/// The command line of geobem-integrate adaptive, bound to `o`.
void declare_options(geobem::cli::StageOptions& command, AdaptiveCommandOptions& o) {
  using geobem::cli::optional_value;
  command.add_device(&o.device);
  command.add_tolerances(&o.rel_tol, &o.abs_tol);
  command.add()
    ("integrand", po::value(&o.integrand), integrand_help().c_str())
    ("integrand-expression", po::value(&o.expression), "your own integrand, an expression in x (see above)")
    ("input", optional_value(&o.input), "batch CSV: lower,upper and optional p0,p1,p2 columns, one integral per row")
    ("lower", optional_value(&o.lower), "single integral: lower limit")
    ("upper", optional_value(&o.upper), "single integral: upper limit")
    ("p0", optional_value(&o.p0), "single integral: parameter p0 (family default)")
    ("p1", optional_value(&o.p1), "single integral: parameter p1 (family default)")
    ("p2", optional_value(&o.p2), "single integral: parameter p2 (family default)")
    ("alpha", po::value(&o.alpha)->default_value(o.alpha), "thread blocks per launch (single integral)")
    ("beta", po::value(&o.beta)->default_value(o.beta), "subintervals per thread block (power of two <= 1024)")
    ("expansion", po::value(&o.expansion)->default_value(o.expansion), "width after a block passes: double, keep, reset")
    ("max-evals", po::value(&o.max_evals)->default_value(o.max_evals), "cap on integrand evaluations per integral");
  command.add_output_file(&o.output, "lower,upper,p0,p1,p2,estimate,error,evaluations,blocks,status");
  command.mark_path("input");
}

/// The quadrature options of the command line, checked (--max-evals within
/// an unsigned 64-bit count).
q::Adaptive1DOptions adaptive_settings(const AdaptiveCommandOptions& o) {
  q::Adaptive1DOptions settings;
  settings.rel_tol = o.rel_tol;
  settings.abs_tol = o.abs_tol;
  settings.alpha = o.alpha;
  settings.beta = o.beta;
  settings.expansion = q::parse_expansion_rule(o.expansion);
  if (!(o.max_evals >= 1.0 && o.max_evals < 1.8e19))
    throw geobem::InputError::usage("--max-evals " + std::to_string(o.max_evals) + " out of range");
  settings.max_evaluations = static_cast<std::uint64_t>(o.max_evals);
  q::check_adaptive_1d_options(settings);
  return settings;
}

/// The integrals of --input (a row each: lower, upper and the p0, p1, p2
/// columns it has, each checked, an error naming the row otherwise), or the
/// single one of --lower and --upper with --p0, --p1, --p2.
std::vector<q::Problem1D> read_problems(const AdaptiveCommandOptions& o, const q::Integrand1D& base) {
  std::vector<q::Problem1D> problems;
  if (!o.input) {
    q::Problem1D p{base, *o.lower, *o.upper};
    const std::optional<double>* given[3] = {&o.p0, &o.p1, &o.p2};
    for (int k = 0; k < 3; ++k)
      if (*given[k]) p.integrand.p[k] = **given[k];
    q::check_problem_1d(p, "");
    problems.push_back(p);
    return problems;
  }
  const std::string input = *o.input;
  const geobem::CsvTable table = geobem::read_csv_table(input);
  geobem::require_columns(table, {"lower", "upper"});
  if (table.rows.empty()) throw std::runtime_error(input + ": no rows");
  const std::size_t lower = table.column("lower"), upper = table.column("upper");
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    q::Problem1D p{base, table.rows[i][lower], table.rows[i][upper]};
    for (int k = 0; k < 3; ++k) {
      const std::string name = "p" + std::to_string(k);
      for (std::size_t c = 0; c < table.columns.size(); ++c)
        if (table.columns[c] == name) p.integrand.p[k] = table.rows[i][c];
    }
    // A row of the file: exit 1.
    geobem::with_origin(geobem::InputKind::data, "", [&] { q::check_problem_1d(p, table.where(i) + ": "); });
    problems.push_back(p);
  }
  return problems;
}

int run_adaptive(const AdaptiveCommandOptions& o, const geobem::cli::StageOptions& command) {
  const bool user_integrand = !o.expression.empty();
  if (user_integrand == !o.integrand.empty()) throw geobem::InputError::usage("give either --integrand or --integrand-expression");
  const q::Integrand1D base =
      q::table2_integrand(user_integrand ? q::integrand_1d_family<q::ExpSin> : q::parse_integrand_1d_family(o.integrand));
  q::Adaptive1DOptions settings = adaptive_settings(o);
  const geobem::DeviceChoice choice = geobem::parse_device_choice(o.device);
  if (o.input.has_value() == (o.lower || o.upper))
    throw geobem::InputError::usage("give either --input FILE.csv or --lower and --upper");
  if (!o.input && !(o.lower && o.upper))
    throw geobem::InputError::usage("a single integral needs both --lower and --upper");
  settings.quiet = command.quiet();
  if (user_integrand && (o.p0 || o.p1 || o.p2))
    throw geobem::InputError::usage(
        "--p0, --p1, --p2 go with --integrand; an expression takes its parameters from --input");
  geobem::OutputFile output(o.output);
  if (user_integrand) return run_adaptive_expression(o, settings, choice, command, output);

  const std::vector<q::Problem1D> problems = read_problems(o, base);
  const geobem::ComputeDevice device = geobem::resolve_device(choice);
  std::vector<q::Adaptive1DResult> results;
  if (o.input)
    results = q::integrate_adaptive_1d_batch(problems, settings, device);
  else
    results = {q::integrate_adaptive_1d(problems[0].integrand, problems[0].lower, problems[0].upper, settings, device)};

  output.write_result([&](std::ostream& out) {
    using geobem::shortest;
    out << "lower,upper,p0,p1,p2,estimate,error,evaluations,blocks,status\n";
    for (std::size_t i = 0; i < problems.size(); ++i) {
      const auto& p = problems[i];
      const auto& r = results[i];
      out << shortest(p.lower) << "," << shortest(p.upper) << "," << shortest(p.integrand.p[0]) << ","
          << shortest(p.integrand.p[1]) << "," << shortest(p.integrand.p[2]) << ",";
      geobem::cli::write_result_columns(out, r.estimate, r.error, r.evaluations, r.blocks, r.status);
      out << "\n";
    }
  });
  geobem::cli::commit_integrals(output, command, device, command.program(), geobem::cli::unconverged_count(results),
                                problems.size());
  return 0;
}

const geobem::cli::IntegrateCommandRegistrar registrar{
    "adaptive",
    geobem::cli::options_subcommand("1D adaptive quadrature by block cutting (Gauss-Kronrod 7/15), single or batched",
                                    kDescription, declare_options, run_adaptive)};

}  // namespace
