// geobem-time: reads geobem-laplace's manifest and Laplace-domain solutions,
// applies a load history to each load case, transforms back to time (the
// inverse CQ transform, FFTW) and writes a .pvd series of .vtu (point
// `displacement` in m, cell `traction` in Pa) and a probe CSV over a time
// window, with the run's effective options, as one output set
// (docs/stage_contract.md). Receivers in the solid get their displacement by
// the representation formula per CQ frequency (gpu/bem/receiver_field.hpp,
// CPU or CUDA), then the same transform: a CSV and a .vtp point set per
// written step, the second part of the .pvd. Without receivers it is cheap
// next to geobem-laplace: rerun it for other histories, windows or probes.
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkCellArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSMPTools.h>
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
#include "gpu/bem/receiver_field.hpp"
#include "gpu/bem/rod_closed_form.hpp"
#include "gpu/core/atomic_file.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/core/seconds_since.hpp"
#include "mesh/io/memory_budget.hpp"
#include "mesh/io/npy_file.hpp"
#include "mesh/io/number_text.hpp"
#include "mesh/io/output_set.hpp"
#include "mesh/io/vtk_output.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"
#include "stages/cq_stage/cq_problem.hpp"
#include "stages/cq_stage/laplace_manifest.hpp"
#include "stages/time/cavity_problem.hpp"
#include "stages/time/probes.hpp"
#include "stages/time/receivers.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::cq_stage;

