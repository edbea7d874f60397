// geobem-laplace and geobem-time as a user runs them: the results against the
// library (solve_laplace, cq_time_series) and the rod's closed form
// (gpu/bem/rod_closed_form.hpp), reruns of the time stage with other load
// histories and windows, the dense-system export, the output folder replaced
// as a unit, and bad input (message, exit status, nothing written).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numeric>
#include <cstdio>
#include <fstream>
#include <ostream>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/rod_closed_form.hpp"
#include "mesh/io/npy_file.hpp"
#include "stages/cq_stage/laplace_manifest.hpp"
#include "tests/stages_bem/bem_stage_support.hpp"

namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::test;

namespace {

/// Area-weighted mean x_max displacement of time-domain unknowns, computed
/// here from the model (not through the stage's probe code).
std::vector<double> x_max_mean(const bem::BemModel& model, const std::vector<double>& unknowns, int steps) {
  const int group = 1;  // generate_box_surface: x_min, x_max, ...
  std::vector<double> means;
  const std::size_t n = model.unknown_count();
  for (int step = 0; step <= steps; ++step) {
    double sum = 0, area = 0;
    for (std::size_t e = 0; e < model.areas.size(); ++e) {
      if (model.group_of_element[e] != group) continue;
      for (int k = 0; k < 3; ++k) {
        const int block = model.node_block[model.triangles[3 * e + k]];
        sum += model.areas[e] / 3.0 * unknowns[step * n + 3 * block];
      }
      area += model.areas[e];
    }
    means.push_back(sum / area);
  }
  return means;
}

/// The 12-triangle rod through geobem-laplace (β = 0.3, 20 steps), once for the tests below.
struct SmallRod {
  fs::path mesh = write_rod_mesh("rod12.vtu", 5.0), out = scratch("laplace12");
  bem::BemModel model = rod_model(5.0);
  bem::CqSettings settings;
  bem::LaplaceSolution library;
  SmallRod() {
    const auto run = laplace(mesh, out, "--device cpu --beta 0.3 --steps 20");
    EXPECT_EQ(run.exit_code, 0) << run.errors;
    settings = {20, bem::cq_time_step_from_beta(0.3, model.smallest_element_size(), model.material.p_wave_speed),
                1e-10};
    bem::CqTimings timings;
    library = bem::solve_laplace(model, settings, {}, {ComputeDevice::Cpu, true}, timings);
  }
};

const SmallRod& small_rod() {
  static const SmallRod rod;
  return rod;
}

TEST(CqStages, LaplaceFilesHoldTheLibrarySolution) {
  const SmallRod& rod = small_rod();
  const std::string manifest = read_text(rod.out / "manifest.ini");
  EXPECT_NE(manifest.find("frequencies = 11"), std::string::npos) << manifest;
  EXPECT_NE(manifest.find("case0_group = x_max"), std::string::npos) << manifest;
  EXPECT_FALSE(fs::exists(rod.out / "systems"));  // dense systems only on request
  const int n = rod.model.unknown_count(), frequencies = 11;
  std::vector<std::complex<double>> values(static_cast<std::size_t>(n) * frequencies);
  const std::uint32_t crc = file_crc32(rod.out / "laplace_case0.npy");
  read_npy_complex(rod.out / "laplace_case0.npy", n, frequencies, crc, {{values.data(), values.size()}});
  double diff = 0, scale = 0;
  for (int l = 0; l < frequencies; ++l)
    for (int i = 0; i < n; ++i) {
      const bem::Complex expected = rod.library.at(0, l, i);
      diff = std::max(diff, std::abs(values[l * n + i] - std::complex<double>(expected.re, expected.im)));
      scale = std::max(scale, abs(expected));
    }
  EXPECT_LT(diff, 1e-13 * scale);
}

TEST(CqStages, HierarchicalSolverRecordsItsStepsAndTheTimeStageReadsIt) {
  // The 112-triangle rod by the hierarchical solver: its solution within 10 ε
  // (scaled unknowns) of the library's dense one, the manifest's [solver]
  // section with a step count per frequency, and geobem-time reading it.
  const fs::path mesh = write_rod_mesh("rod112_hierarchical.vtu", rod_h112), out = scratch("laplace112_hierarchical");
  const auto run = run_command(laplace_exe + " --mesh " + mesh.string() + " --out " + out.string() + rod_conditions +
                               " --device cpu --beta 0.3 --steps 20 --solver hierarchical --compression-tolerance 1e-9");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("hierarchical solver, planned per frequency: near field"), std::string::npos) << run.errors;
  EXPECT_NE(run.errors.find("GMRES steps per frequency"), std::string::npos) << run.errors;
  const cq_stage::LaplaceManifest manifest = cq_stage::read_laplace_manifest(out / "manifest.ini");
  EXPECT_EQ(manifest.solver, "hierarchical");
  EXPECT_EQ(manifest.compression_tolerance, 1e-9);
  ASSERT_EQ(manifest.solves.size(), 11u);
  for (const bem::FrequencySolve& solve : manifest.solves) {
    EXPECT_GE(solve.iterations, 1);
    EXPECT_LE(solve.residual, 1e-9);
    EXPECT_LE(solve.compression_error, 1e-9);
  }
  const bem::BemModel model = rod_model(rod_h112);
  const int n = model.unknown_count(), displacements = 3 * static_cast<int>(model.free_nodes.size());
  std::vector<std::complex<double>> values(static_cast<std::size_t>(n) * 11);
  read_npy_complex(out / "laplace_case0.npy", n, 11, file_crc32(out / "laplace_case0.npy"),
                   {{values.data(), values.size()}});
  bem::CqTimings timings;
  const bem::LaplaceSolution dense =
      bem::solve_laplace(model, manifest.cq, {}, {ComputeDevice::Cpu, true}, timings);
  const double w = model.material.shear_modulus /
                   (std::accumulate(model.longest_edges.begin(), model.longest_edges.end(), 0.0) / model.areas.size());
  for (int l = 0; l < 11; ++l) {
    double difference = 0, norm = 0;
    for (int i = 0; i < n; ++i) {
      const double scale = i < displacements ? 1.0 : 1.0 / w;
      const std::complex<double> reference(dense.at(0, l, i).re, dense.at(0, l, i).im);
      difference += std::norm(scale * (values[l * n + i] - reference));
      norm += std::norm(scale * reference);
    }
    EXPECT_LE(std::sqrt(difference / norm), 1e-8) << "frequency " << l;
  }
  const auto time = time_stage(out, scratch("time112_hierarchical"), "--probe-group x_max");
  EXPECT_EQ(time.exit_code, 0) << time.errors;
}

