// geobem-laplace: reads a surface mesh written by geobem-mesh, the boundary
// conditions per group, the material and the CQ steps; assembles and solves
// the collocation BEM system A(s_l) x̂_l = b_l of every CQ frequency
// l = 0…⌊L/2⌋ (Lubich's BDF2 convolution quadrature) for a unit load of each
// loaded group, on the CPU or the GPU, over MPI ranks when started by mpirun;
// writes the Laplace-domain solutions (one NumPy file per load case) and a
// manifest (stages/cq_stage/laplace_manifest.hpp) for geobem-time. The dense
// systems are written only with --export-systems.
#include <mpi.h>
#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/laplace_mpi.hpp"
#include "gpu/core/device.hpp"
#include "mesh/io/npy_file.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/cq_stage/cq_problem.hpp"
#include "stages/cq_stage/laplace_manifest.hpp"
#include "stages/cq_stage/output_folder.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::cq_stage;

namespace {

/// Started by mpirun (Open MPI or a PMI launcher)?
bool under_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE"); }

/// MPI for the run when started by mpirun, closed on every exit path.
struct MpiSession {
  explicit MpiSession(bool active) : active(active) {
    if (active) {
      MPI_Init(nullptr, nullptr);
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      MPI_Comm_size(MPI_COMM_WORLD, &size);
    }
  }
  ~MpiSession() {
    if (active) MPI_Finalize();
  }
  bool active;
  int rank = 0, size = 1;
};

/// The stage's options, checked.
struct LaplaceOptions {
  fs::path mesh, out;
  ConditionTexts conditions;
  double young_modulus = 0.0, poisson_ratio = 0.0, density = 0.0;
  std::optional<double> time_step, beta, duration;
  std::optional<int> steps;
  double epsilon = 1e-10;
  ComputeDevice device = ComputeDevice::Cpu;
  bool export_systems = false, quiet = false;
  std::optional<double> max_disk_bytes;
};

std::vector<std::string> strings(const po::variables_map& vm, const char* key) {
  return vm.count(key) ? vm[key].as<std::vector<std::string>>() : std::vector<std::string>{};
}

/// Names split at commas and trimmed, so that the manifest records one spelling.
std::vector<std::string> names(const std::vector<std::string>& lists) {
  std::vector<std::string> out;
  for (const auto& list : lists)
    for (const auto& name : split(list, ',')) out.push_back(name);
  return out;
}

std::optional<LaplaceOptions> parse_options(int argc, char** argv) {
  po::options_description options("Options");
  cli::add_common_options(options);
  cli::add_device_option(options);
  options.add_options()
    ("mesh", po::value<std::string>(), "surface mesh (.vtu/.vtp with cell array 'group', as geobem-mesh writes it)")
    ("fixed", po::value<std::vector<std::string>>()->composing(), "groups with u = 0 (NAME[,NAME...]; repeatable)")
    ("free", po::value<std::vector<std::string>>()->composing(), "traction-free groups (NAME[,NAME...]; repeatable)")
    ("traction", po::value<std::vector<std::string>>()->composing(),
     "prescribed traction NAME=P:DX,DY,DZ: magnitude P (Pa) along DX,DY,DZ; each such group is a unit load case "
     "whose load history geobem-time applies; repeatable")
    ("young-modulus", po::value<double>()->default_value(steel_young_modulus), "E (Pa); default the rod's steel")
    ("poisson-ratio", po::value<double>()->default_value(0.0), "nu; the rod benchmark has 0")
    ("density", po::value<double>()->default_value(steel_density), "rho (kg/m^3); default the rod's steel")
    ("time-step", po::value<double>(), "CQ step dt (s); or give --beta")
    ("beta", po::value<double>(), "dt = beta*h/c (h the smallest longest element edge, c the P-wave speed); "
                                  "stable around 0.1-0.3")
    ("steps", po::value<int>(), "N time steps (results at t = 0, dt, ..., N dt); or give --duration")
    ("duration", po::value<double>(), "simulated time T (s): N = ceil(T/dt)")
    ("epsilon", po::value<double>()->default_value(1e-10), "CQ accuracy parameter eps, R = eps^(1/(2N))")
    ("export-systems", po::bool_switch(), "also write the dense systems [A(s_l) | B_l] as systems/system_LLLL.npy "
                                          "(n x (n + cases) complex128 each; refused when the disk cannot hold them)")
    ("max-disk-bytes", po::value<double>(), "refuse --export-systems above this many bytes (default: the free space)")
    ("out", po::value<std::string>(), "output folder (replaced as a whole): manifest.ini, laplace_caseK.npy");
  const auto parsed = cli::parse_stage_options(
      argc, argv, "geobem-laplace",
      "Assemble and solve the elastodynamic BEM system of every convolution-quadrature frequency for a unit load "
      "of each loaded group; write the Laplace-domain solutions with a manifest for geobem-time.",
      options);
  if (!parsed) return std::nullopt;
  const po::variables_map& vm = *parsed;
  LaplaceOptions o;
  if (!vm.count("mesh")) throw po::error("--mesh FILE.vtu is required");
  if (!vm.count("out")) throw po::error("--out DIR is required");
  if (vm.count("time-step") == vm.count("beta")) throw po::error("give exactly one of --time-step and --beta");
  if (vm.count("steps") == vm.count("duration")) throw po::error("give exactly one of --steps and --duration");
  o.mesh = fs::absolute(vm["mesh"].as<std::string>());
  o.out = vm["out"].as<std::string>();
  o.conditions = {names(strings(vm, "fixed")), names(strings(vm, "free")), strings(vm, "traction")};
  for (auto& text : o.conditions.traction) text = split(text, ';').empty() ? text : split(text, ';')[0];
  o.young_modulus = vm["young-modulus"].as<double>();
  o.poisson_ratio = vm["poisson-ratio"].as<double>();
  o.density = vm["density"].as<double>();
  if (vm.count("time-step")) o.time_step = vm["time-step"].as<double>();
  if (vm.count("beta")) o.beta = vm["beta"].as<double>();
  if (vm.count("steps")) o.steps = vm["steps"].as<int>();
  if (vm.count("duration")) o.duration = vm["duration"].as<double>();
  o.epsilon = vm["epsilon"].as<double>();
  o.device = resolve_device(parse_device_choice(vm["device"].as<std::string>()));
  o.export_systems = vm["export-systems"].as<bool>();
  if (vm.count("max-disk-bytes")) o.max_disk_bytes = vm["max-disk-bytes"].as<double>();
  o.quiet = vm["quiet"].as<bool>();
  return o;
}

/// Physical memory of this host (bytes), for the dense-system check on the CPU.
std::uint64_t host_memory_bytes() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
}