namespace {

/// What geobem-time does, the head of its --help.
const char* const kSummary =
    "Apply load histories to geobem-laplace's Laplace-domain solutions, transform back to time, write a .pvd "
    "time series, a probe CSV and the displacement at receivers in the solid.";

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

/// The receivers as a VTK point set (a vertex per point) with point
/// `displacement` (m) of one time step, filled per step.
struct ReceiverCloud {
  vtkSmartPointer<vtkPolyData> points;
  vtkSmartPointer<vtkDoubleArray> displacement, time_value;
  explicit ReceiverCloud(const std::vector<Receiver>& receivers)
      : points(vtkSmartPointer<vtkPolyData>::New()),
        displacement(vtkSmartPointer<vtkDoubleArray>::New()),
        time_value(vtkSmartPointer<vtkDoubleArray>::New()) {
    auto coordinates = vtkSmartPointer<vtkPoints>::New();
    coordinates->SetDataTypeToDouble();
    auto vertices = vtkSmartPointer<vtkCellArray>::New();
    for (const Receiver& receiver : receivers) {
      const vtkIdType id = coordinates->InsertNextPoint(receiver.point.x, receiver.point.y, receiver.point.z);
      vertices->InsertNextCell(1, &id);
    }
    points->SetPoints(coordinates);
    points->SetVerts(vertices);
    add_units_field_data(points, {{"coordinates", "m"}, {"displacement", "m"}, {"TimeValue", "s"}});
    displacement->SetName("displacement");
    displacement->SetNumberOfComponents(3);
    displacement->SetNumberOfTuples(static_cast<vtkIdType>(receivers.size()));
    points->GetPointData()->AddArray(displacement);
    time_value->SetName("TimeValue");
    time_value->SetNumberOfTuples(1);
    points->GetFieldData()->AddArray(time_value);
  }
};

/// Receivers' displacement over time: `series[n·3R + 3r + i]`, component i
/// of receiver r at step n (m), empty without receivers.
struct ReceiverSeries {
  std::vector<Receiver> receivers;
  std::vector<double> series;
  const double* at(int step, std::size_t receiver) const {
    return series.data() + static_cast<std::size_t>(step) * 3 * receivers.size() + 3 * receiver;
  }
};

/// The name ParaView shows for the surface's block of solution.pvd: the name
/// of its boundary group where it has one (the cavity's `wall`), else
/// `surface` (the rod's six faces).
std::string surface_part_name(const surface::SurfaceMesh& mesh) {
  return mesh.group_names.size() == 1 && !mesh.group_names[0].empty() ? mesh.group_names[0] : "surface";
}

/// Writes solution/step_NNNNN.vtu for the given steps (the mesh with point
/// `displacement`, m, and cell `traction`, Pa: unknown on fixed elements,
/// prescribed amplitude × its case's load history elsewhere), with receivers
/// receivers/step_NNNNN.vtp (their point `displacement`, m), and then
/// solution.pvd listing them (the surface part 0, the receivers part 1,
/// named as surface_part_name and `receivers`), into the output set. The steps are written by all CPU threads at once:
/// compressing hundreds of VTK files is most of this stage's time.
void write_time_series(const OutputSet& outputs, const surface::SurfaceMesh& mesh, const bem::BemModel& model,
                       const bem::CqSettings& cq, const std::vector<std::vector<double>>& histories,
                       const std::vector<double>& unknowns, const std::vector<int>& steps,
                       const ReceiverSeries& receivers) {
  const std::size_t n = model.unknown_count();
  const bool with_receivers = !receivers.receivers.empty();
  fs::create_directories(outputs.path("solution"));
  if (with_receivers) fs::create_directories(outputs.path("receivers"));
  std::vector<PvdDataSet> series(steps.size()), receiver_series(with_receivers ? steps.size() : 0);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    char name[64];
    std::snprintf(name, sizeof name, "solution/step_%05d.vtu", steps[k]);
    series[k] = {steps[k] * cq.time_step, name, 0, surface_part_name(mesh)};
    if (!with_receivers) continue;
    std::snprintf(name, sizeof name, "receivers/step_%05d.vtp", steps[k]);
    receiver_series[k] = {steps[k] * cq.time_step, name, 1, "receivers"};
  }
  std::exception_ptr failure;
  {  // VTK's object factories initialised once, before the threads
    const StepGrid warm_up(mesh);
    const ReceiverCloud warm_up_receivers(receivers.receivers);
  }
  // VTK's own threads (vtkSMPTools, TBB in Debian's VTK) are held to one per
  // file while the files are written side by side: otherwise each writer's
  // range computations ask the whole machine's pool, whose workers spin.
  vtkSMPTools::LocalScope(vtkSMPTools::Config{1, "Sequential", false}, [&] {
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
        step_grid.time_value->SetValue(0, series[k].time);
        write_vtk_xml(step_grid.grid, outputs.path(series[k].file));
        if (with_receivers) {
          ReceiverCloud cloud(receivers.receivers);
          for (std::size_t r = 0; r < receivers.receivers.size(); ++r)
            for (int c = 0; c < 3; ++c) cloud.displacement->SetComponent(r, c, receivers.at(step, r)[c]);
          cloud.time_value->SetValue(0, receiver_series[k].time);
          write_vtk_xml(cloud.points, outputs.path(receiver_series[k].file));
        }
      } catch (...) {
#pragma omp critical(geobem_time_failure)
        if (!failure) failure = std::current_exception();
      }
    }
  });
  if (failure) std::rethrow_exception(failure);
  std::vector<PvdDataSet> data_sets;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    data_sets.push_back(series[k]);
    if (with_receivers) data_sets.push_back(receiver_series[k]);
  }
  write_pvd_collection(outputs.path("solution.pvd"), data_sets);
}