TEST(CqStages, TimeStageGivesTheLibraryTimeSeriesForEachHistoryAndWindow) {
  const SmallRod& rod = small_rod();
  const int steps = rod.settings.steps;
  const double dt = rod.settings.time_step;
  struct Case {
    std::string name, arguments;
    std::vector<double> history;  // f(nΔt) from the history's formula, written out here
  };
  std::vector<Case> cases;
  auto sampled = [&](auto f) {
    std::vector<double> values(steps + 1);
    for (int n = 0; n <= steps; ++n) values[n] = f(n * dt);
    return values;
  };
  auto text = [](const char* format, double a, double b = 0) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, format, a, b);
    return std::string(buffer);
  };
  cases.push_back({"heaviside", "--closed-form rod", sampled([](double) { return 1.0; })});
  const double rise = 5 * dt;
  cases.push_back({"ramp", text("--load-history x_max=ramp:%.17g", rise),
                   sampled([&](double t) { return std::min(t / rise, 1.0); })});
  // Ricker (1 − 2π²f²τ²) e^{−π²f²τ²}, τ = t − 1.5/f by default; f = 1/(8Δt).
  const double fc = 1 / (8 * dt), pi = 3.14159265358979323846;
  cases.push_back({"ricker", text("--load-history ricker:%.17g", fc), sampled([&](double t) {
                     const double x2 = pi * pi * fc * fc * (t - 1.5 / fc) * (t - 1.5 / fc);
                     return (1 - 2 * x2) * std::exp(-x2);
                   })});
  // Friedlander (1 − t/t_d) e^{−b t/t_d}, t_d = 7Δt, b = 1.5.
  const double td = 7 * dt;
  cases.push_back({"friedlander", text("--load-history friedlander:%.17g:1.5", td),
                   sampled([&](double t) { return (1 - t / td) * std::exp(-1.5 * t / td); })});
  // A tabulated history: 0 at t = 0, 1 at 4Δt, 0.5 from 10Δt on.
  const auto table = scratch("history12.csv");
  std::ofstream(table) << text("time,value\n0,0\n%.17g,1\n", 4 * dt) << text("%.17g,0.5\n", 10 * dt);
  cases.push_back({"csv", "--load-history csv:" + table.string(), sampled([&](double t) {
                     const double n = t / dt;
                     return n <= 4 ? n / 4 : (n <= 10 ? 1 - 0.5 * (n - 4) / 6 : 0.5);
                   })});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto out = scratch("time12_" + c.name);
    const auto run = time_stage(rod.out, out, "--probe-group x_max --probe 3,0.5,0.5 " + c.arguments);
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    const CsvTable probes = read_csv_table((out / "probes.csv").string());
    ASSERT_EQ(probes.rows.size(), static_cast<std::size_t>(steps + 1));
    const std::vector<double> unknowns = bem::cq_time_series(rod.library, {c.history}, rod.settings);
    EXPECT_LT(largest_relative_difference(column(probes, "probe1_u_x"), x_max_mean(rod.model, unknowns, steps)), 1e-12);
    if (c.name == "heaviside") {
      const auto time = column(probes, "time"), closed = column(probes, "closed_form");
      for (int step = 0; step <= steps; ++step)
        EXPECT_NEAR(closed[step],
                    bem::rod_free_end_displacement(time[step], rod_pressure, rod_young, rod_density, rod_length),
                    1e-12 * 2 * rod_pressure * rod_length / rod_young);
    }
  }
  // A time window and every 2nd step: the .pvd holds t in [T0, T1] only.
  const auto out = scratch("time12_window");
  char window[80];
  std::snprintf(window, sizeof window, "--time-window %.17g,%.17g --every 2", 4 * dt, 10 * dt);
  ASSERT_EQ(time_stage(rod.out, out, window).exit_code, 0);
  EXPECT_EQ(column(read_csv_table((out / "probes.csv").string()), "time").size(), 7u);  // steps 4..10
  EXPECT_TRUE(fs::exists(out / "solution" / "step_00004.vtu"));
  EXPECT_TRUE(fs::exists(out / "solution" / "step_00010.vtu"));
  EXPECT_FALSE(fs::exists(out / "solution" / "step_00005.vtu"));
  EXPECT_FALSE(fs::exists(out / "solution" / "step_00012.vtu"));
  // Rerun into the same folder with another window: nothing of the first run stays.
  ASSERT_EQ(time_stage(rod.out, out, "--every 20").exit_code, 0);
  EXPECT_TRUE(fs::exists(out / "solution" / "step_00020.vtu"));
  EXPECT_FALSE(fs::exists(out / "solution" / "step_00004.vtu"));
}

