// geobem-integrate adaptive: 1D integrals of a built-in family by the
// block-cutting adaptive quadrature (gpu/quadrature): one integral from the
// options, or one per row of a CSV (lower,upper and optional p0,p1,p2) in
// batched mode. Every row is checked before computing; the result CSV is
// written atomically: bad input writes nothing.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "mesh/io/atomic_file.hpp"
#include "mesh/io/csv_table.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/integrate/integrate_command.hpp"

namespace po = boost::program_options;
namespace q = geobem::quadrature;

namespace {

const char* const kDescription =
    "Integrates f(x) over [lower, upper] by block-cutting adaptive quadrature (Kern & Alaghband) with\n"
    "Gauss-Kronrod 7/15 and QUADPACK's error estimate, rounding term included. The status column:\n"
    "  converged               error <= max(abs-tol, rel-tol*|estimate|); random batteries over the\n"
    "                          documented ranges at 1e-6, 1e-10, 1e-12 find the true error within both\n"
    "                          (bench/RESULTS.md)\n"
    "  evaluation_cap_reached  --max-evals stopped the sweep; its last block took the unswept remainder\n"
    "                          and the error column includes it\n"
    "  rounding_limited        the rounding term 50*eps*integral(|f|) alone exceeds the target (strong\n"
    "                          cancellation or a tolerance near 1e-14); the error column bounds the error\n"
    "  not_converged           the blocks met their shares but not the total (rare)\n"
    "  non_finite              the integrand gave NaN or infinity\n"
    "Values outside the documented ranges below are refused.";

/// --integrand's help: each family with its defaults and documented ranges.
std::string integrand_help() {
  std::string text =
      "family (Kern & Alaghband Table 2, defaults in brackets): exp_sin e^{p0 x} sin(p1 x) [2,3]; "
      "poly_cos p0 x cos(p1 x) - (x - p2)^2 [4,2,2]; exp_cos e^{-p0 x} cos(p1 pi x) [3,5]; "
      "sinc sin(p0 pi x)/(pi x) [10]. Documented ranges:";
  for (const char* name : {"exp_sin", "poly_cos", "exp_cos", "sinc"})
    text += std::string(" ") + name + " " + q::describe_integrand_1d_ranges(q::parse_integrand_1d_family(name)) + ";";
  return text + " limits within [-" + std::to_string(static_cast<int>(q::kMaxLimit1D)) + ", " +
         std::to_string(static_cast<int>(q::kMaxLimit1D)) + "] and within +-" +
         std::to_string(static_cast<int>(q::kMaxPhase1D)) +
         "/rate, rate = exp_sin max(|p0|,|p1|), poly_cos |p1|, exp_cos max(|p0|, pi|p1|), sinc pi|p0| "
         "(the argument's rounding stays below 2.2e-13), and for exp_sin, exp_cos within +-" +
         std::to_string(static_cast<int>(q::kMaxExponent1D)) + "/|p0|";
}

int run_adaptive(int argc, const char* const argv[]) {
  po::options_description options("Options");
  geobem::cli::add_common_options(options);
  geobem::cli::add_device_option(options);
  options.add_options()
    ("integrand", po::value<std::string>()->required(), integrand_help().c_str())
    ("input", po::value<std::string>(), "batch CSV: lower,upper and optional p0,p1,p2 columns, one integral per row")
    ("lower", po::value<double>(), "single integral: lower limit")
    ("upper", po::value<double>(), "single integral: upper limit")
    ("p0", po::value<double>(), "single integral: parameter p0 (family default)")
    ("p1", po::value<double>(), "single integral: parameter p1 (family default)")
    ("p2", po::value<double>(), "single integral: parameter p2 (family default)")
    ("rel-tol", po::value<double>()->default_value(1e-10), "relative tolerance (>= 0; below about 1e-13 expect rounding_limited)")
    ("abs-tol", po::value<double>()->default_value(0.0), "absolute tolerance (>= 0; not both 0)")
    ("alpha", po::value<int>()->default_value(64), "thread blocks per launch (single integral)")
    ("beta", po::value<int>()->default_value(128), "subintervals per thread block (power of two <= 1024)")
    ("expansion", po::value<std::string>()->default_value("double"),
     "width after a block passes: double, keep, reset")
    ("max-evals", po::value<double>()->default_value(1e9), "cap on integrand evaluations per integral")
    ("output", po::value<std::string>()->required(),
     "result CSV: lower,upper,p0,p1,p2,estimate,error,evaluations,blocks,status");
  const auto parsed = geobem::cli::parse_stage_options(argc, argv, argv[0], kDescription, options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;

  q::Adaptive1DOptions settings;
  q::Integrand1D base;
  geobem::DeviceChoice choice;
  try {
    base = q::table2_integrand(q::parse_integrand_1d_family(vm["integrand"].as<std::string>()));
    settings.rel_tol = vm["rel-tol"].as<double>();
    settings.abs_tol = vm["abs-tol"].as<double>();
    settings.alpha = vm["alpha"].as<int>();
    settings.beta = vm["beta"].as<int>();
    settings.expansion = q::parse_expansion_rule(vm["expansion"].as<std::string>());
    const double cap = vm["max-evals"].as<double>();
    if (!(cap >= 1.0 && cap < 1.8e19)) throw std::invalid_argument("--max-evals " + std::to_string(cap) + " out of range");
    settings.max_evaluations = static_cast<std::uint64_t>(cap);
    q::check_adaptive_1d_options(settings);
    choice = geobem::parse_device_choice(vm["device"].as<std::string>());
    if (vm.count("input") == (vm.count("lower") || vm.count("upper")))
      throw std::invalid_argument("give either --input FILE.csv or --lower and --upper");
    if (!vm.count("input") && !(vm.count("lower") && vm.count("upper")))
      throw std::invalid_argument("a single integral needs both --lower and --upper");
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  settings.quiet = vm["quiet"].as<bool>();

  std::vector<q::Problem1D> problems;
  if (vm.count("input")) {
    const std::string input = vm["input"].as<std::string>();
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
      try {
        q::check_problem_1d(p, table.where(i) + ": ");
      } catch (const std::invalid_argument& error) {
        throw std::runtime_error(error.what());
      }
      problems.push_back(p);
    }
  } else {
    q::Problem1D p{base, vm["lower"].as<double>(), vm["upper"].as<double>()};
    for (int k = 0; k < 3; ++k)
      if (vm.count("p" + std::to_string(k))) p.integrand.p[k] = vm["p" + std::to_string(k)].as<double>();
    try {
      q::check_problem_1d(p, "");
    } catch (const std::invalid_argument& error) {
      throw po::error(error.what());
    }
    problems.push_back(p);
  }

  const geobem::ComputeDevice device = geobem::resolve_device(choice);
  std::vector<q::Adaptive1DResult> results;
  if (vm.count("input"))
    results = q::integrate_adaptive_1d_batch(problems, settings, device);
  else
    results = {q::integrate_adaptive_1d(problems[0].integrand, problems[0].lower, problems[0].upper, settings, device)};

  std::size_t unconverged = 0;
  for (const auto& r : results) unconverged += r.status != geobem::IntegrationStatus::Converged;
  geobem::write_text_file_atomically(vm["output"].as<std::string>(), [&](std::ostream& out) {
    out << "# geobem-integrate adaptive --integrand " << vm["integrand"].as<std::string>() << " on "
        << geobem::to_string(device) << "\n"
        << "lower,upper,p0,p1,p2,estimate,error,evaluations,blocks,status\n"
        << std::setprecision(17);
    for (std::size_t i = 0; i < problems.size(); ++i) {
      const auto& p = problems[i];
      const auto& r = results[i];
      out << p.lower << "," << p.upper << "," << p.integrand.p[0] << "," << p.integrand.p[1] << ","
          << p.integrand.p[2] << "," << r.estimate << "," << r.error << "," << r.evaluations << "," << r.blocks << ","
          << geobem::to_string(r.status) << "\n";
    }
  });
  if (unconverged > 0)
    std::cerr << argv[0] << ": warning: " << unconverged << " of " << problems.size()
              << " integrals did not meet the tolerance (status column)\n";
  return 0;
}

const geobem::cli::IntegrateCommandRegistrar registrar{
    "adaptive", {"1D adaptive quadrature by block cutting (Gauss-Kronrod 7/15), single or batched",
                 [](int argc, const char* const argv[]) {
                   return geobem::cli::run_stage(argv[0], [&] { return run_adaptive(argc, argv); });
                 }}};

}  // namespace