/// The receivers' displacement over time: the representation formula per CQ
/// frequency (receiver_laplace, on `device`) in chunks of receivers, with
/// progress and ETA on stderr unless `quiet`, then the load histories and
/// the inverse transform of the boundary's unknowns (cq_time_series).
/// `Solution`: the fundamental solution of the manifest.
template <class Solution>
ReceiverSeries receiver_time_series(const bem::BemModel& model, std::vector<Receiver> receivers,
                                    const bem::CqSettings& cq, const bem::LaplaceSolution& boundary,
                                    const std::vector<std::vector<double>>& histories, ComputeDevice device,
                                    bool quiet) {
  ReceiverSeries out;
  out.receivers = std::move(receivers);
  const std::size_t count = out.receivers.size();
  if (count == 0) return out;
  bem::LaplaceSolution field = bem::zero_receiver_field(count, boundary);
  // About 50 chunks for the progress lines; on the GPU at least 256
  // receivers a launch, so that the blocks (receiver × frequency) fill it.
  const std::size_t chunk = std::max<std::size_t>(device == ComputeDevice::Cuda ? 256 : 1, (count + 49) / 50);
  ProgressReporter progress("geobem-time: receivers", count, "receivers", quiet);
  for (std::size_t first = 0; first < count; first += chunk) {
    const std::size_t size = std::min(chunk, count - first);
    std::vector<bem::Vec3> points(size);
    for (std::size_t r = 0; r < size; ++r) points[r] = out.receivers[first + r].point;
    const bem::LaplaceSolution part = bem::receiver_laplace<Solution>(model, points, cq, boundary, {device, true});
    for (int c = 0; c < field.load_cases; ++c)
      for (std::size_t k = 0; k < field.frequencies.size(); ++k)
        std::copy_n(&part.at(c, static_cast<int>(k), 0), 3 * size,
                    &field.at(c, static_cast<int>(k), static_cast<int>(3 * first)));
    progress.advance(size);
  }
  progress.finish();
  out.series = bem::cq_time_series(field, histories, cq);
  return out;
}

/// The closed forms geobem-time writes beside the BEM's values (--closed-form).
struct ClosedForm {
  std::optional<bem::RodProblem> rod;
  std::optional<CavityProblem> cavity;
};

/// ",VALUE" as the CSVs write numbers (shortest_text: round trip exact).
void put(std::ostream& csv, double value) { csv << ',' << shortest(value); }

/// Writes the probe CSV: the header line `time`, probeK_u_x/y/z per probe,
/// then `closed_form` for the rod, `wall_u_r,wall_u_r_closed_form` for the
/// cavity; one row per step.
void write_probe_csv(const fs::path& path, const bem::BemModel& model, const LaplaceManifest& manifest,
                     const std::vector<double>& unknowns, const std::vector<Probe>& probes,
                     const std::vector<int>& steps, const ClosedForm& closed) {
  write_text_file_atomically(path, [&](std::ostream& csv) {
    csv << "time";
    for (std::size_t k = 0; k < probes.size(); ++k)
      csv << ",probe" << k << "_u_x,probe" << k << "_u_y,probe" << k << "_u_z";
    if (closed.rod) csv << ",closed_form";
    if (closed.cavity) csv << ",wall_u_r,wall_u_r_closed_form";
    csv << "\n";
    for (int step : steps) {
      const double t = step * manifest.cq.time_step;
      csv << shortest(t);
      for (const Probe& probe : probes)
        for (double u : probe_displacement(model, unknowns, step, probe)) put(csv, u);
      if (closed.rod)
        put(csv, bem::rod_free_end_displacement(t, closed.rod->pressure, manifest.young_modulus, manifest.density,
                                                closed.rod->length));
      if (closed.cavity) {
        put(csv, wall_mean_radial_displacement(model, *closed.cavity, unknowns, step));
        put(csv, bem::cavity_radial_displacement(closed.cavity->cavity, closed.cavity->cavity.radius, t));
      }
      csv << "\n";
    }
  });
}

/// Writes the receiver CSV: the header line `time`, receiverK_u_x/y/z per
/// receiver (with the cavity's closed form also receiverK_u_r and
/// receiverK_u_r_closed_form); one row per step.
void write_receiver_csv(const fs::path& path, const bem::CqSettings& cq, const ReceiverSeries& receivers,
                        const std::vector<int>& steps, const ClosedForm& closed) {
  write_text_file_atomically(path, [&](std::ostream& csv) {
    csv << "time";
    for (std::size_t r = 0; r < receivers.receivers.size(); ++r) {
      csv << ",receiver" << r << "_u_x,receiver" << r << "_u_y,receiver" << r << "_u_z";
      if (closed.cavity) csv << ",receiver" << r << "_u_r,receiver" << r << "_u_r_closed_form";
    }
    csv << "\n";
    for (int step : steps) {
      const double t = step * cq.time_step;
      csv << shortest(t);
      for (std::size_t r = 0; r < receivers.receivers.size(); ++r) {
        const double* u = receivers.at(step, r);
        for (int c = 0; c < 3; ++c) put(csv, u[c]);
        if (!closed.cavity) continue;
        const bem::Vec3 x = receivers.receivers[r].point;
        put(csv, closed.cavity->radial(x, u));
        put(csv, bem::cavity_radial_displacement(closed.cavity->cavity, norm(x - closed.cavity->centre), t));
      }
      csv << "\n";
    }
  });
}

