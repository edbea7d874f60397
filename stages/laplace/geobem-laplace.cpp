// geobem-laplace: reads a surface mesh written by geobem-mesh, the boundary
// conditions per group (fixed, free, traction, pressure), the material and
// the CQ steps; assembles and solves
// the collocation BEM system A(s_l) x̂_l = b_l of every CQ frequency
// l = 0…⌊L/2⌋ (Lubich's BDF2 convolution quadrature) for a unit load of each
// loaded group, on the CPU or the GPU, over MPI ranks when started by mpirun;
// writes the Laplace-domain solutions (one NumPy file per load case) and a
// manifest (stages/cq_stage/laplace_manifest.hpp) for geobem-time, with the
// run's effective options, as one output set (docs/stage_contract.md). The
// dense systems are written only with --export-systems.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/hierarchical_solver.hpp"
#include "gpu/bem/laplace_mpi.hpp"
#include "gpu/core/cuda_context.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/seconds_since.hpp"
#include "mesh/io/memory_budget.hpp"
#include "mesh/io/npy_file.hpp"
#include "mesh/io/output_set.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "stages/cli/mpi_session.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/cq_stage/cq_problem.hpp"
#include "stages/cq_stage/laplace_manifest.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::cq_stage;
using geobem::cli::optional_value;

namespace {

/// What geobem-laplace does, the head of its --help.
const char* const kSummary =
    "Assemble and solve the elastodynamic BEM system of every convolution-quadrature frequency for a unit load "
    "of each loaded group; write the Laplace-domain solutions with a manifest for geobem-time.";

struct LaplaceOptions {
  std::string mesh, out, device = "auto";
  std::vector<std::string> fixed, free, traction, pressure;
  double young_modulus = 0.0, poisson_ratio = 0.0, density = 0.0;  // required: no material is a default
  std::optional<double> time_step, beta, duration, max_disk_bytes;
  std::optional<int> steps;
  double epsilon = 1e-10;
  bool export_systems = false;
  std::string solver = "auto";
  double compression_tolerance = bem::default_compression_tolerance;
};

/// The command line of geobem-laplace, bound to `o`.
void declare_options(cli::StageOptions& command, LaplaceOptions& o) {
  command.add()
    ("mesh", po::value(&o.mesh)->required(), "surface mesh (.vtu/.vtp with cell array 'group', as geobem-mesh writes it)")
    ("fixed", po::value(&o.fixed)->composing(), "groups with u = 0 (NAME[,NAME...]; repeatable)")
    ("free", po::value(&o.free)->composing(), "traction-free groups (NAME[,NAME...]; repeatable)")
    ("traction", po::value(&o.traction)->composing(),
     "prescribed traction NAME=P:DX,DY,DZ: magnitude P (Pa) along DX,DY,DZ; each such group is a unit load case "
     "whose load history geobem-time applies; repeatable")
    ("pressure", po::value(&o.pressure)->composing(),
     "prescribed pressure NAME=P (Pa, positive pushes into the solid: a pressurized cavity, a blast on a wall; "
     "traction -P n, n the normal out of the solid); a unit load case like --traction, one case with it on the "
     "same group; repeatable")
    ("young-modulus", po::value(&o.young_modulus)->required(), "E (Pa) of the solid, e.g. 2.1e11 for steel")
    ("poisson-ratio", po::value(&o.poisson_ratio)->required(), "nu of the solid (0 in the rod benchmark)")
    ("density", po::value(&o.density)->required(), "rho (kg/m^3) of the solid, e.g. 7850 for steel")
    ("time-step", optional_value(&o.time_step), "CQ step dt (s); or give --beta")
    ("beta", optional_value(&o.beta), "dt = beta*h/c (h the smallest longest element edge, c the P-wave speed); "
                                      "stable around 0.1-0.3")
    ("steps", optional_value(&o.steps), "N time steps (results at t = 0, dt, ..., N dt); or give --duration")
    ("duration", optional_value(&o.duration), "simulated time T (s): N = ceil(T/dt)")
    ("epsilon", po::value(&o.epsilon)->default_value(o.epsilon), "CQ accuracy parameter eps, R = eps^(1/(2N))")
    ("export-systems", po::bool_switch(&o.export_systems),
     "also write the dense systems [A(s_l) | B_l] as systems/system_LLLL.npy (n x (n + cases) complex128 each; "
     "refused when the disk cannot hold them)")
    ("max-disk-bytes", optional_value(&o.max_disk_bytes),
     "refuse --export-systems above this many bytes (default: the free space)")
    ("solver", po::value(&o.solver)->default_value(o.solver),
     "dense (each frequency's system assembled whole and factorised), hierarchical (compressed by ACA into "
     "hierarchical matrices and solved by GMRES; memory and time grow far slower with the mesh) or auto (dense "
     "below 2,500 unknowns on the CPU, 2,700 on the GPU, where it is the faster, and while it fits; higher when "
     "many CQ frequencies are little damped over the mesh: long runs at short steps)")
    ("compression-tolerance", po::value(&o.compression_tolerance)->default_value(o.compression_tolerance),
     "hierarchical: relative accuracy of each frequency's compressed system and of GMRES's residual, in "
     "(0, 0.1]; the default keeps the time series within about 1e-6 of the dense solver's");
  command.add_device(&o.device);
  command.add_out_folder(&o.out, "manifest.ini, laplace_caseK.npy, geobem-laplace.ini");
  command.mark_path("mesh");
}

/// Refuses options that contradict each other or a solver setting out of
/// its range, before any work; warns about an option given in vain.
void check_options(const LaplaceOptions& o, const cli::StageOptions& command) {
  if (o.time_step.has_value() == o.beta.has_value())
    throw InputError::usage("give exactly one of --time-step and --beta");
  bem::parse_bem_solver(o.solver);
  bem::check_compression_tolerance(o.compression_tolerance);
  if (o.steps.has_value() == o.duration.has_value())
    throw InputError::usage("give exactly one of --steps and --duration");
  if (!o.export_systems) command.warn_ignored("max-disk-bytes", "it bounds the files of --export-systems");
}

/// Names split at commas and trimmed, so that the manifest records one spelling.
std::vector<std::string> names(const std::vector<std::string>& lists) {
  std::vector<std::string> out;
  for (const auto& list : lists)
    for (const auto& name : split(list, ',')) out.push_back(name);
  return out;
}

/// Physical memory of this host (bytes), for the dense-system check on the CPU.
std::uint64_t host_memory_bytes() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
}

