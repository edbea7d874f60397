// geobem-assemble and geobem-solve as a user runs them: the results against
// the library's solve_cq (same numbers through files) and the rod's closed
// form (gpu/bem/rod_closed_form.hpp), the in-memory fallback, and every bad
// input (message, exit status, nothing written).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/rod_closed_form.hpp"
#include "tests/stages_bem/bem_stage_support.hpp"

namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::test;

namespace {

/// Area-weighted mean x_max displacement of solve_cq's unknowns, computed here
/// from the model (not through the stage's probe code).
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

TEST(CqStages, FilesThroughBothStagesGiveSolveCqAndFollowTheClosedForm) {
  // 112 triangles, beta = 0.3, one period (29 frequencies: seconds on 2 cores).
  const auto mesh = write_rod_mesh("rod112.vtu", 0.7072);
  const auto systems = scratch("systems112"), out = scratch("solution112");
  auto run = assemble(mesh, systems, "--device cpu --beta 0.3 --duration 0.0023202");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  run = solve(systems, out, "--device cpu --probe 3,0.5,0.5 --probe-group x_max --closed-form rod");
  ASSERT_EQ(run.exit_code, 0) << run.errors;

  const CsvTable probes = read_csv_table((out / "probes.csv").string());
  const std::vector<double> time = column(probes, "time");
  const int steps = static_cast<int>(time.size()) - 1;
  ASSERT_EQ(steps, 57);  // ceil(one period 4l/c / (0.3 h/c)) with h = 0.7071 m
  const bem::BemModel model = rod_model(0.7072);
  const bem::CqSettings settings{steps, time[1], 1e-10};
  EXPECT_DOUBLE_EQ(settings.time_step, 0.3 * model.smallest_element_size() / model.material.p_wave_speed);
  const bem::CqResult library =
      bem::solve_cq(model, settings, std::vector<double>(steps + 1, 1.0), {ComputeDevice::Cpu, true});

  // The stages' probe and the last time step against the library's solve.
  const std::vector<double> mean = column(probes, "probe1_u_x");
  EXPECT_LT(relative_difference(mean, x_max_mean(model, library.unknowns, steps)), 1e-12);
  std::vector<double> last(3 * model.nodes.size(), 0.0);
  for (std::size_t k = 0; k < model.nodes.size(); ++k)
    for (int c = 0; c < 3; ++c)
      if (model.node_block[k] >= 0)
        last[3 * k + c] = library.unknowns[static_cast<std::size_t>(steps) * model.unknown_count() +
                                           3 * model.node_block[k] + c];
  char name[64];
  std::snprintf(name, sizeof name, "solution/step_%05d.vtu", steps);
  EXPECT_LT(relative_difference(step_displacement(out / name), last), 1e-12);
  // probe0 is the node at (3, 0.5, 0.5).
  EXPECT_NE(probes.columns[1].find("probe0_u_x"), std::string::npos);

  // closed_form is the rod's free end; the mean over x = 3 m follows it.
  const std::vector<double> closed = column(probes, "closed_form");
  double err2 = 0, ref2 = 0;
  for (int step = 0; step <= steps; ++step) {
    const double reference = bem::rod_free_end_displacement(time[step], rod_pressure, rod_young, rod_density,
                                                                  rod_length);
    EXPECT_NEAR(closed[step], reference, 1e-12 * 2 * rod_pressure * rod_length / rod_young);
    err2 += (mean[step] - reference) * (mean[step] - reference);
    ref2 += reference * reference;
  }
  // test_rod's 112-element, beta 0.3, one-period figure is 4.62% (RESULTS.md).
  std::printf("stages, 112 triangles, beta 0.3, one period: free-end L2 error %.4f\n", std::sqrt(err2 / ref2));
  EXPECT_LT(std::sqrt(err2 / ref2), 0.06);
}

TEST(CqStages, SystemsThatDoNotFitAreAssembledInMemoryBySolve) {
  const auto mesh = write_rod_mesh("rod12.vtu", 5.0);
  const auto on_disk = scratch("systems12_disk"), in_memory = scratch("systems12_memory");
  ASSERT_EQ(assemble(mesh, on_disk, "--device cpu --beta 0.2 --steps 8").exit_code, 0);
  const auto run = assemble(mesh, in_memory, "--device cpu --beta 0.2 --steps 8 --max-disk-bytes 1000");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("the systems need 28000 bytes"), std::string::npos) << run.errors;  // 5 x (128 + 16*18*19)
  EXPECT_NE(run.errors.find("in-memory"), std::string::npos) << run.errors;
  EXPECT_NE(read_text(in_memory / "manifest.ini").find("mode = in-memory"), std::string::npos);
  EXPECT_FALSE(fs::exists(in_memory / "system_0000.npy"));
  EXPECT_TRUE(fs::exists(on_disk / "system_0004.npy"));