/// Writes receiver_points.csv: `receiver,x,y,z` (m), one row per receiver.
void write_receiver_points(const fs::path& path, const std::vector<Receiver>& receivers) {
  write_text_file_atomically(path, [&](std::ostream& csv) {
    csv << "receiver,x,y,z\n";
    for (std::size_t r = 0; r < receivers.size(); ++r) {
      csv << r;
      for (int c = 0; c < 3; ++c) put(csv, receivers[r].point[c]);
      csv << "\n";
    }
  });
}

/// What each probe, receiver and column is, beside the CSVs (probes.txt), so
/// that the CSVs start with their header.
void write_notes(const fs::path& path, const fs::path& manifest_path, const std::vector<Probe>& probes,
                 const std::vector<Receiver>& receivers, const std::vector<std::string>& history_texts,
                 const std::vector<std::string>& case_groups, const ClosedForm& closed,
                 const LaplaceManifest& manifest) {
  write_text_file_atomically(path, [&](std::ostream& out) {
    out << "geobem-time: displacement (m) over time (s) from " << manifest_path.string() << "\n";
    for (std::size_t k = 0; k < case_groups.size(); ++k)
      out << "load case " << k << " (group " << case_groups[k] << "): history " << history_texts[k] << "\n";
    for (std::size_t k = 0; k < probes.size(); ++k) out << "probe" << k << ": " << probes[k].description << "\n";
    for (std::size_t r = 0; r < receivers.size(); ++r)
      out << "receiver" << r << ": (" << receivers[r].point.x << ", " << receivers[r].point.y << ", "
          << receivers[r].point.z << ") m, from " << receivers[r].source << "\n";
    if (closed.rod)
      out << "closed_form: the 1D rod's free-end displacement along the load, p = " << closed.rod->pressure
          << " Pa, l = " << closed.rod->length << " m, E = " << manifest.young_modulus
          << " Pa, rho = " << manifest.density << " kg/m^3\n";
    if (closed.cavity) {
      const bem::SphericalCavity& c = closed.cavity->cavity;
      const bem::Vec3 centre = closed.cavity->centre;
      out << "wall_u_r: mean radial displacement of the wall's nodes; *_u_r_closed_form: Sharpe's pressurized "
             "spherical cavity, centre ("
          << centre.x << ", " << centre.y << ", " << centre.z << ") m, a = " << c.radius << " m, p = " << c.pressure
          << " Pa, mu = " << c.shear_modulus << " Pa, nu = " << c.poisson_ratio << ", rho = " << c.density
          << " kg/m^3, c_P = " << c.p_wave_speed() << " m/s; u_r radial from the centre\n";
    }
  });
}

struct TimeOptions {
  std::string laplace, out, device = "auto";
  std::optional<std::string> mesh, time_window, closed_form, receivers;
  std::vector<std::string> load_history, probe, probe_group, receiver_line, receiver_grid;
  int every = 1;
};

