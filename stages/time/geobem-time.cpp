// geobem-time: reads geobem-laplace's manifest and Laplace-domain solutions,
// applies a load history to each load case, transforms back to time (the
// inverse CQ transform, FFTW) and writes a .pvd series of .vtu (point
// `displacement` in m, cell `traction` in Pa) and a probe CSV over a time
// window, with the run's effective options, as one output set
// (docs/stage_contract.md). Cheap next to geobem-laplace: rerun it for other
// histories, windows or probes.
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>

#include <array>
#include <chrono>
#include <cmath>
#include <complex>
#include <optional>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/rod_closed_form.hpp"
#include "gpu/core/usage_error.hpp"
#include "mesh/io/atomic_file.hpp"
#include "mesh/io/memory_budget.hpp"
#include "mesh/io/npy_file.hpp"
#include "mesh/io/output_set.hpp"
#include "mesh/io/vtk_output.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/cq_stage/cq_problem.hpp"
#include "stages/cq_stage/laplace_manifest.hpp"
#include "stages/time/probes.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::cq_stage;

namespace {

/// The steps written: every `every`-th step n of 0…N with nΔt in the window.
std::vector<int> window_steps(const bem::CqSettings& cq, double first_time, double last_time, int every) {
  std::vector<int> steps;
  for (int step = 0; step <= cq.steps; ++step) {
    const double t = step * cq.time_step;
    if (t >= first_time - 1e-12 * cq.time_step && t <= last_time + 1e-12 * cq.time_step) steps.push_back(step);
  }
  std::vector<int> kept;
  for (std::size_t k = 0; k < steps.size(); k += every) kept.push_back(steps[k]);
  return kept;
}

/// The surface with the arrays of one time step, filled per step.
struct StepGrid {
  vtkSmartPointer<vtkUnstructuredGrid> grid;
  vtkSmartPointer<vtkDoubleArray> displacement, traction, time_value;
  explicit StepGrid(const surface::SurfaceMesh& mesh)
      : grid(surface::surface_to_vtk(mesh)),
        displacement(vtkSmartPointer<vtkDoubleArray>::New()),
        traction(vtkSmartPointer<vtkDoubleArray>::New()),
        time_value(vtkSmartPointer<vtkDoubleArray>::New()) {
    add_units_field_data(grid, {{"coordinates", "m"}, {"normal", "1"}, {"area", "m^2"}, {"displacement", "m"},
                                {"traction", "Pa"}, {"TimeValue", "s"}});
    displacement->SetName("displacement");
    displacement->SetNumberOfComponents(3);
    displacement->SetNumberOfTuples(static_cast<vtkIdType>(mesh.nodes.size()));
    grid->GetPointData()->AddArray(displacement);
    traction->SetName("traction");
    traction->SetNumberOfComponents(3);
    traction->SetNumberOfTuples(static_cast<vtkIdType>(mesh.triangles.size()));
    grid->GetCellData()->AddArray(traction);
    time_value->SetName("TimeValue");
    time_value->SetNumberOfTuples(1);
    grid->GetFieldData()->AddArray(time_value);
  }
};

/// Writes solution/step_NNNNN.vtu for the given steps (the mesh with point
/// `displacement`, m, and cell `traction`, Pa: unknown on fixed elements,
/// prescribed amplitude × its case's load history elsewhere) and then
/// solution.pvd listing them, into the output set. The steps are written by
/// all CPU threads at once: compressing hundreds of .vtu files is most of
/// this stage's time.
void write_time_series(const OutputSet& outputs, const surface::SurfaceMesh& mesh, const bem::BemModel& model,
                       const bem::CqSettings& cq, const std::vector<std::vector<double>>& histories,
                       const std::vector<double>& unknowns, const std::vector<int>& steps) {
  const std::size_t n = model.unknown_count();
  fs::create_directories(outputs.path("solution"));
  std::vector<std::pair<double, std::string>> series(steps.size());
  for (std::size_t k = 0; k < steps.size(); ++k) {
    char name[64];
    std::snprintf(name, sizeof name, "solution/step_%05d.vtu", steps[k]);
    series[k] = {steps[k] * cq.time_step, name};
  }
  std::exception_ptr failure;
  { const StepGrid warm_up(mesh); }  // VTK's object factories initialised once, before the threads
#pragma omp parallel for schedule(dynamic)
  for (std::size_t k = 0; k < steps.size(); ++k) {
    try {
      // A fresh grid per step: VTK's writer caches array ranges and norms
      // in the arrays it writes, so a reused grid would write the cache of
      // whichever step its thread wrote before (bytes differing run to run).
      StepGrid step_grid(mesh);
      const int step = steps[k];
      const double* x = unknowns.data() + static_cast<std::size_t>(step) * n;
      for (std::size_t node = 0; node < mesh.nodes.size(); ++node) {
        const int block = model.node_block[node];
        for (int c = 0; c < 3; ++c) step_grid.displacement->SetComponent(node, c, block < 0 ? 0.0 : x[3 * block + c]);
      }
      for (std::size_t e = 0; e < mesh.triangles.size(); ++e) {
        const int block = model.element_block[e], load_case = model.element_load_case[e];
        const bem::Vec3 t = (load_case < 0 ? 0.0 : histories[load_case][step]) * model.element_traction[e];
        const double prescribed[3] = {t.x, t.y, t.z};
        for (int c = 0; c < 3; ++c)
          step_grid.traction->SetComponent(e, c, block < 0 ? prescribed[c] : x[3 * block + c]);
      }
      step_grid.time_value->SetValue(0, series[k].first);
      write_vtk_xml(step_grid.grid, outputs.path(series[k].second));
    } catch (...) {
#pragma omp critical(geobem_time_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  write_pvd_collection(outputs.path("solution.pvd"), series);
}

/// Writes the probe CSV: the header line `time`, probeK_u_x/y/z per probe,
/// then `closed_form` when `rod` is given; one row per step.
void write_probe_csv(const fs::path& path, const bem::BemModel& model, const LaplaceManifest& manifest,
                     const std::vector<double>& unknowns, const std::vector<Probe>& probes,
                     const std::vector<int>& steps, const bem::RodProblem* rod) {
  write_text_file_atomically(path, [&](std::ostream& csv) {
    csv << "time";
    for (std::size_t k = 0; k < probes.size(); ++k)
      csv << ",probe" << k << "_u_x,probe" << k << "_u_y,probe" << k << "_u_z";
    csv << (rod ? ",closed_form\n" : "\n");
    char value[40];
    for (int step : steps) {
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
                      bem::rod_free_end_displacement(t, rod->pressure, manifest.young_modulus, manifest.density,
                                                     rod->length));
        csv << value;
      }
      csv << "\n";
    }
  });
}

/// What each probe and column is, beside the CSV (probes.txt), so that the CSV starts with its header.
void write_probe_notes(const fs::path& path, const fs::path& manifest_path, const std::vector<Probe>& probes,
                       const std::vector<std::string>& history_texts, const std::vector<std::string>& case_groups,
                       const bem::RodProblem* rod, const LaplaceManifest& manifest) {
  write_text_file_atomically(path, [&](std::ostream& out) {
    out << "geobem-time: displacement (m) over time (s) from " << manifest_path.string() << "\n";
    for (std::size_t k = 0; k < case_groups.size(); ++k)
      out << "load case " << k << " (group " << case_groups[k] << "): history " << history_texts[k] << "\n";
    for (std::size_t k = 0; k < probes.size(); ++k) out << "probe" << k << ": " << probes[k].description << "\n";
    if (rod)
      out << "closed_form: the 1D rod's free-end displacement along the load, p = " << rod->pressure
          << " Pa, l = " << rod->length << " m, E = " << manifest.young_modulus << " Pa, rho = " << manifest.density
          << " kg/m^3\n";
  });
}

struct TimeOptions {
  std::string laplace, out;
  std::optional<std::string> mesh, time_window, closed_form;
  std::vector<std::string> load_history, probe, probe_group;
  int every = 1;
};

/// Binds the options; returns false for --help.
bool parse(int argc, const char* const argv[], TimeOptions& o, cli::StageOptions& command) {
  command.add()
    ("laplace", po::value(&o.laplace)->required(), "output folder of geobem-laplace (manifest.ini, laplace_caseK.npy)")
    ("mesh", cli::optional_value(&o.mesh), "the surface mesh (default: the one the manifest names); must be the "
                                           "same file content")
    ("load-history", po::value(&o.load_history)->composing(),
     "[GROUP=]heaviside or [GROUP=]ramp:T (linear rise to 1 over T s): the time factor of a load case's traction "
     "(without GROUP: every case without its own); default heaviside; repeatable")
    ("time-window", cli::optional_value(&o.time_window), "T0,T1 (s): write only the steps with T0 <= t <= T1 "
                                                         "(default: all)")
    ("probe", po::value(&o.probe)->composing(), "X,Y,Z (m): displacement of the nearest mesh node over time; "
                                                "repeatable")
    ("probe-group", po::value(&o.probe_group)->composing(),
     "NAME: area-weighted mean displacement over a boundary group; repeatable")
    ("closed-form", cli::optional_value(&o.closed_form), "rod: add column closed_form, the rod benchmark's free-end "
                                                         "displacement along the load")
    ("every", po::value(&o.every)->default_value(o.every), "write every K-th step of the window to the .pvd series "
                                                           "(probes: all)");
  command.add_out_folder(&o.out, "solution.pvd, solution/step_NNNNN.vtu, probes.csv, probes.txt, geobem-time.ini");
  if (!command.parse(argc, argv)) return false;
  if (o.every < 1) throw UsageError("--every must be at least 1");
  if (o.closed_form && *o.closed_form != "rod")
    throw UsageError("--closed-form '" + *o.closed_form + "': only rod is known");
  return true;
}

int run(int argc, char** argv) {
  TimeOptions o;
  cli::StageOptions command(
      "geobem-time",
      "Apply load histories to geobem-laplace's Laplace-domain solutions, transform back to time, write a .pvd "
      "time series and a probe CSV.");
  if (!parse(argc, argv, o, command)) return 0;
  double first_time = -1e300, last_time = 1e300;
  if (o.time_window) {
    const auto window = cli::parse_number_list("time-window", *o.time_window, 2, "T0,T1");
    if (!(window[0] <= window[1])) throw UsageError("--time-window: T0 must not exceed T1");
    first_time = window[0];
    last_time = window[1];
  }
  const auto started = std::chrono::steady_clock::now();
  OutputSet outputs(o.out, "geobem-time");

  // Read and check everything before computing or writing.
  const fs::path laplace = o.laplace, manifest_path = laplace / "manifest.ini";
  if (!fs::exists(manifest_path))
    throw std::runtime_error(manifest_path.string() + ": missing: run geobem-laplace first");
  const LaplaceManifest manifest = read_laplace_manifest(manifest_path);
  // The solutions and the time series (N + 1 steps x n doubles), before anything
  // of their size (the load histories too) is allocated.
  const std::uint64_t solution_bytes =
      solution_memory_bytes(manifest.unknowns, manifest.frequencies, int(manifest.load_case_groups.size()));
  std::uint64_t series_bytes = 0;
  const bool representable =
      solution_bytes != UINT64_MAX &&
      multiply_checked(8 * std::uint64_t(manifest.unknowns), std::uint64_t(manifest.cq.steps) + 1, series_bytes) &&
      series_bytes <= UINT64_MAX - solution_bytes;
  require_memory(representable ? solution_bytes + series_bytes : UINT64_MAX, available_memory_bytes(),
                 manifest_path.string() + ": holding its solutions and their time series");
  const fs::path mesh_path = o.mesh ? fs::path(*o.mesh) : manifest.mesh_file;
  const surface::SurfaceMesh mesh = surface::read_vtk_surface(mesh_path);
  const std::uint32_t crc = file_crc32(mesh_path);
  if (crc != manifest.mesh_crc32 || mesh.nodes.size() != manifest.nodes || mesh.triangles.size() != manifest.triangles)
    throw std::runtime_error(mesh_path.string() + ": not the mesh " + manifest_path.string() + " was solved for (" +
                             std::to_string(mesh.triangles.size()) + " triangles, CRC-32 " + std::to_string(crc) +
                             "; the manifest has " + std::to_string(manifest.triangles) + " triangles, CRC-32 " +
                             std::to_string(manifest.mesh_crc32) + "): rerun geobem-laplace");
  const bem::SurfaceView surface_view = checked_bem_surface(mesh, mesh_path.string());
  bem::BemModel model;
  try {
    model = bem::make_bem_model(surface_view, parse_conditions(manifest.conditions),
                                checked_material(manifest.young_modulus, manifest.poisson_ratio, manifest.density));
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(manifest_path.string() + ": " + error.what());  // a property of the file: exit 1
  }
  if (model.unknown_count() != manifest.unknowns || model.load_case_groups != manifest.load_case_groups)
    throw std::runtime_error(manifest_path.string() + ": " + std::to_string(manifest.unknowns) + " unknowns and " +
                             "load cases " + join(manifest.load_case_groups, ',') +
                             ", but the mesh and conditions give " + std::to_string(model.unknown_count()) + " and " +
                             join(model.load_case_groups, ','));
  const std::vector<std::string> history_texts = load_history_texts(o.load_history, model.load_case_groups);
  std::vector<std::vector<double>> histories;
  for (const auto& text : history_texts) histories.push_back(load_history_values(text, manifest.cq));

  std::vector<Probe> probes;
  for (const auto& text : o.probe) {
    const auto p = cli::parse_number_list("probe", text, 3, "X,Y,Z");
    probes.push_back(nearest_node_probe(model, {p[0], p[1], p[2]}));
  }
  for (const auto& name : o.probe_group) {
    try {
      probes.push_back(group_mean_probe(model, name));
    } catch (const std::invalid_argument& error) {
      throw UsageError(error.what());
    }
  }
  std::optional<bem::RodProblem> rod;
  if (o.closed_form) {
    if (history_texts.size() != 1 || history_texts[0] != "heaviside")
      throw UsageError("--closed-form rod needs one load case with the heaviside load history");
    if (manifest.poisson_ratio != 0.0)
      std::fprintf(stderr, "geobem-time: warning: the rod's closed form is exact for nu = 0 only (nu = %g)\n",
                   manifest.poisson_ratio);
    rod = bem::rod_problem_of(model);
  }
  const std::vector<int> steps = window_steps(manifest.cq, first_time, last_time, o.every);
  if (steps.empty())
    throw UsageError("--time-window holds no step (t = 0 to " + std::to_string(manifest.cq.steps * manifest.cq.time_step) +
                     " s in steps of " + std::to_string(manifest.cq.time_step) + " s)");

  bem::LaplaceSolution solution;
  solution.unknowns = manifest.unknowns;
  solution.load_cases = static_cast<int>(manifest.load_case_groups.size());
  solution.frequencies.resize(manifest.frequencies);
  for (int l = 0; l < manifest.frequencies; ++l) solution.frequencies[l] = l;
  solution.values.resize(static_cast<std::size_t>(solution.load_cases) * manifest.frequencies * manifest.unknowns);
  for (int k = 0; k < solution.load_cases; ++k)
    read_npy_complex(laplace / solution_file_name(k), manifest.unknowns, manifest.frequencies,
                     manifest.solution_crc32[k],
                     {{reinterpret_cast<std::complex<double>*>(&solution.at(k, 0, 0)),
                       static_cast<std::size_t>(manifest.unknowns) * manifest.frequencies}});
  const std::vector<double> unknowns = bem::cq_time_series(solution, histories, manifest.cq);

  write_time_series(outputs, mesh, model, manifest.cq, histories, unknowns, steps);
  write_probe_csv(outputs.path("probes.csv"), model, manifest, unknowns, probes,
                  window_steps(manifest.cq, first_time, last_time, 1), rod ? &*rod : nullptr);
  write_probe_notes(outputs.path("probes.txt"), fs::absolute(manifest_path), probes, history_texts,
                    model.load_case_groups, rod ? &*rod : nullptr, manifest);
  outputs.write_record(command.record());
  outputs.commit();
  if (!command.quiet())
    std::fprintf(stderr, "geobem-time: wrote %s (%zu steps) and probes.csv in %.3f s\n",
                 (outputs.destination() / "solution.pvd").c_str(), steps.size(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_stage("geobem-time", [&] { return run(argc, argv); });
}