/// Refuses, before any work, an output set that the output's file system
/// cannot hold: the solutions, and with --export-systems the dense systems
/// (against --max-disk-bytes too).
void require_disk_space(const OutputSet& outputs, const LaplaceManifest& manifest, int cases,
                        const LaplaceOptions& o) {
  const std::uint64_t available = fs::space(outputs.staging_folder()).available;
  const std::uint64_t solutions = cases * solution_file_bytes(manifest.unknowns, manifest.frequencies);
  if (solutions > available)
    throw std::runtime_error("the Laplace-domain solutions need " + std::to_string(solutions) + " bytes but " +
                             outputs.destination().string() + " has " + std::to_string(available) + " bytes free");
  if (!o.export_systems) return;
  const std::uint64_t needed = system_file_bytes(manifest.unknowns, cases, manifest.frequencies);
  const double limit = o.max_disk_bytes ? std::min(*o.max_disk_bytes, double(available - solutions))
                                        : double(available - solutions);
  if (double(needed) > limit)
    throw std::runtime_error("--export-systems: the dense systems need " + std::to_string(needed) + " bytes (" +
                             std::to_string(manifest.frequencies) + " frequencies x " +
                             std::to_string(manifest.unknowns) + " x " + std::to_string(manifest.unknowns + cases) +
                             " complex128) but " + outputs.destination().string() + " allows " +
                             std::to_string(static_cast<std::uint64_t>(limit)) + " bytes");
}