/// The command line of geobem-time, bound to `o`.
void declare_options(cli::StageOptions& command, TimeOptions& o) {
  command.add()
    ("laplace", po::value(&o.laplace)->required(), "output folder of geobem-laplace (manifest.ini, laplace_caseK.npy)")
    ("mesh", cli::optional_value(&o.mesh), "the surface mesh (default: the one the manifest names); must be the "
                                           "same file content")
    ("load-history", po::value(&o.load_history)->composing(),
     "[GROUP=]HISTORY, the time factor of a load case's traction or pressure (without GROUP: every case without "
     "its own); default heaviside; repeatable. HISTORY: heaviside | ramp:T (linear rise to 1 over T s) | "
     "ricker:FC[:DELAY] (Ricker wavelet, central frequency FC Hz, peak at DELAY s, default 1.5/FC) | "
     "friedlander:TD:B (blast pulse (1 - t/TD) exp(-B t/TD): positive phase TD s, decay B) | csv:FILE "
     "(columns time,value: linear between rows, 0 before the first, the last value after the last)")
    ("time-window", cli::optional_value(&o.time_window), "T0,T1 (s): write only the steps with T0 <= t <= T1 "
                                                         "(default: all)")
    ("probe", po::value(&o.probe)->composing(), "X,Y,Z (m): displacement of the nearest mesh node over time; "
                                                "repeatable")
    ("probe-group", po::value(&o.probe_group)->composing(),
     "NAME: area-weighted mean displacement over a boundary group; repeatable")
    ("receivers", cli::optional_value(&o.receivers),
     "FILE.csv with columns x,y,z (m): receivers inside the solid, their displacement by the representation "
     "formula (receivers.csv, receivers/step_NNNNN.vtp)")
    ("receiver-line", po::value(&o.receiver_line)->composing(),
     "X0,Y0,Z0:X1,Y1,Z1:N: N receivers equally spaced from the first point to the second, both included; "
     "repeatable")
    ("receiver-grid", po::value(&o.receiver_grid)->composing(),
     "X0,Y0,Z0:X1,Y1,Z1:NX,NY,NZ: a box grid of receivers between two corners, x fastest (a count of 1 puts "
     "that layer at the first corner); repeatable")
    ("closed-form", cli::optional_value(&o.closed_form),
     "rod: column closed_form, the rod benchmark's free-end displacement along the load; cavity: Sharpe's "
     "pressurized spherical cavity, columns wall_u_r and wall_u_r_closed_form in probes.csv, receiverK_u_r and "
     "receiverK_u_r_closed_form in receivers.csv (heaviside history); none: no closed form (overrides a --config "
     "file's)")
    ("every", po::value(&o.every)->default_value(o.every), "write every K-th step of the window to the .pvd series "
                                                           "(probes and receivers CSV: all)");
  command.add_device(&o.device);
  command.add_out_folder(&o.out, "solution.pvd, solution/step_NNNNN.vtu, probes.csv, probes.txt, with receivers "
                                 "receivers.csv, receiver_points.csv and receivers/step_NNNNN.vtp, geobem-time.ini");
  for (const char* path : {"laplace", "mesh", "receivers"}) command.mark_path(path);
  command.mark_path("load-history", load_history_file_start);
}

/// Refuses an option value out of its range, before any work.
void check_options(const TimeOptions& o) {
  if (o.every < 1) throw InputError::usage("--every must be at least 1");
  if (o.closed_form && *o.closed_form != "rod" && *o.closed_form != "cavity" && *o.closed_form != "none")
    throw InputError::usage("--closed-form '" + *o.closed_form + "': expected rod, cavity or none");
}

/// The receivers of the options, in order: the CSV file's, each line's, each grid's.
std::vector<Receiver> option_receivers(const TimeOptions& o) {
  std::vector<Receiver> receivers;
  if (o.receivers) receivers = read_receiver_csv(*o.receivers);
  for (const auto& text : o.receiver_line) {
    std::vector<Receiver> line = receiver_line(text);
    require_receiver_count(receivers.size(), line.size(), "--receiver-line '" + text + "'");
    for (Receiver& receiver : line) receivers.push_back(std::move(receiver));
  }
  for (const auto& text : o.receiver_grid) {
    std::vector<Receiver> grid = receiver_grid(text);
    require_receiver_count(receivers.size(), grid.size(), "--receiver-grid '" + text + "'");
    for (Receiver& receiver : grid) receivers.push_back(std::move(receiver));
  }
  return receivers;
}

/// --time-window as [first, last] (s); all times without it.
std::pair<double, double> time_window(const TimeOptions& o) {
  if (!o.time_window) return {-1e300, 1e300};
  const auto window = cli::parse_number_list("time-window", *o.time_window, 2, "T0,T1");
  if (!(window[0] <= window[1])) throw InputError::usage("--time-window: T0 must not exceed T1");
  return {window[0], window[1]};
}