TEST(CqStages, DenseSystemsOnlyOnRequestAndRefusedWithTheirBytes) {
  const SmallRod& rod = small_rod();
  const auto out = scratch("laplace12_export"), refused = scratch("laplace12_refused");
  auto run = laplace(rod.mesh, out, "--device cpu --beta 0.3 --steps 4 --export-systems");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const int n = rod.model.unknown_count();
  std::vector<std::complex<double>> system(static_cast<std::size_t>(n) * (n + 1));
  const auto file = out / "systems" / "system_0002.npy";
  read_npy_complex(file, n, n + 1, file_crc32(file), {{system.data(), system.size()}});
  // Column n is the unit-load right-hand side; solving gives frequency 2's x̂ (checked by the library test).
  std::vector<bem::Complex> matrix, rhs;
  const bem::CqSettings settings{4, rod.settings.time_step, 1e-10};
  bem::assemble_system_cpu(rod.model, bem::rigid_body_sums_cpu(rod.model), bem::cq_laplace_point(settings, 2), matrix,
                           rhs);
  double diff = 0;
  for (int i = 0; i < n; ++i) diff = std::max(diff, std::abs(system[n * n + i] - std::complex<double>(rhs[i].re, rhs[i].im)));
  EXPECT_EQ(diff, 0.0);
  // 3 files of 128 + 16 n (n + 1) bytes, n = 18: 3 x 5600 = 16,800.
  run = laplace(rod.mesh, refused, "--device cpu --beta 0.3 --steps 4 --export-systems --max-disk-bytes 1000");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.errors.find("the dense systems need 16800 bytes"), std::string::npos) << run.errors;
  EXPECT_FALSE(fs::exists(refused / "manifest.ini"));
}