/// Writes every frequency's dense system into systems/ of the set (the export).
void export_systems(const bem::BemModel& model, const LaplaceManifest& manifest, const OutputSet& outputs,
                    const bem::CqOptions& options, std::vector<std::uint32_t>& crc) {
  fs::create_directories(outputs.path("systems"));
  const std::size_t n = manifest.unknowns, cases = manifest.load_case_groups.size();
  crc.resize(manifest.frequencies);
  bem::assemble_cq_systems(model, manifest.cq, options,
                           [&](int l, const std::vector<bem::Complex>& matrix, const std::vector<bem::Complex>& rhs) {
                             const auto* a = reinterpret_cast<const std::complex<double>*>(matrix.data());
                             const auto* b = reinterpret_cast<const std::complex<double>*>(rhs.data());
                             crc[l] = write_npy_complex(outputs.path(system_file_name(l)), n, n + cases,
                                                        {{a, matrix.size()}, {b, rhs.size()}});
                           });
}

/// --time-step (or --beta) and --steps (or --duration) into `cq`, checked:
/// usage errors where the step ratio or the settings are refused.
void set_time_steps(const LaplaceOptions& o, double h, double c, bem::CqSettings& cq) {
  with_origin(InputKind::usage, "", [&] {
    cq.time_step = o.time_step ? *o.time_step : bem::cq_time_step_from_beta(*o.beta, h, c);
    bem::check_cq_step_ratio(c, cq.time_step, h);  // before a duration turns a tiny step into steps
    cq.steps = o.steps ? *o.steps : bem::cq_steps_for_duration(*o.duration, cq.time_step);
    bem::check_cq_settings(cq);
  });
}

/// The solver of --solver for this model and device, recorded in the
/// manifest, and its memory refused where it cannot fit: a hierarchical
/// solver's plan per frequency (printed; on the GPU the solver checks it
/// against the device's budget), a dense system on the CPU.
bem::CqOptions solver_options(const LaplaceOptions& o, const bem::BemModel& model, ComputeDevice device, bool quiet,
                              LaplaceManifest& manifest) {
  const int cases = model.load_case_count();
  bem::CqOptions cq_options{device, quiet};
  cq_options.solver =
      bem::choose_bem_solver(bem::parse_bem_solver(o.solver), device, manifest.unknowns,
                             bem::little_damped_share(model, manifest.cq, o.compression_tolerance));
  cq_options.hierarchical.tolerance = o.compression_tolerance;
  manifest.solver = bem::to_string(cq_options.solver);
  if (cq_options.solver == bem::BemSolver::hierarchical) {
    manifest.compression_tolerance = o.compression_tolerance;
    const bem::HierarchicalMemoryPlan plan = bem::plan_hierarchical_memory(model, cq_options.hierarchical);
    if (!quiet)
      std::fprintf(stderr,
                   "geobem-laplace: hierarchical solver, planned per frequency: near field %.4g GB, low-rank blocks "
                   "about %.4g GB, preconditioner and GMRES %.4g GB; %.4g GB in all (dense: %.4g GB)\n",
                   plan.near_field / 1e9, plan.low_rank / 1e9, plan.workspace / 1e9, plan.total() / 1e9,
                   bem::dense_system_bytes(manifest.unknowns, cases) / 1e9);
    if (device == ComputeDevice::Cpu)
      bem::require_hierarchical_plan_fits(plan, host_memory_bytes() / 2, "half of this host's memory");
  } else if (device == ComputeDevice::Cpu) {
    bem::require_dense_system_fits(manifest.unknowns, cases, host_memory_bytes() / 2, "half of this host's memory");
  }
  return cq_options;
}

/// The device of --device and what starting it took.
struct DeviceStart {
  ComputeDevice device = ComputeDevice::Cpu;
  double driver_seconds = 0.0, context_seconds = 0.0;
};