/// Refuses a run whose solutions and time series (N + 1 steps x n doubles),
/// with receivers their Laplace-domain field and time series, exceed the
/// memory, before anything of their size (the load histories too) is allocated.
void require_run_memory(const LaplaceManifest& manifest, const fs::path& manifest_path, std::size_t receiver_count) {
  const int cases = int(manifest.load_case_groups.size());
  const std::uint64_t receiver_values = 3 * std::uint64_t(receiver_count);
  const std::uint64_t solution_bytes = solution_memory_bytes(manifest.unknowns, manifest.frequencies, cases);
  const std::uint64_t receiver_field_bytes =
      receiver_values > INT32_MAX ? UINT64_MAX : solution_memory_bytes(int(receiver_values), manifest.frequencies, cases);
  std::uint64_t series_bytes = 0;
  const bool representable =
      solution_bytes != UINT64_MAX && receiver_field_bytes != UINT64_MAX &&
      multiply_checked(8 * (std::uint64_t(manifest.unknowns) + receiver_values), std::uint64_t(manifest.cq.steps) + 1,
                       series_bytes) &&
      series_bytes <= UINT64_MAX - solution_bytes - receiver_field_bytes;
  require_memory(representable ? solution_bytes + receiver_field_bytes + series_bytes : UINT64_MAX,
                 available_memory_bytes(),
                 manifest_path.string() + ": holding its solutions and their time series" +
                     (receiver_count == 0 ? std::string() : " with " + std::to_string(receiver_count) + " receivers"));
}

/// The mesh the manifest was solved for, refused when its CRC-32 or its
/// counts differ from the manifest's.
surface::SurfaceMesh solved_mesh(const fs::path& mesh_path, const LaplaceManifest& manifest,
                                 const fs::path& manifest_path) {
  surface::SurfaceMesh mesh = surface::read_vtk_surface(mesh_path);
  const std::uint32_t crc = file_crc32(mesh_path);
  if (crc != manifest.mesh_crc32 || mesh.nodes.size() != manifest.nodes || mesh.triangles.size() != manifest.triangles)
    throw std::runtime_error(mesh_path.string() + ": not the mesh " + manifest_path.string() + " was solved for (" +
                             std::to_string(mesh.triangles.size()) + " triangles, CRC-32 " + std::to_string(crc) +
                             "; the manifest has " + std::to_string(manifest.triangles) + " triangles, CRC-32 " +
                             std::to_string(manifest.mesh_crc32) + "): rerun geobem-laplace");
  return mesh;
}

/// The BEM model of the manifest's conditions and material on the mesh,
/// refused when its unknowns or load cases differ from the manifest's.
bem::BemModel solved_model(const bem::SurfaceView& surface_view, const LaplaceManifest& manifest,
                           const fs::path& manifest_path) {
  // A property of the manifest: exit 1.
  bem::BemModel model = with_origin(InputKind::data, manifest_path.string(), [&] {
    return bem::make_bem_model(surface_view, parse_conditions(manifest.conditions),
                               checked_material(manifest.young_modulus, manifest.poisson_ratio, manifest.density));
  });
  if (model.unknown_count() != manifest.unknowns || model.load_case_groups != manifest.load_case_groups)
    throw std::runtime_error(manifest_path.string() + ": " + std::to_string(manifest.unknowns) + " unknowns and " +
                             "load cases " + join(manifest.load_case_groups, ',') +
                             ", but the mesh and conditions give " + std::to_string(model.unknown_count()) + " and " +
                             join(model.load_case_groups, ','));
  return model;
}

/// The probes of the options: --probe's nearest nodes, then --probe-group's means.
std::vector<Probe> option_probes(const TimeOptions& o, const bem::BemModel& model) {
  std::vector<Probe> probes;
  for (const auto& text : o.probe) {
    const auto p = cli::parse_number_list("probe", text, 3, "X,Y,Z");
    probes.push_back(nearest_node_probe(model, {p[0], p[1], p[2]}));
  }
  for (const auto& name : o.probe_group)
    probes.push_back(with_origin(InputKind::usage, "", [&] { return group_mean_probe(model, name); }));
  return probes;
}

