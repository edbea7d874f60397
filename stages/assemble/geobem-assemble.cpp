// geobem-assemble: reads a surface mesh written by geobem-mesh, the boundary
// conditions per group, the material and the CQ steps; assembles the system
// [A(s_l) | b_l] of every solved CQ frequency l = 0…⌊L/2⌋ (Lubich's BDF2
// CQ, docs/references.md#cq-bem) on the CPU or the GPU and writes each as a NumPy file
// beside a manifest (stages/cq_stage/cq_manifest.hpp). When the files would
// not fit on disk it says so and writes a manifest that has geobem-solve
// assemble in memory.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/core/device.hpp"
#include "mesh/io/npy_file.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/cq_stage/cq_manifest.hpp"
#include "stages/cq_stage/cq_problem.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::cq_stage;

namespace {

std::vector<std::string> strings(const po::variables_map& vm, const char* key) {
  return vm.count(key) ? vm[key].as<std::vector<std::string>>() : std::vector<std::string>{};
}

int run(int argc, char** argv) {
  po::options_description options("Options");
  cli::add_common_options(options);
  cli::add_device_option(options);
  options.add_options()
    ("mesh", po::value<std::string>(), "surface mesh (.vtu/.vtp with cell array 'group', as geobem-mesh writes it)")
    ("fixed", po::value<std::vector<std::string>>()->composing(), "groups with u = 0 (NAME[,NAME...]; repeatable)")
    ("free", po::value<std::vector<std::string>>()->composing(), "traction-free groups (NAME[,NAME...]; repeatable)")
    ("traction", po::value<std::vector<std::string>>()->composing(),
     "prescribed traction NAME=P:DX,DY,DZ: magnitude P (Pa) along DX,DY,DZ, times the load history; repeatable")
    ("load-history", po::value<std::string>()->default_value("heaviside"),
     "time factor of the tractions: heaviside (1 from t = 0) or ramp:T (linear rise to 1 over T s)")
    ("young-modulus", po::value<double>()->default_value(steel_young_modulus), "E (Pa); default the rod's steel")
    ("poisson-ratio", po::value<double>()->default_value(0.0), "nu; the rod benchmark has 0")
    ("density", po::value<double>()->default_value(steel_density), "rho (kg/m^3); default the rod's steel")
    ("time-step", po::value<double>(), "CQ step dt (s); or give --beta")
    ("beta", po::value<double>(), "dt = beta*h/c (h the smallest longest element edge, c the P-wave speed); "
                                  "stable around 0.1-0.3")
    ("steps", po::value<int>(), "N time steps (results at t = 0, dt, ..., N dt); or give --duration")
    ("duration", po::value<double>(), "simulated time T (s): N = ceil(T/dt)")
    ("epsilon", po::value<double>()->default_value(1e-10), "CQ accuracy parameter eps, R = eps^(1/(2N))")
    ("in-memory", po::bool_switch(), "write only the manifest: geobem-solve assembles the systems in memory")
    ("max-disk-bytes", po::value<double>(), "write the systems only if they need at most this many bytes "
                                            "(default: the free space of --out)")
    ("out", po::value<std::string>(), "output folder: manifest.ini and system_LLLL.npy");
  const auto parsed = cli::parse_stage_options(
      argc, argv, "geobem-assemble",
      "Assemble the elastodynamic BEM systems of every convolution-quadrature frequency and write them with a "
      "manifest for geobem-solve.",
      options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const bool quiet = vm["quiet"].as<bool>();
  if (!vm.count("mesh")) throw po::error("--mesh FILE.vtu is required");
  if (!vm.count("out")) throw po::error("--out DIR is required");
  if (vm.count("time-step") == vm.count("beta")) throw po::error("give exactly one of --time-step and --beta");
  if (vm.count("steps") == vm.count("duration")) throw po::error("give exactly one of --steps and --duration");

  // Everything is read and checked before anything is written.
  CqManifest manifest;
  manifest.conditions = {strings(vm, "fixed"), strings(vm, "free"), strings(vm, "traction")};
  const auto conditions = parse_conditions(manifest.conditions);
  manifest.young_modulus = vm["young-modulus"].as<double>();
  manifest.poisson_ratio = vm["poisson-ratio"].as<double>();
  manifest.density = vm["density"].as<double>();
  bem::Material material;
  try {
    material = bem::material_from_young(manifest.young_modulus, manifest.poisson_ratio, manifest.density);
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  const ComputeDevice device = resolve_device(parse_device_choice(vm["device"].as<std::string>()));

  manifest.mesh_file = fs::absolute(vm["mesh"].as<std::string>());
  const surface::SurfaceMesh mesh = surface::read_vtk_surface(manifest.mesh_file);
  surface::require_valid_surface_mesh(mesh, manifest.mesh_file.string());
  manifest.mesh_crc32 = file_crc32(manifest.mesh_file);
  manifest.nodes = mesh.nodes.size();
  manifest.triangles = mesh.triangles.size();
  bem::BemModel model;
  try {
    model = bem::make_bem_model(mesh, conditions, material);
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(manifest.mesh_file.string() + ": " + error.what());
  }

  const double h = model.smallest_element_size(), c = material.p_wave_speed;
  manifest.cq.time_step = vm.count("time-step") ? vm["time-step"].as<double>() : vm["beta"].as<double>() * h / c;
  if (vm.count("steps")) {
    manifest.cq.steps = vm["steps"].as<int>();
  } else {
    const double steps = std::ceil(vm["duration"].as<double>() / manifest.cq.time_step - 1e-9);
    if (!(steps >= 1.0 && steps < 1e7)) throw po::error("--duration gives " + std::to_string(steps) + " steps");
    manifest.cq.steps = static_cast<int>(steps);
  }
  manifest.cq.epsilon = vm["epsilon"].as<double>();
  try {
    bem::check_cq_settings(manifest.cq);
  } catch (const std::invalid_argument& error) {
    throw po::error(error.what());
  }
  manifest.load_history = vm["load-history"].as<std::string>();
  load_history_values(manifest.load_history, manifest.cq);
  const std::string warning = bem::cq_step_warning(c, manifest.cq.time_step, h);
  if (!warning.empty()) std::fprintf(stderr, "geobem-assemble: warning: %s\n", warning.c_str());

  manifest.unknowns = model.unknown_count();
  manifest.frequencies = bem::cq_frequency_count(manifest.cq);
  manifest.bytes_needed = system_file_bytes(manifest.unknowns, manifest.frequencies);

  const fs::path out = vm["out"].as<std::string>();
  fs::create_directories(out);
  const fs::path manifest_path = out / "manifest.ini";
  const std::uint64_t available = fs::space(out).available;
  const double limit = vm.count("max-disk-bytes") ? vm["max-disk-bytes"].as<double>() : double(available);
  manifest.in_memory = vm["in-memory"].as<bool>();
  if (!manifest.in_memory && (double(manifest.bytes_needed) > limit || manifest.bytes_needed > available)) {
    std::fprintf(stderr,
                 "geobem-assemble: the systems need %llu bytes on disk (%d frequencies x %d x %d complex128) but "
                 "%s allows %.0f bytes (%llu free): writing a manifest for in-memory assembly; geobem-solve will "
                 "assemble them itself\n",
                 static_cast<unsigned long long>(manifest.bytes_needed), manifest.frequencies, manifest.unknowns,
                 manifest.unknowns + 1, out.c_str(), std::min(limit, double(available)),
                 static_cast<unsigned long long>(available));
    manifest.in_memory = true;
  }
  if (!quiet)
    std::fprintf(stderr,
                 "geobem-assemble: %zu triangles, %d unknowns, dt = %.6g s, N = %d steps, %d frequencies, "
                 "beta = %.3g, %s on %s\n",
                 mesh.triangles.size(), manifest.unknowns, manifest.cq.time_step, manifest.cq.steps,
                 manifest.frequencies, c * manifest.cq.time_step / h,
                 manifest.in_memory ? "manifest only (in-memory)" : "systems to disk", to_string(device).c_str());

  // A stale manifest must not describe the system files rewritten below.
  fs::remove(manifest_path);
  if (!manifest.in_memory) {
    manifest.system_crc32.resize(manifest.frequencies);
    const long n = manifest.unknowns;
    const bem::CqTimings timings = bem::assemble_cq_systems(
        model, manifest.cq, {device, quiet},
        [&](int l, const std::vector<bem::Complex>& matrix, const std::vector<bem::Complex>& rhs) {
          const auto* a = reinterpret_cast<const std::complex<double>*>(matrix.data());
          const auto* b = reinterpret_cast<const std::complex<double>*>(rhs.data());
          manifest.system_crc32[l] = write_npy_complex(out / system_file_name(l), n, n + 1,
                                                       {{a, matrix.size()}, {b, rhs.size()}});
        });
    if (!quiet)
      std::fprintf(stderr, "geobem-assemble: assembly %.3f s (%.3g entries/s)\n", timings.assembly_seconds,
                   timings.matrix_entries / std::max(timings.assembly_seconds, 1e-9));
  }
  write_cq_manifest(manifest_path, manifest);
  if (!quiet) std::fprintf(stderr, "geobem-assemble: wrote %s\n", manifest_path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_stage("geobem-assemble", [&] { return run(argc, argv); });
}
