// geobem-solve: reads geobem-assemble's manifest and systems (or assembles
// them in memory when the manifest says so), solves A(s_l) x̂_l = ĝ_l b_l per
// CQ frequency (LAPACK on the CPU, cuSOLVER on the GPU), transforms back to
// time and writes a .pvd series of .vtu (point `displacement` in m, cell
// `traction` in Pa) and a probe CSV of displacements over time.
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/rod_closed_form.hpp"
#include "gpu/core/device.hpp"
#include "mesh/io/atomic_file.hpp"
#include "mesh/io/npy_file.hpp"
#include "mesh/io/vtk_output.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/cq_stage/cq_manifest.hpp"
#include "stages/cq_stage/cq_problem.hpp"
#include "stages/solve/probes.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::cq_stage;

namespace {

/// The rod's closed form for this problem: one prescribed traction of
/// magnitude p, length l = the mesh's extent along the traction, Heaviside load.
struct RodClosedForm {
  double pressure = 0.0, length = 0.0;
};

RodClosedForm rod_closed_form_for(const CqManifest& manifest, const bem::BemModel& model,
                                  const std::vector<bem::GroupCondition>& conditions) {
  if (manifest.load_history != "heaviside")
    throw po::error("--closed-form rod needs the heaviside load history (the manifest has '" + manifest.load_history +
                    "')");
  const bem::GroupCondition* loaded = nullptr;
  for (const auto& condition : conditions)
    if (condition.traction[0] != 0.0 || condition.traction[1] != 0.0 || condition.traction[2] != 0.0) {
      if (loaded) throw po::error("--closed-form rod needs exactly one loaded group (the manifest has several)");
      loaded = &condition;
    }
  if (!loaded) throw po::error("--closed-form rod needs one loaded group (the manifest has none)");
  const auto& t = loaded->traction;
  const double p = std::sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
  const bem::Vec3 direction{t[0] / p, t[1] / p, t[2] / p};
  double low = 1e300, high = -1e300;
  for (const auto& node : model.nodes) {
    low = std::min(low, bem::dot(node, direction));
    high = std::max(high, bem::dot(node, direction));
  }
  if (manifest.poisson_ratio != 0.0)
    std::fprintf(stderr, "geobem-solve: warning: the rod's closed form is exact for nu = 0 only (nu = %g)\n",
                 manifest.poisson_ratio);
  return {p, high - low};
}

/// Writes OUT/solution/step_NNNNN.vtu for every `every`-th step (the mesh
/// with point `displacement`, m, and cell `traction`, Pa: unknown on fixed
/// elements, prescribed amplitude × load history elsewhere) and then
/// OUT/solution.pvd listing them. Returns the number of steps written.
std::size_t write_time_series(const fs::path& out, const surface::SurfaceMesh& mesh, const bem::BemModel& model,
                              const CqManifest& manifest, const std::vector<double>& load,
                              const std::vector<double>& unknowns, int every) {
  const std::size_t n = manifest.unknowns;
  fs::create_directories(out / "solution");
  vtkSmartPointer<vtkUnstructuredGrid> grid = surface::surface_to_vtk(mesh);
  add_units_field_data(grid, {{"coordinates", "m"}, {"normal", "1"}, {"area", "m^2"}, {"displacement", "m"},
                              {"traction", "Pa"}, {"TimeValue", "s"}});
  auto displacement = vtkSmartPointer<vtkDoubleArray>::New();
  displacement->SetName("displacement");
  displacement->SetNumberOfComponents(3);
  displacement->SetNumberOfTuples(static_cast<vtkIdType>(mesh.nodes.size()));
  grid->GetPointData()->AddArray(displacement);
  auto traction = vtkSmartPointer<vtkDoubleArray>::New();
  traction->SetName("traction");
  traction->SetNumberOfComponents(3);
  traction->SetNumberOfTuples(static_cast<vtkIdType>(mesh.triangles.size()));
  grid->GetCellData()->AddArray(traction);
  auto time_value = vtkSmartPointer<vtkDoubleArray>::New();
  time_value->SetName("TimeValue");
  time_value->SetNumberOfTuples(1);
  grid->GetFieldData()->AddArray(time_value);

  std::vector<std::pair<double, std::string>> series;
  for (int step = 0; step <= manifest.cq.steps; step += every) {
    const double* x = unknowns.data() + static_cast<std::size_t>(step) * n;
    for (std::size_t k = 0; k < mesh.nodes.size(); ++k) {
      const int block = model.node_block[k];
      for (int c = 0; c < 3; ++c) displacement->SetComponent(k, c, block < 0 ? 0.0 : x[3 * block + c]);
    }
    for (std::size_t e = 0; e < mesh.triangles.size(); ++e) {
      const int block = model.element_block[e];
      const bem::Vec3 t = load[step] * model.element_traction[e];
      const double prescribed[3] = {t.x, t.y, t.z};
      for (int c = 0; c < 3; ++c) traction->SetComponent(e, c, block < 0 ? prescribed[c] : x[3 * block + c]);
    }
    displacement->Modified();
    traction->Modified();
    time_value->SetValue(0, step * manifest.cq.time_step);
    char name[64];
    std::snprintf(name, sizeof name, "solution/step_%05d.vtu", step);
    write_vtk_xml(grid, out / name);
    series.emplace_back(step * manifest.cq.time_step, name);
  }
  write_pvd_collection(out / "solution.pvd", series);
  return series.size();
}

/// Writes the probe CSV atomically: `time`, then probeK_u_x/y/z per probe,
/// then `closed_form` when `rod` is given; `#` lines say what each is.
void write_probe_csv(const fs::path& path, const fs::path& manifest_path, const CqManifest& manifest,
                     const bem::BemModel& model, const std::vector<double>& unknowns, const std::vector<Probe>& probes,
                     const RodClosedForm* rod) {
  write_text_file_atomically(path, [&](std::ostream& csv) {
    csv << "# geobem-solve: displacement (m) over time (s) from " << manifest_path.string() << "\n";
    for (std::size_t k = 0; k < probes.size(); ++k) csv << "# probe" << k << ": " << probes[k].description << "\n";
    if (rod)
      csv << "# closed_form: the rod's free-end displacement along the load (docs/references.md#rod-benchmark), p = " << rod->pressure
          << " Pa, l = " << rod->length << " m, E = " << manifest.young_modulus << " Pa, rho = " << manifest.density
          << " kg/m^3\n";
    csv << "time";
    for (std::size_t k = 0; k < probes.size(); ++k)
      csv << ",probe" << k << "_u_x,probe" << k << "_u_y,probe" << k << "_u_z";
    csv << (rod ? ",closed_form\n" : "\n");
    char value[40];
    for (int step = 0; step <= manifest.cq.steps; ++step) {
      const double t = step * manifest.cq.time_step;
      std::snprintf(value, sizeof value, "%.17g", t);
      csv << value;
      for (const Probe& probe : probes)
        for (double u : probe_displacement(model, unknowns, step, probe)) {
          std::snprintf(value, sizeof value, ",%.17g", u);
          csv << value;
        }
      if (rod) {
        std::snprintf(value, sizeof value, ",%.17g",
                      bem::rod_free_end_displacement(t, rod->pressure, manifest.young_modulus, manifest.density, rod->length));
        csv << value;
      }
      csv << "\n";
    }
  });
}

int run(int argc, char** argv) {
  po::options_description options("Options");
  cli::add_common_options(options);
  cli::add_device_option(options);
  options.add_options()
    ("manifest", po::value<std::string>(), "manifest.ini written by geobem-assemble")
    ("mesh", po::value<std::string>(), "the surface mesh (default: the one the manifest names); must be the same "
                                       "file content")
    ("probe", po::value<std::vector<std::string>>()->composing(),
     "X,Y,Z (m): displacement of the nearest mesh node over time; repeatable")
    ("probe-group", po::value<std::vector<std::string>>()->composing(),
     "NAME: area-weighted mean displacement over a boundary group; repeatable")
    ("closed-form", po::value<std::string>(), "rod: add column closed_form, the rod benchmark's free-end "
                                              "displacement along the load (docs/references.md#rod-benchmark)")
    ("every", po::value<int>()->default_value(1), "write every K-th time step to the .pvd series (probes: all)")
    ("out", po::value<std::string>(), "output folder: solution.pvd, solution/step_NNNN.vtu, probes.csv");
  const auto parsed = cli::parse_stage_options(
      argc, argv, "geobem-solve",
      "Solve the CQ systems of geobem-assemble, transform back to time, write a .pvd time series and a probe CSV.",
      options);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const bool quiet = vm["quiet"].as<bool>();
  if (!vm.count("manifest")) throw po::error("--manifest FILE is required");
  if (!vm.count("out")) throw po::error("--out DIR is required");
  const int every = vm["every"].as<int>();
  if (every < 1) throw po::error("--every must be at least 1");
  if (vm.count("closed-form") && vm["closed-form"].as<std::string>() != "rod")
    throw po::error("--closed-form '" + vm["closed-form"].as<std::string>() + "': only rod is known");
  const ComputeDevice device = resolve_device(parse_device_choice(vm["device"].as<std::string>()));

  // Read and check everything before solving or writing.
  const fs::path manifest_path = vm["manifest"].as<std::string>();
  const CqManifest manifest = read_cq_manifest(manifest_path);
  const fs::path mesh_path = vm.count("mesh") ? fs::path(vm["mesh"].as<std::string>()) : manifest.mesh_file;
  const surface::SurfaceMesh mesh = surface::read_vtk_surface(mesh_path);
  const std::uint32_t crc = file_crc32(mesh_path);
  if (crc != manifest.mesh_crc32 || mesh.nodes.size() != manifest.nodes || mesh.triangles.size() != manifest.triangles)
    throw std::runtime_error(mesh_path.string() + ": not the mesh " + manifest_path.string() + " was assembled from (" +
                             std::to_string(mesh.triangles.size()) + " triangles, CRC-32 " + std::to_string(crc) +
                             "; the manifest has " + std::to_string(manifest.triangles) + " triangles, CRC-32 " +
                             std::to_string(manifest.mesh_crc32) + "): rerun geobem-assemble");
  surface::require_valid_surface_mesh(mesh, mesh_path.string());
  const auto conditions = parse_conditions(manifest.conditions);
  bem::BemModel model;
  try {
    model = bem::make_bem_model(
        mesh, conditions, bem::material_from_young(manifest.young_modulus, manifest.poisson_ratio, manifest.density));
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(manifest_path.string() + ": " + error.what());
  }
  if (model.unknown_count() != manifest.unknowns)
    throw std::runtime_error(manifest_path.string() + ": " + std::to_string(manifest.unknowns) +
                             " unknowns, but the mesh and conditions give " + std::to_string(model.unknown_count()));
  const std::vector<double> load = load_history_values(manifest.load_history, manifest.cq);

  std::vector<Probe> probes;
  if (vm.count("probe"))
    for (const auto& text : vm["probe"].as<std::vector<std::string>>()) {
      const auto p = cli::parse_number_list("probe", text, 3, "X,Y,Z");
      probes.push_back(nearest_node_probe(model, {p[0], p[1], p[2]}));
    }
  if (vm.count("probe-group"))
    for (const auto& name : vm["probe-group"].as<std::vector<std::string>>()) {
      try {
        probes.push_back(group_mean_probe(model, name));
      } catch (const std::invalid_argument& error) {
        throw po::error(error.what());
      }
    }
  const bool closed_form = vm.count("closed-form") > 0;
  const RodClosedForm rod = closed_form ? rod_closed_form_for(manifest, model, conditions) : RodClosedForm{};

  const fs::path folder = manifest_path.parent_path();
  const long n = manifest.unknowns;
  if (!manifest.in_memory)
    for (int l = 0; l < manifest.frequencies; ++l) {
      const fs::path file = folder / system_file_name(l);
      std::error_code error;
      const auto size = fs::file_size(file, error);
      if (error) throw std::runtime_error(file.string() + ": missing (listed in " + manifest_path.string() + ")");
      if (size != system_file_bytes(manifest.unknowns, 1))
        throw std::runtime_error(file.string() + ": " + std::to_string(size) + " bytes, expected " +
                                 std::to_string(system_file_bytes(manifest.unknowns, 1)) + " (truncated or stale)");
    }
  if (!quiet)
    for (std::size_t k = 0; k < probes.size(); ++k)
      std::fprintf(stderr, "geobem-solve: probe %zu: %s\n", k, probes[k].description.c_str());

  const bem::CqOptions cq_options{device, quiet};
  bem::CqResult result;
  if (manifest.in_memory) {
    if (!quiet) std::fprintf(stderr, "geobem-solve: the manifest asks for in-memory assembly\n");
    result = bem::solve_cq(model, manifest.cq, load, cq_options);
  } else {
    result = bem::solve_cq_systems(
        manifest.unknowns, manifest.cq, load,
        [&](int l, std::vector<bem::Complex>& matrix, std::vector<bem::Complex>& rhs) {
          matrix.resize(static_cast<std::size_t>(n) * n);
          rhs.resize(n);
          read_npy_complex(folder / system_file_name(l), n, n + 1, manifest.system_crc32[l],
                           {{reinterpret_cast<std::complex<double>*>(matrix.data()), matrix.size()},
                            {reinterpret_cast<std::complex<double>*>(rhs.data()), rhs.size()}});
        },
        cq_options);
  }
  if (!quiet)
    std::fprintf(stderr, "geobem-solve: %s %.3f s, solve %.3f s, transforms %.3f s on %s\n",
                 manifest.in_memory ? "assembly" : "reading systems", result.timings.assembly_seconds,
                 result.timings.solve_seconds, result.timings.transform_seconds, to_string(device).c_str());

  const fs::path out = vm["out"].as<std::string>();
  const std::size_t written = write_time_series(out, mesh, model, manifest, load, result.unknowns, every);
  write_probe_csv(out / "probes.csv", manifest_path, manifest, model, result.unknowns, probes,
                  closed_form ? &rod : nullptr);
  if (!quiet)
    std::fprintf(stderr, "geobem-solve: wrote %s (%zu steps), %s\n", (out / "solution.pvd").c_str(), written,
                 (out / "probes.csv").c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_stage("geobem-solve", [&] { return run(argc, argv); });
}