// ---- bad input: a message naming the problem, non-zero exit, nothing written.

// Arguments that start with "!" replace the rod conditions.
class LaplaceBad : public ::testing::TestWithParam<BadStageRun> {};

TEST_P(LaplaceBad, NamesTheProblemWritesNothing) {
  const BadStageRun& c = GetParam();
  auto mesh_data = rod_mesh(5.0);
  if (std::string(c.name) == "open_mesh") {
    mesh_data.triangles.pop_back();
    mesh_data.group_of_triangle.pop_back();
  }
  const auto mesh = scratch(std::string("bad_laplace_") + c.name + ".vtu");
  surface::write_surface_vtu(mesh_data, mesh);
  const auto out = scratch(std::string("bad_laplace_out_") + c.name);
  std::string arguments = c.arguments;
  const bool own_conditions = !arguments.empty() && arguments[0] == '!';
  const std::string command = laplace_exe + " --mesh " + mesh.string() + " --out " + out.string() + " --device cpu " +
                              (own_conditions ? arguments.substr(1) + rod_material : rod_conditions + " " + arguments);
  const auto run = run_command(command);
  EXPECT_TRUE(ended_as(run, c));
  EXPECT_FALSE(fs::exists(out));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LaplaceBad,
    ::testing::Values(
        BadStageRun{"missing_condition", "!--fixed x_min --free y_min,y_max,z_min --traction x_max=1:1,0,0 --beta 0.2 "
                    "--steps 4", 1, "group 'z_max' has no boundary condition"},
        BadStageRun{"unknown_group", "!--fixed x_min --free y_min,y_max,z_min,z_max,w_min --traction x_max=1:1,0,0 "
                    "--beta 0.2 --steps 4", 2,
                    "--free 'w_min': the mesh has no group 'w_min' (its groups: x_min,x_max,y_min,y_max,z_min,z_max)"},
        BadStageRun{"unknown_pressure_group", "!--fixed x_min --free y_min,y_max,z_min,z_max --pressure wall=1e6 "
                    "--traction x_max=1:1,0,0 --beta 0.2 --steps 4", 2,
                    "--pressure 'wall=1e6': the mesh has no group 'wall'"},
        BadStageRun{"bad_pressure", "!--fixed x_min --free y_min,y_max,z_min,z_max --pressure x_max=1e6Pa --beta 0.2 "
                    "--steps 4", 2, "--pressure 'x_max=1e6Pa': '1e6Pa' is not a finite number"},
        BadStageRun{"pressure_twice", "!--fixed x_min --free y_min,y_max,z_min,z_max --pressure x_max=1e6 "
                    "--pressure x_max=2e6 --beta 0.2 --steps 4", 2, "group 'x_max' has a pressure already"},
        BadStageRun{"pressure_on_fixed", "!--fixed x_min --free y_min,y_max,z_min,z_max,x_max --pressure x_min=1e6 "
                    "--beta 0.2 --steps 4", 1, "group 'x_min' has two boundary conditions"},
        BadStageRun{"no_load", "!--fixed x_min --free x_max,y_min,y_max,z_min,z_max --beta 0.2 --steps 4", 2,
                    "nothing loads the solid"},
        BadStageRun{"open_mesh", "--beta 0.2 --steps 4", 1, "open surface"},
        BadStageRun{"bad_traction", "!--fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=1e6 --beta 0.2 "
                    "--steps 4", 2, "traction 'x_max=1e6': expected GROUP=P:DX,DY,DZ"},
        BadStageRun{"infinite_direction", "!--fixed x_min --free y_min,y_max,z_min,z_max "
                    "--traction x_max=1e6:1e300,1e999,0 --beta 0.2 --steps 4", 2, "'1e999' is not a finite number"},
        BadStageRun{"nan_magnitude", "!--fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=nan:1,0,0 "
                    "--beta 0.2 --steps 4", 2, "'nan' is not a finite number"},
        BadStageRun{"zero_direction", "!--fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=1e6:0,0,0 "
                    "--beta 0.2 --steps 4", 2, "the direction is the zero vector"},
        BadStageRun{"no_steps", "--beta 0.2", 2, "give exactly one of --steps and --duration"},
        BadStageRun{"negative_step", "--time-step -1 --steps 4", 2, "-1"},
        BadStageRun{"bad_beta", "--beta -0.2 --steps 4", 2, "beta"},
        BadStageRun{"bad_material", "--beta 0.2 --steps 4 --poisson-ratio 0.5", 2, "Poisson's ratio"},
        BadStageRun{"unknown_solver", "--beta 0.2 --steps 4 --solver lu", 2,
                    "--solver 'lu': expected dense, hierarchical or auto"},
        BadStageRun{"zero_compression_tolerance", "--beta 0.2 --steps 4 --compression-tolerance 0", 2,
                    "--compression-tolerance 0: must lie in (0, 0.1]"},
        BadStageRun{"large_compression_tolerance", "--beta 0.2 --steps 4 --compression-tolerance 0.5", 2,
                    "--compression-tolerance 0.5: must lie in (0, 0.1]"},
        BadStageRun{"nan_density", "--beta 0.2 --steps 4 --density nan", 2, "density nan"},
        BadStageRun{"overflowing_material", "--beta 0.2 --steps 4 --young-modulus 1e308 --poisson-ratio 0.49", 2,
                    "give lambda = inf Pa"},
        BadStageRun{"nan_epsilon", "--beta 0.2 --steps 4 --epsilon nan", 2, "CQ epsilon nan"}),
    CaseName());

