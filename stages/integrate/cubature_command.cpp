// geobem-integrate cubature: one n-dimensional integral of a built-in
// integrand over a box by the two-phase adaptive Genz–Malik cubature
// (gpu/quadrature). Started under mpirun it splits phase two over the ranks
// (one GPU each) and rank 0 writes the result file (docs/stage_contract.md);
// bad options write nothing.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/expression/expression_integrate.hpp"
#include "gpu/quadrature/cubature.hpp"
#include "gpu/quadrature/cubature_mpi.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/number_text.hpp"
#include "mesh/io/output_set.hpp"
#include "stages/cli/mpi_session.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/integrate/integrate_command.hpp"

namespace po = boost::program_options;
namespace q = geobem::quadrature;
namespace ex = geobem::expression;

namespace {

const char* const kDescription =
    "Integrates a built-in integrand over a box (two-phase adaptive cubature, degree-7 Genz-Malik rule,\n"
    "CUHRE's null-rule error estimate with DCUHRE's safety factors). The status column:\n"
    "  converged               error <= max(abs-tol, rel-tol*|estimate|); on random batteries of Genz's six\n"
    "                          families (2-8 D, --genz-a over its documented range, rel-tol 1e-3 to\n"
    "                          1e-12) converged rows were within the tolerance and (all but 2 of 24,379)\n"
    "                          their estimate\n"
    "                          (bench/RESULTS.md gives the counts). Where the summed region errors miss\n"
    "                          the tolerance, a second estimate may meet it (4n times the final regions'\n"
    "                          two-level changes, plus retired errors and rounding), or, where regions\n"
    "                          reached their caps, a degree-9 check of their final regions (its points\n"
    "                          come out of --max-evals); the error column is then that estimate\n"
    "  evaluation_cap_reached  --max-evals stopped it; the error column bounds the true error (conservative)\n"
    "                          once the minimum grid is complete (a cap above 3e6 evaluations in 8D); at a\n"
    "                          cap of 1e7, 2-3% of such rows (at most 4% in any family, up to 10% at\n"
    "                          1e-6 in some families) were within the tolerance after all\n"
    "  rounding_limited        not converged, and the rounding of the sums alone (eps times integral of |f|)\n"
    "                          exceeds the tolerance: more evaluations cannot help (an integral that\n"
    "                          cancels 10^4-fold at rel-tol 1e-12); the error column bounds the true error\n"
    "  not_converged           every region met its share but the total did not (rare)\n"
    "  non_finite              the integrand or the sums gave NaN or infinity\n"
    "Kinks and jumps of the continuous and discontinuous families are breakpoints of the first regions.\n"
    "f1-f4 have no closed form; their figures are in bench/RESULTS.md.\n"
    "Your own integrand instead: --integrand-expression EXPR in x1..xn (docs/expressions.md), e.g.\n"
    "'sin(asin(x1)*asin(x2)*asin(x3))'; with --input, one integral per row, EXPR naming its columns, and the\n"
    "output is the input columns then dim,rel_tol,abs_tol,estimate,error,evaluations,regions,status.\n"
    "On the GPU the expression is compiled (NVRTC) into the integrator's kernels, once, and cached on disk.";

/// --genz-a's help: the documented range per Genz family.
std::string genz_a_help() {
  std::string text = "Genz families: a_i (difficulty) for every i; documented range [" +
                     std::to_string(q::kGenzMinA).substr(0, 4) + ", max], max in 2/3/4/5/6/7/8 D:";
  for (const std::string& name : q::cubature_family_names()) {
    const q::CubatureFamily family = q::parse_cubature_family(name);
    if (!q::is_genz_family(family)) continue;
    text += " " + name;
    for (int n = 2; n <= 8; ++n)
      text += (n == 2 ? " " : "/") + std::to_string(static_cast<int>(q::genz_max_a(family, n)));
    text += ";";
  }
  return text + " values outside are refused";
}

struct CubatureCommandOptions {
  std::string integrand, expression, output, device = "auto";
  std::optional<std::string> input;
  int dim = 0, min_regions = 1 << 20;
  double rel_tol = 1e-6, abs_tol = 0.0, max_evals = 2e9, genz_a = 5.0, genz_u = 0.5;
  std::optional<std::string> lower, upper;
};

/// The --integrand-expression path: one integral, or one per --input row.
int run_cubature_expression(const CubatureCommandOptions& o, const q::CubatureOptions& settings,
                            const geobem::cli::StageOptions& command) {
  const geobem::DeviceChoice choice = geobem::parse_device_choice(o.device);
  geobem::OutputFile output(o.output);
  geobem::CsvTable table;
  table.rows = {{}};
  if (o.input) {
    table = geobem::read_csv_table(*o.input);
    if (table.rows.empty()) throw std::runtime_error(*o.input + ": no rows");
  }
  const ex::ParameterSource source = o.input ? ex::ParameterSource{table.columns, "a column of " + *o.input}
                                             : ex::ParameterSource{};
  const ex::Expression f = ex::parse_expression(o.expression, ex::numbered_variables(settings.dim), source);
  const std::size_t count = table.rows.size(), stride = f.parameters.size();
  const std::vector<double> parameters = geobem::cli::gather_columns(table, f.parameters);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string problem = ex::check_parameter_row(f, &parameters[i * stride]);
    if (!problem.empty()) throw std::runtime_error(table.where(i) + ": " + problem);
  }
  const geobem::ComputeDevice device = geobem::resolve_device(choice);
  ex::KernelCompileReport compile;
  const auto results = ex::integrate_cubature_expression(f, parameters, count, settings, device, &compile);
  geobem::cli::report_expression_kernel(command.program(), device, compile, command.quiet());
  output.write_result([&](std::ostream& out) {
    geobem::cli::write_rows_with_results(
        out, table, "dim,rel_tol,abs_tol,estimate,error,evaluations,regions,status",
        [&](std::ostream& row, std::size_t i) {
          const auto& r = results[i];
          row << settings.dim << "," << geobem::shortest(settings.rel_tol) << ","
              << geobem::shortest(settings.abs_tol) << ",";
          geobem::cli::write_result_columns(row, r.estimate, r.error, r.evaluations, r.regions, r.status);
        });
  });
  geobem::cli::commit_integrals(output, command, device, command.program(), geobem::cli::unconverged_count(results),
                                count);
  return 0;
}

