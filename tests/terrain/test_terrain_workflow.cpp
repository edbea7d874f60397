// The terrain-jacksboro workflow's run.sh end to end as a user runs it, on
// Debian's Jacksboro DEM with every 60th node as a station (42 stations
// instead of the default's 378, options after `--`): the layer with one cell
// per DEM node, the draped stations as a structured grid, and the plot of
// g_z and the total-field anomaly over the relief.
#include <gtest/gtest.h>

#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkStructuredGrid.h>

#include <filesystem>
#include <string>

#include "../support/png_check.hpp"
#include "../support/test_files.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/vtk_output.hpp"
#include "tests/support/structured_grid_file.hpp"
#include "tests/support/workflow_command.hpp"

namespace geobem::test {
namespace {

const char* const jacksboro = "/usr/share/matplotlib/mpl-data/sample_data/jacksboro_fault_dem.npz";

const WorkflowCommand workflow{"terrain-jacksboro"};

TEST(TerrainWorkflow, LayerDrapedGridAndPlot) {
  if (!std::filesystem::exists(jacksboro)) GTEST_SKIP() << jacksboro << " missing (python-matplotlib-data)";
  if (!plots_can_run()) GTEST_SKIP() << "no matplotlib in /usr/bin/python3 for the plot stage";
  const auto out = scratch("terrain");
  for (const char* stage : {"--only dem", "--only model",
                            "--only gravity -- --station-step 60 --fields g_z --device cpu --quiet",
                            "--only magnetic -- --station-step 60 --device cpu --quiet"}) {
    const StageRun run = run_command(workflow(out, stage));
    ASSERT_EQ(run.exit_code, 0) << stage << "\n" << run.errors;
  }
  // The README's prism count: 403 x 344 DEM nodes, one cell each.
  {
    const auto data = read_vtk_xml(out / "model" / "layer.vts");
    auto* layer = vtkStructuredGrid::SafeDownCast(data);
    ASSERT_NE(layer, nullptr);
    EXPECT_EQ(layer->GetNumberOfCells(), 403 * 344);
  }
  // Every 60th node of 403 x 344: a 7 x 6 grid of stations 100 m above the nodes.
  for (const char* file : {"gravity/gravity.vts", "magnetic/magnetic.vts"}) {
    const auto grid_file = geobem::test::read_structured_grid(out / file);
    vtkStructuredGrid* grid = grid_file.grid;
    ASSERT_NE(grid, nullptr) << file;
    EXPECT_EQ(grid_file.dims, (std::array<int, 3>{7, 6, 1})) << file;
  }
  const CsvTable gravity = read_csv_table((out / "gravity" / "gravity.csv").string());
  ASSERT_EQ(gravity.rows.size(), 42u);

  const StageRun plot = run_command(workflow(out, "--only plot"));
  ASSERT_EQ(plot.exit_code, 0) << plot.errors;
  expect_plot_png(out / "terrain.png");

  // Without g_z the plot says which option to give, with no traceback, and
  // the earlier picture stays.
  const std::string before = read_text(out / "terrain.png");
  ASSERT_EQ(run_command(workflow(out, "--only gravity -- --station-step 60 --fields g_zz --device cpu --quiet"))
                .exit_code,
            0);
  const StageRun no_g_z = run_command(workflow(out, "--only plot"));
  EXPECT_EQ(no_g_z.exit_code, 1);
  EXPECT_NE(no_g_z.errors.find("gravity.csv has no column g_z: run the gravity stage, with g_z among its --fields"),
            std::string::npos)
      << no_g_z.errors;
  EXPECT_EQ(no_g_z.errors.find("Traceback"), std::string::npos) << no_g_z.errors;
  EXPECT_EQ(read_text(out / "terrain.png"), before);
}

TEST(TerrainWorkflow, PlotNeedsTheStagesBeforeIt) {
  const auto out = scratch("terrain_empty");
  EXPECT_TRUE(failed_saying(run_command(workflow(out, "--only plot")),
                            "gravity/gravity.csv missing: run the gravity stage first"));
  EXPECT_FALSE(std::filesystem::exists(out / "terrain.png"));
}

}  // namespace
}  // namespace geobem::test