TEST(CqStages, StepRatioOutsideTheStableRangeIsAWarningWithItsValueEvenWhenQuiet) {
  const auto mesh = write_rod_mesh("rod_beta.vtu", 5.0);
  const auto out = scratch("laplace_beta");
  const auto run = laplace(mesh, out, "--device cpu --beta 1.5 --steps 2");
  EXPECT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("warning: CQ step ratio beta = c*dt/h = 1.5"), std::string::npos) << run.errors;
  EXPECT_TRUE(fs::exists(out / "manifest.ini"));
}

TEST(CqStages, TheMaterialHasNoDefault) {
  // No steel by default: a rock model that forgot its modulus must not run as steel.
  const auto mesh = write_rod_mesh("rod_no_material.vtu", 5.0);
  const auto out = scratch("laplace_no_material");
  for (const char* missing : {"young-modulus", "poisson-ratio", "density"}) {
    std::string material;
    for (const auto& [name, value] :
         {std::pair{"young-modulus", "5e10"}, {"poisson-ratio", "0.25"}, {"density", "2700"}})
      if (std::string(name) != missing) material += std::string(" --") + name + " " + value;
    const auto run = run_command(laplace_exe + " --mesh " + mesh.string() + " --out " + out.string() +
                                 " --device cpu --fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=1:1,0,0 "
                                 "--beta 0.3 --steps 2" + material);
    EXPECT_EQ(run.exit_code, 2) << missing;
    EXPECT_NE(run.errors.find(std::string("the option '--") + missing + "' is required but missing"),
              std::string::npos)
        << run.errors;
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST(CqStages, ForeignFolderIsNotReplaced) {
  const auto mesh = write_rod_mesh("rod_foreign.vtu", 5.0);
  const auto out = scratch("laplace_foreign");
  fs::create_directories(out);
  std::ofstream(out / "notes.txt") << "mine\n";
  const auto run = laplace(mesh, out, "--device cpu --beta 0.2 --steps 2");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.errors.find("holds files that are not a geobem-laplace output set"), std::string::npos) << run.errors;
  EXPECT_TRUE(fs::exists(out / "notes.txt"));
}

TEST(CqStages, EachSetRecordsItsEffectiveOptionsAndRerunsFromThem) {
  const SmallRod& rod = small_rod();
  const std::string record = read_text(rod.out / "geobem-laplace.ini");
  for (const char* line : {"fixed = x_min\n", "traction = x_max=1e6:1,0,0\n", "beta = 0.3\n", "steps = 20\n",
                           "epsilon = 1e-10\n", "device = cpu\n", "# computed on cpu\n"})
    EXPECT_NE(record.find(line), std::string::npos) << line << record;
  // geobem-time from its own record writes the same set again, byte for byte.
  const auto out = scratch("time12_record");
  ASSERT_EQ(time_stage(rod.out, out, "--probe-group x_max --every 5").exit_code, 0);
  const auto first = snapshot(out);
  const auto rerun = run_command(time_exe + " --quiet --config " + (out / "geobem-time.ini").string());
  ASSERT_EQ(rerun.exit_code, 0) << rerun.errors;
  EXPECT_EQ(snapshot(out), first);
  EXPECT_NE(first.at("geobem-time.ini").find("every = 5\n"), std::string::npos);
}

TEST(CqStages, ManifestSavedWithByteOrderMarkOrCrLfReadsTheSame) {
  const SmallRod& rod = small_rod();
  const auto plain = scratch("time12_plain");
  ASSERT_EQ(time_stage(rod.out, plain, "--probe-group x_max").exit_code, 0);
  const std::string manifest = read_text(rod.out / "manifest.ini");
  std::string crlf;
  for (const char c : manifest) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  for (const auto& [name, text] : {std::make_pair(std::string("bom"), "\xEF\xBB\xBF" + manifest),
                                   std::make_pair(std::string("crlf"), crlf)}) {
    SCOPED_TRACE(name);
    const auto copy = scratch("laplace12_" + name), out = scratch("time12_" + name);
    fs::remove_all(copy);
    fs::copy(rod.out, copy);
    std::ofstream(copy / "manifest.ini", std::ios::binary) << text;
    const auto run = time_stage(copy, out, "--probe-group x_max --mesh " + rod.mesh.string());
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    EXPECT_EQ(read_text(out / "probes.csv"), read_text(plain / "probes.csv"));
  }
}

TEST(CqStages, ManifestSizesBeyondTheMemoryAreRefusedBeforeAllocating) {
  // Manifests whose checksum holds (written by the library) but whose step
  // count asks for 2e9 steps (beyond the 1e7 a run takes), or 1e7 steps of
  // 18 unknowns with a million receivers: about 480 TB of receiver fields
  // and time series, refused with the bytes, not std::bad_alloc.
  const SmallRod& rod = small_rod();
  const auto copy = scratch("laplace12_huge"), out = scratch("time12_huge");
  fs::remove_all(copy);
  fs::copy(rod.out, copy);
  cq_stage::LaplaceManifest manifest = cq_stage::read_laplace_manifest(copy / "manifest.ini");
  manifest.cq.steps = 2000000000;
  manifest.frequencies = bem::cq_frequency_count(manifest.cq);
  cq_stage::write_laplace_manifest(copy / "manifest.ini", manifest);
  auto run = time_stage(copy, out, "");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.errors.find("manifest.ini: CQ steps 2000000000: must be from 1 to 10000000"), std::string::npos)
      << run.errors;
  manifest.cq.steps = bem::max_cq_steps;
  manifest.frequencies = bem::cq_frequency_count(manifest.cq);
  cq_stage::write_laplace_manifest(copy / "manifest.ini", manifest);
  run = time_stage(copy, out, "--receiver-grid 0.1,0.1,0.1:2.9,0.9,0.9:100,100,100");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.errors.find("manifest.ini: holding its solutions and their time series with 1000000 receivers needs "
                            "480002952000432 bytes"),
            std::string::npos)
      << run.errors;
  EXPECT_FALSE(fs::exists(out));
}