/// The command line of geobem-integrate cubature, bound to `o`.
void declare_options(geobem::cli::StageOptions& command, CubatureCommandOptions& o) {
  using geobem::cli::optional_value;
  std::string names;
  for (const auto& name : q::cubature_family_names()) names += (names.empty() ? "" : ", ") + name;
  command.add_device(&o.device);
  command.add_tolerances(&o.rel_tol, &o.abs_tol);
  command.add()
    ("integrand", po::value(&o.integrand), ("built-in integrand: " + names).c_str())
    ("integrand-expression", po::value(&o.expression), "your own integrand, an expression in x1..xn (see above)")
    ("input", optional_value(&o.input), "with --integrand-expression: parameter table CSV, one integral per row")
    ("dim", po::value(&o.dim)->required(), "dimension n (2..10)")
    ("max-evals", po::value(&o.max_evals)->default_value(o.max_evals), "cap on integrand evaluations")
    ("min-regions", po::value(&o.min_regions)->default_value(o.min_regions),
     "L_max: phase one stops at this many live regions")
    ("lower", optional_value(&o.lower), "box lower corner, n comma-separated values (default 0,...,0)")
    ("upper", optional_value(&o.upper), "box upper corner, n comma-separated values (default 1,...,1)")
    ("genz-a", po::value(&o.genz_a)->default_value(o.genz_a), genz_a_help().c_str())
    ("genz-u", po::value(&o.genz_u)->default_value(o.genz_u), "Genz families: u_i (offset/peak) for every i, in [0, 1]");
  command.add_output_file(&o.output, "integrand,dim,rel_tol,abs_tol,estimate,error,evaluations,regions,status");
  command.mark_path("input");
}