/// Writes every frequency's dense system into OUT/systems (the export).
void export_systems(const bem::BemModel& model, const LaplaceManifest& manifest, const OutputFolder& folder,
                    const LaplaceOptions& o, std::vector<std::uint32_t>& crc) {
  fs::create_directories(folder.path("systems"));
  const std::size_t n = manifest.unknowns, cases = manifest.load_case_groups.size();
  crc.resize(manifest.frequencies);
  bem::assemble_cq_systems(model, manifest.cq, {o.device, o.quiet},
                           [&](int l, const std::vector<bem::Complex>& matrix, const std::vector<bem::Complex>& rhs) {
                             const auto* a = reinterpret_cast<const std::complex<double>*>(matrix.data());
                             const auto* b = reinterpret_cast<const std::complex<double>*>(rhs.data());
                             crc[l] = write_npy_complex(folder.path(system_file_name(l)), n, n + cases,
                                                        {{a, matrix.size()}, {b, rhs.size()}});
                           });
}

int run(int argc, char** argv, const MpiSession& mpi) {
  const auto parsed = parse_options(argc, argv);
  if (!parsed) return 0;
  const LaplaceOptions& o = *parsed;
  const bool quiet = o.quiet || mpi.rank != 0;

  // Everything is read and checked before anything is computed or written.
  LaplaceManifest manifest;
  manifest.conditions = o.conditions;
  const auto conditions = parse_conditions(manifest.conditions);
  manifest.young_modulus = o.young_modulus;
  manifest.poisson_ratio = o.poisson_ratio;
  manifest.density = o.density;
  bem::Material material;
  try {
    material = bem::material_from_young(o.young_modulus, o.poisson_ratio, o.density);
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  manifest.mesh_file = o.mesh;
  const surface::SurfaceMesh mesh = surface::read_vtk_surface(o.mesh);
  surface::require_valid_surface_mesh(mesh, o.mesh.string());
  manifest.mesh_crc32 = file_crc32(o.mesh);
  manifest.nodes = mesh.nodes.size();
  manifest.triangles = mesh.triangles.size();
  bem::BemModel model;
  try {
    model = bem::make_bem_model(bem_surface(mesh), conditions, material);
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(o.mesh.string() + ": " + error.what());
  }
  if (model.load_case_count() == 0)
    throw po::error("no group has a prescribed traction (--traction NAME=P:DX,DY,DZ): nothing loads the body");
  manifest.load_case_groups = model.load_case_groups;

  const double h = model.smallest_element_size(), c = material.p_wave_speed;
  try {
    manifest.cq.time_step = o.time_step ? *o.time_step : bem::cq_time_step_from_beta(*o.beta, h, c);
    manifest.cq.steps = o.steps ? *o.steps : bem::cq_steps_for_duration(*o.duration, manifest.cq.time_step);
    manifest.cq.epsilon = o.epsilon;
    bem::check_cq_settings(manifest.cq);
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  const std::string warning = bem::cq_step_warning(c, manifest.cq.time_step, h);
  if (!warning.empty() && mpi.rank == 0) std::fprintf(stderr, "geobem-laplace: warning: %s\n", warning.c_str());
  manifest.unknowns = model.unknown_count();
  manifest.frequencies = bem::cq_frequency_count(manifest.cq);
  const int cases = model.load_case_count();
  if (o.device == ComputeDevice::Cpu)
    bem::require_dense_system_fits(manifest.unknowns, cases, host_memory_bytes() / 2, "half of this host's memory");

  std::unique_ptr<OutputFolder> folder;
  if (mpi.rank == 0) {
    folder = std::make_unique<OutputFolder>(o.out, "manifest.ini");
    if (o.export_systems) {
      const std::uint64_t needed = system_file_bytes(manifest.unknowns, cases, manifest.frequencies);
      const std::uint64_t available = fs::space(folder->path("")).available;
      const double limit = o.max_disk_bytes ? std::min(*o.max_disk_bytes, double(available)) : double(available);
      if (double(needed) > limit)
        throw std::runtime_error("--export-systems: the dense systems need " + std::to_string(needed) + " bytes (" +
                                 std::to_string(manifest.frequencies) + " frequencies x " +
                                 std::to_string(manifest.unknowns) + " x " + std::to_string(manifest.unknowns + cases) +
                                 " complex128) but " + o.out.string() + " allows " +
                                 std::to_string(static_cast<std::uint64_t>(limit)) + " bytes");
    }
    if (!quiet)
      std::fprintf(stderr,
                   "geobem-laplace: %zu triangles, %d unknowns, %d load case(s), dt = %.6g s, N = %d steps, "
                   "%d frequencies, beta = %.3g, on %s x %d rank(s)\n",
                   mesh.triangles.size(), manifest.unknowns, cases, manifest.cq.time_step, manifest.cq.steps,
                   manifest.frequencies, c * manifest.cq.time_step / h, to_string(o.device).c_str(), mpi.size);
  }

  bem::CqTimings timings;
  const bem::CqOptions cq_options{o.device, quiet};
  const bem::LaplaceSolution solution =
      mpi.active ? bem::solve_laplace_mpi(model, manifest.cq, cq_options, MPI_COMM_WORLD, timings)
                 : bem::solve_laplace(model, manifest.cq, {}, cq_options, timings);
  if (mpi.rank != 0) return 0;  // rank 0 alone writes
  if (!quiet)
    std::fprintf(stderr, "geobem-laplace: assembly %.3f s, solve %.3f s (rank 0; %d frequencies per batch)\n",
                 timings.assembly_seconds, timings.solve_seconds, timings.batch_frequencies);

  for (int k = 0; k < cases; ++k)
    manifest.solution_crc32.push_back(write_npy_complex(
        folder->path(solution_file_name(k)), manifest.unknowns, manifest.frequencies,
        {{reinterpret_cast<const std::complex<double>*>(&solution.at(k, 0, 0)),
          static_cast<std::size_t>(manifest.unknowns) * manifest.frequencies}}));
  if (o.export_systems) export_systems(model, manifest, *folder, o, manifest.system_crc32);
  write_laplace_manifest(folder->path("manifest.ini"), manifest);
  folder->commit();
  if (!quiet) std::fprintf(stderr, "geobem-laplace: wrote %s\n", (o.out / "manifest.ini").c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const MpiSession mpi(under_mpirun());
  const int status = cli::run_stage("geobem-laplace", [&] { return run(argc, argv, mpi); });
  // The other ranks may wait in the gather for a rank that failed: end them all.
  if (status != 0 && mpi.size > 1) MPI_Abort(MPI_COMM_WORLD, status);
  return status;
}