  const auto out_disk = scratch("solution12_disk"), out_memory = scratch("solution12_memory");
  ASSERT_EQ(solve(on_disk, out_disk, "--device cpu --probe-group x_max").exit_code, 0);
  ASSERT_EQ(solve(in_memory, out_memory, "--device cpu --probe-group x_max").exit_code, 0);
  const auto a = column(read_csv_table((out_disk / "probes.csv").string()), "probe0_u_x");
  const auto b = column(read_csv_table((out_memory / "probes.csv").string()), "probe0_u_x");
  ASSERT_EQ(a.size(), 9u);
  EXPECT_GT(std::abs(a.back()), 0.0);
  EXPECT_LT(relative_difference(a, b), 1e-12);
}

// ---- bad input: a message naming the problem, non-zero exit, nothing written.

struct BadAssemble {
  const char* name;
  const char* arguments;  // replaces the rod conditions when it starts with "!"
  int exit_code;
  const char* expected;
};
void PrintTo(const BadAssemble& c, std::ostream* os) { *os << c.name; }

class AssembleBad : public ::testing::TestWithParam<BadAssemble> {};

TEST_P(AssembleBad, NamesTheProblemWritesNothing) {
  const BadAssemble& c = GetParam();
  auto mesh_data = rod_mesh(5.0);
  if (std::string(c.name) == "open_mesh") {
    mesh_data.triangles.pop_back();
    mesh_data.group_of_triangle.pop_back();
  }
  const auto mesh = scratch(std::string("bad_assemble_") + c.name + ".vtu");
  surface::write_surface_vtu(mesh_data, mesh);
  const auto out = scratch(std::string("bad_assemble_out_") + c.name);
  std::string arguments = c.arguments;
  const bool own_conditions = !arguments.empty() && arguments[0] == '!';
  const std::string command = assemble_exe + " --mesh " + mesh.string() + " --out " + out.string() + " --device cpu " +
                              (own_conditions ? arguments.substr(1) : rod_conditions + " " + arguments);
  const auto run = run_command(command);
  EXPECT_EQ(run.exit_code, c.exit_code) << run.errors;
  EXPECT_NE(run.errors.find(c.expected), std::string::npos) << run.errors;
  EXPECT_FALSE(fs::exists(out / "manifest.ini"));
  EXPECT_FALSE(fs::exists(out / "system_0000.npy"));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, AssembleBad,
    ::testing::Values(
        BadAssemble{"missing_condition", "!--fixed x_min --free y_min,y_max,z_min --traction x_max=1:1,0,0 --beta 0.2 "
                    "--steps 4", 1, "group 'z_max' has no boundary condition"},
        BadAssemble{"unknown_group", "!--fixed x_min --free y_min,y_max,z_min,z_max,w_min --traction x_max=1:1,0,0 "
                    "--beta 0.2 --steps 4", 1, "boundary condition for group 'w_min', which the mesh lacks"},
        BadAssemble{"open_mesh", "--beta 0.2 --steps 4", 1, "open surface"},
        BadAssemble{"bad_traction", "!--fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=1e6 --beta 0.2 "
                    "--steps 4", 2, "--traction 'x_max=1e6': expected NAME=P:DX,DY,DZ"},
        BadAssemble{"zero_direction", "!--fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=1e6:0,0,0 "
                    "--beta 0.2 --steps 4", 2, "the direction is the zero vector"},
        BadAssemble{"bad_history", "--beta 0.2 --steps 4 --load-history step", 2, "--load-history 'step'"},
        BadAssemble{"no_steps", "--beta 0.2", 2, "give exactly one of --steps and --duration"},
        BadAssemble{"negative_step", "--time-step -1 --steps 4", 2, "-1"},
        BadAssemble{"bad_material", "--beta 0.2 --steps 4 --poisson-ratio 0.5", 2, "Poisson's ratio"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CqStages, StepRatioOutsideTheStableRangeIsAWarningWithItsValue) {
  const auto mesh = write_rod_mesh("rod_beta.vtu", 5.0);
  const auto out = scratch("systems_beta");
  const auto run = run_command(assemble_exe + " --mesh " + mesh.string() + " --out " + out.string() + rod_conditions +
                               " --device cpu --beta 1.5 --steps 2");
  EXPECT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("warning: CQ step ratio beta = c*dt/h = 1.5"), std::string::npos) << run.errors;
  EXPECT_TRUE(fs::exists(out / "manifest.ini"));
}

struct BadSolve {
  const char* name;
  const char* arguments;
  int exit_code;
  const char* expected;
};
void PrintTo(const BadSolve& c, std::ostream* os) { *os << c.name; }

class SolveBad : public ::testing::TestWithParam<BadSolve> {};

TEST_P(SolveBad, NamesTheProblemWritesNothing) {
  const BadSolve& c = GetParam();
  const std::string name = c.name;
  const auto mesh = write_rod_mesh("bad_solve_" + name + ".vtu", 5.0);
  const auto systems = scratch("bad_solve_systems_" + name), out = scratch("bad_solve_out_" + name);
  ASSERT_EQ(assemble(mesh, systems, "--device cpu --beta 0.2 --steps 4").exit_code, 0);
  const auto file = systems / "system_0001.npy";
  std::string extra;
  if (name == "missing_matrix") fs::remove(file);
  if (name == "truncated_matrix") fs::resize_file(file, fs::file_size(file) - 16);
  if (name == "corrupt_matrix") {
    std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
    stream.seekp(200);
    stream.put('\x7f');
  }
  if (name == "other_mesh") extra = " --mesh " + write_rod_mesh("bad_solve_other.vtu", 0.7072).string();
  if (name == "changed_mesh") surface::write_surface_vtu(rod_mesh(4.0), mesh);  // same size, other nodes
  if (name == "stale_manifest") {
    std::string text = read_text(systems / "manifest.ini");
    text.replace(text.find("unknowns = "), std::string("unknowns = 18").size(), "unknowns = 17");
    std::ofstream(systems / "manifest.ini") << text;
  }
  if (name == "no_manifest") fs::remove(systems / "manifest.ini");
  const auto run = solve(systems, out, std::string("--device cpu ") + c.arguments + extra);
  std::string expected = c.expected;
  EXPECT_EQ(run.exit_code, c.exit_code) << run.errors;
  EXPECT_NE(run.errors.find(expected), std::string::npos) << run.errors;
  EXPECT_FALSE(fs::exists(out / "solution.pvd"));
  EXPECT_FALSE(fs::exists(out / "probes.csv"));
  EXPECT_FALSE(fs::exists(out / "solution"));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SolveBad,
    ::testing::Values(
        BadSolve{"missing_matrix", "", 1, "system_0001.npy: missing (listed in "},
        BadSolve{"truncated_matrix", "", 1, "system_0001.npy: 5584 bytes, expected 5600 (truncated or stale)"},
        BadSolve{"corrupt_matrix", "", 1, "system_0001.npy: CRC-32"},
        BadSolve{"other_mesh", "", 1, "bad_solve_other.vtu: not the mesh"},
        BadSolve{"changed_mesh", "", 1, "rerun geobem-assemble"},
        BadSolve{"stale_manifest", "", 1, "17 unknowns, but the mesh and conditions give 18"},
        BadSolve{"no_manifest", "", 1, "manifest.ini: cannot read the manifest"},
        BadSolve{"missing_probe_group", "--probe-group tip", 2,
                 "probe group 'tip': the mesh has no such group (it has x_min, x_max, y_min, y_max, z_min, z_max)"},
        BadSolve{"bad_probe", "--probe 3,0.5", 2, "probe"},
        BadSolve{"closed_form_unknown", "--closed-form beam", 2, "--closed-form 'beam'"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