class TimeBad : public ::testing::TestWithParam<BadStageRun> {};

TEST_P(TimeBad, NamesTheProblemWritesNothing) {
  const BadStageRun& c = GetParam();
  const std::string name = c.name;
  const auto mesh = write_rod_mesh("bad_time_" + name + ".vtu", 5.0);
  const auto systems = scratch("bad_time_laplace_" + name), out = scratch("bad_time_out_" + name);
  ASSERT_EQ(laplace(mesh, systems, "--device cpu --beta 0.2 --steps 4").exit_code, 0);
  const auto file = systems / "laplace_case0.npy";
  std::string extra;
  if (name == "missing_solution") fs::remove(file);
  if (name == "truncated_solution") fs::resize_file(file, fs::file_size(file) - 16);
  if (name == "corrupt_solution") {
    std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
    stream.seekp(200);
    stream.put('\x7f');
  }
  if (name == "other_mesh") extra = " --mesh " + write_rod_mesh("bad_time_other.vtu", 0.7072).string();
  if (name == "changed_mesh") surface::write_surface_vtu(rod_mesh(4.0), mesh);  // same size, other nodes
  if (name.rfind("edited_", 0) == 0) {  // "1" prefixed to the value of the key
    const std::string key = name.substr(7) + " = ";
    std::string text = read_text(systems / "manifest.ini");
    text.insert(text.find(key) + key.size(), "1");
    std::ofstream(systems / "manifest.ini") << text;
  }
  if (name == "no_manifest") fs::remove(systems / "manifest.ini");
  if (name == "unknown_fundamental_solution") {  // a checksum that holds, a kernel this build lacks
    cq_stage::LaplaceManifest manifest = cq_stage::read_laplace_manifest(systems / "manifest.ini");
    manifest.fundamental_solution = "elastodynamic-half-space";
    cq_stage::write_laplace_manifest(systems / "manifest.ini", manifest);
  }
  if (name == "bad_receiver_csv") {
    extra = scratch("bad_receivers.csv").string();
    std::ofstream(extra) << "x,y,z\n1,0.5,0.5\n1,0.5,half\n";
  }
  if (name == "receiver_csv_outside") {
    extra = scratch("receivers_outside.csv").string();
    std::ofstream(extra) << "x,y,z\n1,0.5,0.5\n4,0.5,0.5\n5,0.5,0.5\n";
  }
  if (name == "receiver_csv_without_z") {
    extra = scratch("receivers_xy.csv").string();
    std::ofstream(extra) << "x,y\n1,0.5\n";
  }
  const auto run = time_stage(systems, out, c.arguments + extra);
  EXPECT_TRUE(ended_as(run, c));
  EXPECT_FALSE(fs::exists(out));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TimeBad,
    ::testing::Values(
        BadStageRun{"missing_solution", "", 1, "laplace_case0.npy"},
        BadStageRun{"truncated_solution", "", 1, "laplace_case0.npy"},
        BadStageRun{"corrupt_solution", "", 1, "laplace_case0.npy: CRC-32"},
        BadStageRun{"other_mesh", "", 1, "bad_time_other.vtu: not the mesh"},
        BadStageRun{"changed_mesh", "", 1, "rerun geobem-laplace"},
        BadStageRun{"edited_time_step", "", 1, "its values were edited after geobem-laplace wrote them"},
        BadStageRun{"edited_young_modulus", "", 1, "its values were edited after geobem-laplace wrote them"},
        BadStageRun{"edited_density", "", 1, "its values were edited after geobem-laplace wrote them"},
        BadStageRun{"edited_epsilon", "", 1, "its values were edited after geobem-laplace wrote them"},
        BadStageRun{"edited_traction", "", 1, "its values were edited after geobem-laplace wrote them"},
        BadStageRun{"edited_fixed", "", 1, "its values were edited after geobem-laplace wrote them"},
        BadStageRun{"no_manifest", "", 1, "manifest.ini: missing: run geobem-laplace first"},
        BadStageRun{"unknown_fundamental_solution", "", 1,
                    "manifest.ini: computed with the fundamental solution 'elastodynamic-half-space', which this "
                    "build does not know (it knows elastodynamic-full-space)"},
        BadStageRun{"missing_probe_group", "--probe-group tip", 2,
                    "probe group 'tip': the mesh has no such group (it has x_min, x_max, y_min, y_max, z_min, z_max)"},
        BadStageRun{"bad_probe", "--probe 3,0.5", 2, "probe"},
        BadStageRun{"closed_form_unknown", "--closed-form beam", 2, "--closed-form 'beam'"},
        BadStageRun{"closed_form_ramp", "--closed-form rod --load-history ramp:1e-4", 2,
                    "--closed-form rod (from the command line) needs one load case with the heaviside load history, "
                    "not ramp:1e-4: give --closed-form none with other histories"},
        BadStageRun{"history_of_no_case", "--load-history y_min=heaviside", 2, "group 'y_min' is not a load case"},
        BadStageRun{"bad_history", "--load-history step", 2, "--load-history 'step': unknown"},
        BadStageRun{"bad_ricker", "--load-history ricker:-5", 2,
                    "--load-history 'ricker:-5': Ricker central frequency"},
        BadStageRun{"missing_history_csv", "--load-history csv:no_such_history.csv", 1, "no_such_history.csv"},
        BadStageRun{"closed_form_cavity_of_a_body", "--closed-form cavity", 2,
                    "--closed-form cavity: the mesh bounds a finite body"},
        // A point of a CSV file is given on purpose: refused. Points of lines
        // and grids outside the solid are left out, unless none is left.
        BadStageRun{"receiver_csv_outside", "--receivers ", 1,
                    "receivers_outside.csv:3 at (4, 0.5, 0.5) m (outside the body) is not inside the elastic solid; "
                    "1 more receivers too"},
        BadStageRun{"receiver_line_outside", "--receiver-line 4,0.5,0.5:10,0.5,0.5:4", 1,
                    "no receiver lies inside the elastic solid (4 given; the first: --receiver-line point 0 at (4, "
                    "0.5, 0.5) m (outside the body))"},
        BadStageRun{"receiver_on_boundary", "--receiver-grid 3,0.5,0.5:3,0.5,0.5:1,1,1", 1,
                    "the first: --receiver-grid node (0, 0, 0) at (3, 0.5, 0.5) m (on the boundary)"},
        BadStageRun{"bad_receiver_line", "--receiver-line 0,0,0:1,1,1", 2, "--receiver-line '0,0,0:1,1,1': expected "
                    "X0,Y0,Z0:X1,Y1,Z1:N"},
        BadStageRun{"zero_receiver_count", "--receiver-grid 0,0,0:1,1,1:2,0,2", 2, "every count must be at least 1"},
        BadStageRun{"bad_receiver_csv", "--receivers ", 1, "bad_receivers.csv:3"},
        BadStageRun{"receiver_csv_without_z", "--receivers ", 1, "missing column 'z'"},
        BadStageRun{"empty_window", "--time-window 1,2", 2, "--time-window holds no step"}),
    CaseName());

}  // namespace
