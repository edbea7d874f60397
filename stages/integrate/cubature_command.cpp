// geobem-integrate cubature: one n-dimensional integral of a built-in
// integrand over a box by the two-phase adaptive Genz–Malik cubature
// (gpu/quadrature). Started under mpirun it splits phase two over the ranks
// (one GPU each) and rank 0 writes the result. The result CSV is written
// atomically; bad options write nothing.
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include <mpi.h>

#include "gpu/core/device.hpp"
#include "gpu/quadrature/cubature.hpp"
#include "gpu/quadrature/cubature_mpi.hpp"
#include "mesh/io/atomic_file.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/integrate/integrate_command.hpp"

namespace po = boost::program_options;
namespace q = geobem::quadrature;

namespace {

const char* const kDescription =
    "Integrates a built-in integrand over a box (two-phase adaptive cubature, degree-7 Genz-Malik rule,\n"
    "CUHRE's null-rule error estimate with DCUHRE's safety factors). The status column:\n"
    "  converged               error <= max(abs-tol, rel-tol*|estimate|); on random batteries of Genz's six\n"
    "                          families (2-8 D, --genz-a over its documented range, 1e-6 and 1e-10) every\n"
    "                          converged row was within the tolerance and its estimate (bench/RESULTS.md)\n"
    "  evaluation_cap_reached  --max-evals stopped it; the error column bounds the true error (conservative)\n"
    "  not_converged           every region met its share but the total did not (rare)\n"
    "  non_finite              the integrand or the sums gave NaN or infinity\n"
    "Kinks and jumps of the continuous and discontinuous families are breakpoints of the first regions.\n"
    "f1-f4 have no closed form; their figures are in bench/RESULTS.md.";

/// --genz-a's help: the documented range per Genz family.
std::string genz_a_help() {
  std::string text = "Genz families: a_i (difficulty) for every i; documented range [" +
                     std::to_string(q::kGenzMinA).substr(0, 4) + ", max]:";
  for (const std::string& name : q::cubature_family_names()) {
    const q::CubatureFamily family = q::parse_cubature_family(name);
    if (q::is_genz_family(family)) text += " " + name + " " + std::to_string(static_cast<int>(q::genz_max_a(family, 8))) + ";";
  }
  return text + " values outside are refused";
}

/// Started by mpirun (Open MPI or a PMI launcher)?
bool under_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE"); }

int run_cubature(int argc, const char* const argv[]) {
  po::options_description options("Options");
  geobem::cli::add_common_options(options);
  geobem::cli::add_device_option(options);
  std::string names;
  for (const auto& name : q::cubature_family_names()) names += (names.empty() ? "" : ", ") + name;
  options.add_options()
    ("integrand", po::value<std::string>()->required(), ("built-in integrand: " + names).c_str())
    ("dim", po::value<int>()->required(), "dimension n (2..10)")
    ("rel-tol", po::value<double>()->default_value(1e-6, "1e-6"), "relative tolerance (>= 0)")
    ("abs-tol", po::value<double>()->default_value(0.0), "absolute tolerance (>= 0; not both 0)")
    ("max-evals", po::value<double>()->default_value(2e9), "cap on integrand evaluations")
    ("min-regions", po::value<int>()->default_value(1 << 20), "L_max: phase one stops at this many live regions")
    ("lower", po::value<std::string>(), "box lower corner, n comma-separated values (default 0,...,0)")
    ("upper", po::value<std::string>(), "box upper corner, n comma-separated values (default 1,...,1)")
    ("genz-a", po::value<double>()->default_value(5.0), genz_a_help().c_str())
    ("genz-u", po::value<double>()->default_value(0.5), "Genz families: u_i (offset/peak) for every i, in [0, 1]")
    ("output", po::value<std::string>()->required(),
     "result CSV: integrand,dim,rel_tol,abs_tol,estimate,error,evaluations,regions,status,seconds");
  const auto parsed = geobem::cli::parse_stage_options(argc, argv, argv[0], kDescription, options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;

  q::CubatureOptions settings;
  q::CubatureIntegrand integrand;
  geobem::DeviceChoice choice;
  try {
    const q::CubatureFamily family = q::parse_cubature_family(vm["integrand"].as<std::string>());
    settings.dim = vm["dim"].as<int>();
    settings.rel_tol = vm["rel-tol"].as<double>();
    settings.abs_tol = vm["abs-tol"].as<double>();
    const double cap = vm["max-evals"].as<double>();
    if (!(cap >= 1.0 && cap < 1.8e19)) throw std::invalid_argument("--max-evals " + std::to_string(cap) + " out of range");
    settings.max_evaluations = static_cast<std::uint64_t>(cap);
    if (vm["min-regions"].as<int>() < 1) throw std::invalid_argument("--min-regions must be >= 1");
    settings.min_regions = vm["min-regions"].as<int>();
    using geobem::cli::parse_number_list;
    if (vm.count("lower")) settings.lower = parse_number_list("lower", vm["lower"].as<std::string>(), settings.dim, "A1,...,An");
    if (vm.count("upper")) settings.upper = parse_number_list("upper", vm["upper"].as<std::string>(), settings.dim, "B1,...,Bn");
    if (settings.lower.empty() != settings.upper.empty()) throw std::invalid_argument("give both --lower and --upper");
    q::check_cubature_options(settings);
    integrand = q::make_cubature_integrand(family, settings.dim, vm["genz-a"].as<double>(), vm["genz-u"].as<double>());
    choice = geobem::parse_device_choice(vm["device"].as<std::string>());
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  const geobem::ComputeDevice device = geobem::resolve_device(choice);
  settings.quiet = vm["quiet"].as<bool>();

  int rank = 0;
  const bool distributed = under_mpirun();
  if (distributed) MPI_Init(nullptr, nullptr);
  const double start = distributed ? MPI_Wtime() : 0.0;
  const auto clock_start = std::chrono::steady_clock::now();
  q::CubatureResult result;
  if (distributed) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    result = q::integrate_cubature_mpi(integrand, settings, device, MPI_COMM_WORLD);
  } else {
    result = q::integrate_cubature(integrand, settings, device);
  }
  const double seconds = distributed ? MPI_Wtime() - start
                                     : std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
  if (distributed) MPI_Finalize();
  if (rank != 0) return 0;
  geobem::write_text_file_atomically(vm["output"].as<std::string>(), [&](std::ostream& out) {
    out << "# geobem-integrate cubature on " << geobem::to_string(device)
        << "\n"
        << "integrand,dim,rel_tol,abs_tol,estimate,error,evaluations,regions,status,seconds\n"
        << std::setprecision(17) << vm["integrand"].as<std::string>() << "," << settings.dim << ","
        << settings.rel_tol << "," << settings.abs_tol << "," << result.estimate << "," << result.error << ","
        << result.evaluations << "," << result.regions << "," << geobem::to_string(result.status) << "," << seconds
        << "\n";
  });
  if (result.status != geobem::IntegrationStatus::Converged)
    std::cerr << argv[0] << ": warning: " << geobem::to_string(result.status) << ": error estimate " << result.error
              << " above the tolerance (status column)\n";
  return 0;
}

const geobem::cli::IntegrateCommandRegistrar registrar{
    "cubature", {"n-dimensional adaptive cubature of a built-in integrand (two-phase Genz-Malik, CPU/CUDA/MPI)",
                 [](int argc, const char* const argv[]) {
                   return geobem::cli::run_stage(argv[0], [&] { return run_cubature(argc, argv); });
                 }}};

}  // namespace
