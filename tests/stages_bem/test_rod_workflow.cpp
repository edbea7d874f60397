// The rod-cq workflow end to end on its default 252-triangle mesh with a
// short simulated time (options after `--`), its files read back with VTK,
// and its plot with and without the closed form.
#include <gtest/gtest.h>

#include <vtkCellData.h>

#include "tests/stages_bem/bem_stage_support.hpp"
#include "tests/support/png_check.hpp"
#include "tests/support/workflow_command.hpp"

namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::test;

namespace {

const WorkflowCommand workflow{"rod-cq"};

TEST(RodCqWorkflow, StagesWriteASeriesParaViewPlaysAndProbes) {
  const auto out = scratch("rod_workflow");
  auto run = run_command(workflow(out, "--only mesh"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("252 triangles"), std::string::npos) << run.errors;
  // 0.5 ms instead of two periods: 28 steps of 18.2 µs, 15 frequencies.
  run = run_command(workflow(out, "--only laplace -- --duration 0.0005 --device cpu"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_TRUE(fs::exists(out / "laplace" / "laplace_case0.npy"));
  EXPECT_FALSE(fs::exists(out / "time"));  // --only laplace
  run = run_command(workflow(out, "--from time -- --every 2"));
  EXPECT_EQ(run.exit_code, 2) << run.errors;  // options after -- need --only
  run = run_command(workflow(out, "--from time"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  // The mesh stage records its effective options beside its output.
  EXPECT_NE(read_text(out / "rod.vtu.ini").find("box-lengths = 3,1,1\n"), std::string::npos);

  const fs::path result = out / "time";
  const std::string pvd = read_text(result / "solution.pvd");
  std::size_t entries = 0;
  for (auto at = pvd.find("<DataSet"); at != std::string::npos; at = pvd.find("<DataSet", at + 1)) ++entries;
  EXPECT_EQ(entries, 29u);
  const auto data = read_vtk_xml(result / "solution" / "step_00028.vtu");
  auto* grid = vtkUnstructuredGrid::SafeDownCast(data);
  ASSERT_NE(grid, nullptr);
  ASSERT_EQ(grid->GetNumberOfCells(), 252);
  vtkDataArray* traction = grid->GetCellData()->GetArray("traction");
  vtkDataArray* group = grid->GetCellData()->GetArray("group");
  ASSERT_NE(traction, nullptr);
  ASSERT_NE(group, nullptr);
  for (vtkIdType e = 0; e < 252; ++e)
    if (group->GetComponent(e, 0) == 1) {  // x_max: the prescribed p H(t)
      EXPECT_EQ(traction->GetComponent(e, 0), rod_pressure);
      EXPECT_EQ(traction->GetComponent(e, 1), 0.0);
    }
  const auto u = step_displacement(result / "solution" / "step_00028.vtu");
  ASSERT_EQ(u.size(), 3 * static_cast<std::size_t>(grid->GetNumberOfPoints()));
  const auto units = read_units_field_data(data);
  for (const auto& unit : {std::make_pair(std::string("displacement"), std::string("m")),
                           std::make_pair(std::string("traction"), std::string("Pa"))})
    EXPECT_NE(std::find(units.begin(), units.end(), unit), units.end()) << unit.first;

  // Probes: the centre node and the mean of x = 3 m, and the closed form; the
  // wave front reaches x = 3 m at once, so u_x > 0 there from the first step.
  const CsvTable probes = read_csv_table((result / "probes.csv").string());
  EXPECT_EQ(probes.columns, (std::vector<std::string>{"time", "probe0_u_x", "probe0_u_y", "probe0_u_z", "probe1_u_x",
                                                      "probe1_u_y", "probe1_u_z", "closed_form"}));
  ASSERT_EQ(probes.rows.size(), 29u);
  const auto mean = column(probes, "probe1_u_x"), closed = column(probes, "closed_form");
  EXPECT_GT(mean.back(), 0.0);
  EXPECT_NEAR(mean.back(), closed.back(), 0.1 * closed.back());
  // One part, named as ParaView shows it.
  EXPECT_NE(pvd.find("part=\"0\" name=\"surface\" file=\"solution/step_00028.vtu\""), std::string::npos) << pvd;

  // The last stage, plot (`--from time` ran it): the free end against the closed form.
  if (!plots_can_run()) GTEST_SKIP() << "no matplotlib in /usr/bin/python3 for the plot stage";
  EXPECT_NE(run.errors.find("== rod-cq: stage plot done"), std::string::npos) << run.errors;
  expect_plot_png(out / "rod.png");
  // Without the closed form the plot shows the probes alone.
  fs::remove(out / "rod.png");
  run = run_command(workflow(out, "--only time -- --closed-form none"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  run = run_command(workflow(out, "--only plot"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  expect_plot_png(out / "rod.png");
}

TEST(RodCqWorkflow, TimeNeedsTheLaplaceStageOutput) {
  const auto out = scratch("rod_workflow_empty");
  EXPECT_TRUE(failed_saying(run_command(workflow(out, "--only time")),
                            "laplace/manifest.ini missing: run the laplace stage first"));
  EXPECT_FALSE(fs::exists(out / "time"));
}

}  // namespace