/// Resolves --device (which starts the CUDA driver) and, on the GPU and not
/// under MPI (where each rank picks its device first), makes the context
/// here rather than inside the solver, so that the phase line can tell its
/// cost (0.11-0.13 s on an H100) from the set-up's.
DeviceStart start_device(const std::string& device_option, const cli::MpiSession& mpi) {
  DeviceStart start;
  const auto resolving = std::chrono::steady_clock::now();
  start.device = resolve_device(parse_device_choice(device_option));
  start.driver_seconds = seconds_since(resolving);
  if (start.device == ComputeDevice::Cuda && !mpi.active()) {
    const auto creating = std::chrono::steady_clock::now();
    create_cuda_context();
    start.context_seconds = seconds_since(creating);
  }
  return start;
}

/// The device's phases for the timing line: ", CUDA driver … s, CUDA
/// context … s, device set-up … s" on the GPU, nothing on the CPU.
std::string device_phases(const DeviceStart& start, const bem::CqTimings& timings) {
  char context_text[48] = "", device_text[128] = "";
  if (start.context_seconds > 0)
    std::snprintf(context_text, sizeof context_text, ", CUDA context %.3f s", start.context_seconds);
  if (start.device == ComputeDevice::Cuda)
    std::snprintf(device_text, sizeof device_text, ", CUDA driver %.3f s%s, device set-up %.3f s",
                  start.driver_seconds, context_text, timings.setup_seconds);
  return device_text;
}

/// How the solve went, for the timing line: the frequencies per batch of
/// the dense solver, or GMRES's steps per frequency l = 0, 1, … (how hard
/// each compressed system was) and the largest compressed system.
std::string solve_summary(const bem::LaplaceSolution& solution, const bem::CqTimings& timings) {
  if (solution.solves.empty()) return std::to_string(timings.batch_frequencies) + " frequencies per batch";
  std::string text = "GMRES steps per frequency";
  for (std::size_t l = 0; l < solution.solves.size(); ++l)
    text += (l ? "," : " ") + std::to_string(solution.solves[l].iterations);
  char bytes_text[80];
  std::snprintf(bytes_text, sizeof bytes_text, "; largest compressed system %.4g GB",
                timings.largest_compressed.total() / 1e9);
  return text + bytes_text;
}