int run_cubature(const CubatureCommandOptions& o, const geobem::cli::StageOptions& command,
                 const geobem::cli::MpiSession& mpi) {
  const bool user_integrand = !o.expression.empty();
  if (user_integrand == !o.integrand.empty())
    throw geobem::InputError::usage("give either --integrand or --integrand-expression");
  if (o.input && !user_integrand) throw geobem::InputError::usage("--input goes with --integrand-expression");
  q::CubatureOptions settings;
  settings.dim = o.dim;
  settings.rel_tol = o.rel_tol;
  settings.abs_tol = o.abs_tol;
  if (!(o.max_evals >= 1.0 && o.max_evals < 1.8e19))
    throw geobem::InputError::usage("--max-evals " + std::to_string(o.max_evals) + " out of range");
  settings.max_evaluations = static_cast<std::uint64_t>(o.max_evals);
  if (o.min_regions < 1) throw geobem::InputError::usage("--min-regions must be >= 1");
  settings.min_regions = o.min_regions;
  using geobem::cli::parse_number_list;
  if (o.lower) settings.lower = parse_number_list("lower", *o.lower, settings.dim, "A1,...,An");
  if (o.upper) settings.upper = parse_number_list("upper", *o.upper, settings.dim, "B1,...,Bn");
  if (settings.lower.empty() != settings.upper.empty())
    throw geobem::InputError::usage("give both --lower and --upper");
  q::check_cubature_options(settings);
  if (user_integrand) {
    if (mpi.active()) throw geobem::InputError::usage("--integrand-expression runs in one process (no mpirun)");
    settings.quiet = command.quiet();
    return run_cubature_expression(o, settings, command);
  }
  const q::CubatureIntegrand integrand =
      q::make_cubature_integrand(q::parse_cubature_family(o.integrand), settings.dim, o.genz_a, o.genz_u);
  const geobem::ComputeDevice device = geobem::resolve_device(geobem::parse_device_choice(o.device));
  settings.quiet = command.quiet() || mpi.rank() != 0;
  // Rank 0 alone writes: it alone takes the output file (checked before the work).
  std::unique_ptr<geobem::OutputFile> output;
  if (mpi.rank() == 0) output = std::make_unique<geobem::OutputFile>(o.output);

  const double start = mpi.seconds();
  const q::CubatureResult result = mpi.active() ? q::integrate_cubature_mpi(integrand, settings, device, MPI_COMM_WORLD)
                                                : q::integrate_cubature(integrand, settings, device);
  const double seconds = mpi.seconds() - start;
  if (!output) return 0;
  output->write_result([&](std::ostream& out) {
    using geobem::shortest;
    out << "integrand,dim,rel_tol,abs_tol,estimate,error,evaluations,regions,status\n"
        << o.integrand << "," << settings.dim << "," << shortest(settings.rel_tol) << ","
        << shortest(settings.abs_tol) << "," << shortest(result.estimate) << "," << shortest(result.error) << ","
        << result.evaluations << "," << result.regions << "," << geobem::to_string(result.status) << "\n";
  });
  output->write_record(command.record(output->final_path().parent_path()) + "# computed on " +
                       geobem::to_string(device) + "\n");
  output->commit();
  // The time is progress, not a result: the file stays identical between identical runs.
  if (!settings.quiet) std::cerr << command.program() << ": done in " << seconds << " s\n";
  if (result.status != geobem::IntegrationStatus::Converged)
    std::cerr << command.program() << ": warning: " << geobem::to_string(result.status) << ": error estimate "
              << result.error << " above the tolerance (status column)\n";
  return 0;
}

const geobem::cli::IntegrateCommandRegistrar registrar{
    "cubature", {"n-dimensional adaptive cubature of a built-in integrand (two-phase Genz-Malik, CPU/CUDA/MPI)",
                 [](int argc, const char* const argv[]) {
                   // MPI spans the run: a failed rank of several stops them all.
                   return geobem::cli::run_mpi_stage(argv[0], kDescription, declare_options, argc, argv,
                                                     run_cubature);
                 }}};

}  // namespace