/// The closed form of --closed-form (rod or cavity), which needs one load
/// case with the heaviside history; none without the option or with
/// --closed-form none.
ClosedForm option_closed_form(const TimeOptions& o, const cli::StageOptions& command,
                              const std::vector<std::string>& history_texts, const LaplaceManifest& manifest,
                              const bem::BemModel& model) {
  ClosedForm closed;
  if (!o.closed_form || *o.closed_form == "none") return closed;
  if (history_texts.size() != 1 || history_texts[0] != "heaviside")
    throw InputError::usage("--closed-form " + *o.closed_form + " (from " + command.origin("closed-form") +
                            ") needs one load case with the heaviside load history, not " + join(history_texts, ',') +
                            ": give --closed-form none with other histories");
  with_origin(InputKind::usage, "", [&] {
    if (*o.closed_form == "rod") {
      if (manifest.poisson_ratio != 0.0)
        std::fprintf(stderr, "geobem-time: warning: the rod's closed form is exact for nu = 0 only (nu = %g)\n",
                     manifest.poisson_ratio);
      closed.rod = bem::rod_problem_of(model);
    } else {
      closed.cavity = cavity_problem_of(model);
    }
  });
  return closed;
}

/// The Laplace-domain solutions of every load case, read and checked
/// against the manifest's CRC-32s.
bem::LaplaceSolution read_solution(const fs::path& laplace, const LaplaceManifest& manifest) {
  bem::LaplaceSolution solution;
  solution.unknowns = manifest.unknowns;
  solution.load_cases = int(manifest.load_case_groups.size());
  solution.frequencies.resize(manifest.frequencies);
  for (int l = 0; l < manifest.frequencies; ++l) solution.frequencies[l] = l;
  solution.values.resize(static_cast<std::size_t>(solution.load_cases) * manifest.frequencies * manifest.unknowns);
  for (int k = 0; k < solution.load_cases; ++k)
    read_npy_complex(laplace / solution_file_name(k), manifest.unknowns, manifest.frequencies,
                     manifest.solution_crc32[k],
                     {{reinterpret_cast<std::complex<double>*>(&solution.at(k, 0, 0)),
                       static_cast<std::size_t>(manifest.unknowns) * manifest.frequencies}});
  return solution;
}

/// Seconds each phase of a run took, for users timing their runs.
struct PhaseSeconds {
  double read = 0, transform = 0, receivers = 0, step_files = 0, tables = 0, total = 0;
};