int run(const LaplaceOptions& o, const cli::StageOptions& command, const cli::MpiSession& mpi) {
  const auto started = std::chrono::steady_clock::now();
  check_options(o, command);
  const bool quiet = command.quiet() || mpi.rank() != 0;
  const DeviceStart start = start_device(o.device, mpi);
  const ComputeDevice device = start.device;
  const auto reading = std::chrono::steady_clock::now();

  // Everything is read and checked before anything is computed or written.
  LaplaceManifest manifest;
  manifest.fundamental_solution = bem::ElastodynamicFullSpace::name;
  manifest.conditions = {names(o.fixed), names(o.free), o.traction, o.pressure};
  parse_conditions(manifest.conditions);  // the texts' own errors before the mesh is read
  manifest.young_modulus = o.young_modulus;
  manifest.poisson_ratio = o.poisson_ratio;
  manifest.density = o.density;
  const bem::Material material = checked_material(o.young_modulus, o.poisson_ratio, o.density);
  manifest.cq.epsilon = o.epsilon;
  // Rank 0 alone writes: it takes the output (lock, folder checks) before the work.
  std::unique_ptr<OutputSet> outputs;
  if (mpi.rank() == 0) outputs = std::make_unique<OutputSet>(o.out, "geobem-laplace");

  manifest.mesh_file = fs::absolute(o.mesh);
  const surface::SurfaceMesh mesh = surface::read_vtk_surface(manifest.mesh_file);
  const bem::SurfaceView surface_view = checked_bem_surface(mesh, o.mesh);
  manifest.mesh_crc32 = file_crc32(manifest.mesh_file);
  manifest.nodes = mesh.nodes.size();
  manifest.triangles = mesh.triangles.size();
  const auto conditions = parse_conditions(manifest.conditions, mesh.group_names);
  const bem::BemModel model =
      with_origin(InputKind::data, o.mesh, [&] { return bem::make_bem_model(surface_view, conditions, material); });
  if (model.load_case_count() == 0)
    throw InputError::usage("no group has a prescribed traction or pressure (--traction NAME=P:DX,DY,DZ, "
                            "--pressure NAME=P): nothing loads the solid");
  manifest.load_case_groups = model.load_case_groups;

  const double h = model.smallest_element_size(), c = material.p_wave_speed;
  set_time_steps(o, h, c, manifest.cq);
  const std::string warning = bem::cq_step_warning(c, manifest.cq.time_step, h);
  if (!warning.empty() && mpi.rank() == 0) std::fprintf(stderr, "geobem-laplace: warning: %s\n", warning.c_str());
  manifest.unknowns = model.unknown_count();
  manifest.frequencies = bem::cq_frequency_count(manifest.cq);
  const int cases = model.load_case_count();
  const bem::CqOptions cq_options = solver_options(o, model, device, quiet, manifest);
  require_memory(solution_memory_bytes(manifest.unknowns, manifest.frequencies, cases), available_memory_bytes(),
                 "holding the Laplace-domain solutions (" + std::to_string(cases) + " cases x " +
                     std::to_string(manifest.frequencies) + " frequencies x " + std::to_string(manifest.unknowns) +
                     " unknowns, complex128)");
  if (mpi.rank() == 0) {
    require_disk_space(*outputs, manifest, cases, o);
    if (!quiet)
      std::fprintf(stderr,
                   "geobem-laplace: %zu triangles, %d unknowns, %d load case(s), dt = %.6g s, N = %d steps, "
                   "%d frequencies, beta = %.3g, on %s x %d rank(s)\n",
                   mesh.triangles.size(), manifest.unknowns, cases, manifest.cq.time_step, manifest.cq.steps,
                   manifest.frequencies, c * manifest.cq.time_step / h, to_string(device).c_str(), mpi.size());
  }

  const double read_seconds = seconds_since(reading);
  bem::CqTimings timings;
  const bem::LaplaceSolution solution =
      mpi.active() ? bem::solve_laplace_mpi(model, manifest.cq, cq_options, MPI_COMM_WORLD, timings)
                   : bem::solve_laplace(model, manifest.cq, {}, cq_options, timings);
  if (mpi.rank() != 0) return 0;
  manifest.solves = solution.solves;
  const auto writing = std::chrono::steady_clock::now();
  for (int k = 0; k < cases; ++k)
    manifest.solution_crc32.push_back(write_npy_complex(
        outputs->path(solution_file_name(k)), manifest.unknowns, manifest.frequencies,
        {{reinterpret_cast<const std::complex<double>*>(&solution.at(k, 0, 0)),
          static_cast<std::size_t>(manifest.unknowns) * manifest.frequencies}}));
  if (o.export_systems) export_systems(model, manifest, *outputs, cq_options, manifest.system_crc32);
  write_laplace_manifest(outputs->path("manifest.ini"), manifest);
  outputs->write_record(command.record(outputs->destination()) + "# computed on " + to_string(device) + "\n");
  outputs->commit();
  if (!quiet) {
    std::fprintf(stderr, "geobem-laplace: wrote %s\n", (outputs->destination() / "manifest.ini").c_str());
    // Where the time went, for users timing their runs (rank 0's view).
    std::fprintf(stderr,
                 "geobem-laplace: read and checked %.3f s%s, assembly %.3f s, solve %.3f s (%s), write %.3f s; "
                 "%.3f s in all\n",
                 read_seconds, device_phases(start, timings).c_str(),
                 timings.assembly_seconds, timings.solve_seconds, solve_summary(solution, timings).c_str(),
                 seconds_since(writing), seconds_since(started));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_mpi_stage("geobem-laplace", kSummary, declare_options, argc, argv, run);
}