int run(const TimeOptions& o, const cli::StageOptions& command) {
  check_options(o);
  const auto [first_time, last_time] = time_window(o);
  std::vector<Receiver> receivers = option_receivers(o);
  // The device matters only to receivers: without them nothing is asked of a GPU.
  const DeviceChoice device_choice = parse_device_choice(o.device);
  const ComputeDevice device = receivers.empty() ? ComputeDevice::Cpu : resolve_device(device_choice);
  const auto started = std::chrono::steady_clock::now();
  OutputSet outputs(o.out, "geobem-time");

  // Read and check everything before computing or writing.
  const fs::path laplace = o.laplace, manifest_path = laplace / "manifest.ini";
  if (!fs::exists(manifest_path))
    throw std::runtime_error(manifest_path.string() + ": missing: run geobem-laplace first");
  const LaplaceManifest manifest = read_laplace_manifest(manifest_path);
  require_run_memory(manifest, manifest_path, receivers.size());
  const fs::path mesh_path = o.mesh ? fs::path(*o.mesh) : manifest.mesh_file;
  const surface::SurfaceMesh mesh = solved_mesh(mesh_path, manifest, manifest_path);
  const bem::SurfaceView surface_view = checked_bem_surface(mesh, mesh_path.string());
  const bem::BemModel model = solved_model(surface_view, manifest, manifest_path);
  const std::vector<std::string> history_texts = load_history_texts(o.load_history, model.load_case_groups);
  std::vector<std::vector<double>> histories;
  for (const auto& text : history_texts) histories.push_back(load_history_values(text, manifest.cq));
  ReceiversInSolid in_solid = receivers_in_solid(mesh, model.unbounded_solid, receivers);
  if (in_solid.left_out > 0 && !command.quiet())
    std::fprintf(stderr, "geobem-time: %zu of %zu receivers of --receiver-line/--receiver-grid lie outside the elastic "
                         "solid or nearer its surface than the receiver quadrature resolves, and are left out (the "
                         "first: %s)\n",
                 in_solid.left_out, receivers.size(), in_solid.first_left_out.c_str());
  receivers = std::move(in_solid.receivers);
  const std::vector<Probe> probes = option_probes(o, model);
  const ClosedForm closed = option_closed_form(o, command, history_texts, manifest, model);
  const std::vector<int> steps = window_steps(manifest.cq, first_time, last_time, o.every);
  if (steps.empty())
    throw InputError::usage("--time-window holds no step (t = 0 to " + std::to_string(manifest.cq.steps * manifest.cq.time_step) +
                            " s in steps of " + std::to_string(manifest.cq.time_step) + " s)");
  const bem::LaplaceSolution solution = read_solution(laplace, manifest);

  PhaseSeconds seconds;
  seconds.read = seconds_since(started);
  const auto transforming = std::chrono::steady_clock::now();
  const std::vector<double> unknowns = bem::cq_time_series(solution, histories, manifest.cq);
  seconds.transform = seconds_since(transforming);
  const auto receiving = std::chrono::steady_clock::now();
  if (!command.quiet() && !receivers.empty())
    std::fprintf(stderr, "geobem-time: %zu receivers x %d frequencies x %zu elements on %s\n", receivers.size(),
                 manifest.frequencies, mesh.triangles.size(), to_string(device).c_str());
  const ReceiverSeries receiver_series =
      bem::with_fundamental_solution(manifest.fundamental_solution, [&](auto solution_type) {
        return receiver_time_series<decltype(solution_type)>(model, std::move(receivers), manifest.cq, solution,
                                                             histories, device, command.quiet());
      });
  seconds.receivers = seconds_since(receiving);

  const auto writing = std::chrono::steady_clock::now();
  const std::vector<int> all_steps = window_steps(manifest.cq, first_time, last_time, 1);
  write_time_series(outputs, mesh, model, manifest.cq, histories, unknowns, steps, receiver_series);
  seconds.step_files = seconds_since(writing);
  const auto writing_tables = std::chrono::steady_clock::now();
  write_probe_csv(outputs.path("probes.csv"), model, manifest, unknowns, probes, all_steps, closed);
  if (!receiver_series.receivers.empty()) {
    write_receiver_csv(outputs.path("receivers.csv"), manifest.cq, receiver_series, all_steps, closed);
    write_receiver_points(outputs.path("receiver_points.csv"), receiver_series.receivers);
  }
  write_notes(outputs.path("probes.txt"), fs::absolute(manifest_path), probes, receiver_series.receivers,
              history_texts, model.load_case_groups, closed, manifest);
  outputs.write_record(command.record(outputs.destination()) +
                       (receiver_series.receivers.empty() ? std::string() : "# receivers on " + to_string(device) + "\n"));
  outputs.commit();
  if (!command.quiet()) {
    seconds.tables = seconds_since(writing_tables);
    seconds.total = seconds_since(started);
    std::fprintf(stderr, "geobem-time: wrote %s (%zu steps) and probes.csv%s in %.3f s\n",
                 (outputs.destination() / "solution.pvd").c_str(), steps.size(),
                 receiver_series.receivers.empty() ? "" : ", receivers.csv", seconds.total);
    // Where the time went, for users timing their runs.
    std::fprintf(stderr,
                 "geobem-time: read and checked %.3f s, transform %.3f s, receivers %.3f s, steps (.vtu) %.3f s, "
                 "tables %.3f s\n",
                 seconds.read, seconds.transform, seconds.receivers, seconds.step_files, seconds.tables);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_stage("geobem-time", kSummary, declare_options, argc, argv, run);
}
