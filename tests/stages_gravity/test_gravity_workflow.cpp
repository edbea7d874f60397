// The gravity-spheres workflow end to end on a small grid (options after `--`
// shrink it), its files read back with VTK and checked against each other.
#include <gtest/gtest.h>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkStructuredGrid.h>
#include <vtkUnstructuredGrid.h>

#include "mesh/io/csv_table.hpp"
#include "mesh/io/vtk_output.hpp"
#include "mesh/prisms/prism_csv.hpp"
#include "tests/support/png_check.hpp"
#include "tests/support/test_files.hpp"
#include "tests/support/structured_grid_file.hpp"
#include "tests/support/workflow_command.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

const WorkflowCommand workflow{"gravity-spheres"};

TEST(GravitySpheresWorkflow, StagesWriteConsistentFiles) {
  const auto out = scratch("workflow");
  auto run = run_command(workflow(out, "--only model -- --cells 44,44,10"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  // The record holds the options after `--`, over the workflow's model.ini.
  EXPECT_NE(read_text(out / "model" / "geobem-model.ini").find("\ncells = 44,44,10\n"), std::string::npos);
  EXPECT_FALSE(fs::exists(out / "gravity"));  // --only model
  run = run_command(workflow(out, "--only gravity -- --grid-shape 6,4 --device cpu"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(read_text(out / "gravity" / "geobem-gravity.ini").find("\ngrid-shape = 6,4\n"), std::string::npos);
  EXPECT_NE(run.errors.find("geobem-gravity: wrote"), std::string::npos) << run.errors;
  // The model is a grid: the gravity stage reads model.vtr and takes the grid path.
  EXPECT_TRUE(fs::exists(out / "model" / "model.vtr"));
  EXPECT_NE(run.errors.find("grid path"), std::string::npos) << run.errors;

  // Model: the .vtu and the CSV hold the same prisms, all of them non-zero.
  const auto prisms = geobem::prisms::read_prism_csv((out / "model" / "prisms.csv").string()).prisms;
  ASSERT_GT(prisms.size(), 100u);
  const auto model_data = geobem::read_vtk_xml(out / "model" / "model.vtu");
  auto* model = vtkUnstructuredGrid::SafeDownCast(model_data);
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(static_cast<std::size_t>(model->GetNumberOfCells()), prisms.size());
  vtkDataArray* density = model->GetCellData()->GetArray("density");
  ASSERT_NE(density, nullptr);
  for (std::size_t c = 0; c < prisms.size(); ++c) {
    ASSERT_EQ(density->GetComponent(c, 0), prisms[c].density);
    ASSERT_NE(prisms[c].density, 0.0);
  }

  // Gravity: the .vts and the CSV hold the same stations and values, in the
  // canonical field order, on the configured 100 m elevation.
  const geobem::CsvTable table = geobem::read_csv_table((out / "gravity" / "gravity.csv").string());
  const std::vector<std::string> fields{"potential", "g_e", "g_n", "g_z", "g_ee", "g_en", "g_ez", "g_nn", "g_nz", "g_zz"};
  std::vector<std::string> columns{"easting", "northing", "upward"};
  columns.insert(columns.end(), fields.begin(), fields.end());
  EXPECT_EQ(table.columns, columns);
  ASSERT_EQ(table.rows.size(), 24u);
  const auto grid_file = geobem::test::read_structured_grid(out / "gravity" / "gravity.vts");
  vtkStructuredGrid* grid = grid_file.grid;
  ASSERT_NE(grid, nullptr);
  EXPECT_EQ(grid_file.dims, (std::array<int, 3>{6, 4, 1}));
  for (std::size_t f = 0; f < fields.size(); ++f) {
    vtkDataArray* array = grid->GetPointData()->GetArray(fields[f].c_str());
    ASSERT_NE(array, nullptr) << fields[f];
    for (vtkIdType s = 0; s < 24; ++s) ASSERT_EQ(array->GetComponent(s, 0), table.rows[s][3 + f]) << fields[f];
  }
  for (vtkIdType s = 0; s < 24; ++s) {
    double point[3];
    grid->GetPoint(s, point);
    EXPECT_EQ(point[0], table.rows[s][0]);
    EXPECT_EQ(point[1], table.rows[s][1]);
    EXPECT_EQ(point[2], 100.0);
    // Off the masses the tensor is traceless (Laplace): a check that the
    // columns are the right fields in the right places.
    const auto& row = table.rows[s];
    EXPECT_NEAR(row[3 + 4] + row[3 + 7] + row[3 + 9], 0.0, 1e-9 * (std::abs(row[3 + 9]) + 1e-3));
  }
  const auto units = geobem::read_units_field_data(grid_file.data);
  EXPECT_NE(std::find(units.begin(), units.end(), std::make_pair(std::string("g_z"), std::string("mGal"))), units.end());
  EXPECT_NE(std::find(units.begin(), units.end(), std::make_pair(std::string("g_zz"), std::string("Eotvos"))), units.end());

  // The last stage: maps of g_z and g_zz from gravity.csv.
  if (!geobem::test::plots_can_run()) GTEST_SKIP() << "no matplotlib in /usr/bin/python3 for the plot stage";
  run = run_command(workflow(out, "--only plot"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  geobem::test::expect_plot_png(out / "spheres.png");
}

TEST(GravitySpheresWorkflow, GridPathEqualsThePrismByPrismPath) {
  const auto out = scratch("workflow_paths");
  ASSERT_EQ(run_command(workflow(out, "--only model -- --cells 44,44,10")).exit_code, 0);
  ASSERT_EQ(run_command(workflow(out, "--only gravity -- --grid-shape 7,5 --device cpu --quiet")).exit_code, 0);
  // The gravity set's record reruns it; the prism list on the general path.
  const auto general_out = out / "general";
  const auto run = run_command(std::string(GEOBEM_BIN_DIR) + "/geobem-gravity --config " +
                               (out / "gravity" / "geobem-gravity.ini").string() + " --prisms " +
                               (out / "model" / "prisms.csv").string() + " --path general --quiet --out " +
                               general_out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const auto grid = geobem::read_csv_table((out / "gravity" / "gravity.csv").string());
  const auto general = geobem::read_csv_table((general_out / "gravity.csv").string());
  ASSERT_EQ(grid.rows.size(), 35u);
  ASSERT_EQ(general.rows.size(), 35u);
  for (std::size_t f = 3; f < grid.columns.size(); ++f) {
    double largest = 0, difference = 0;
    for (std::size_t s = 0; s < grid.rows.size(); ++s) {
      largest = std::max(largest, std::abs(general.rows[s][f]));
      difference = std::max(difference, std::abs(grid.rows[s][f] - general.rows[s][f]));
    }
    ASSERT_GT(largest, 0.0) << grid.columns[f];
    EXPECT_LE(difference, 1e-12 * largest) << grid.columns[f];
  }
}

TEST(GravitySpheresWorkflow, GravityStageNeedsTheModelStageOutput) {
  const auto out = scratch("workflow_empty");
  EXPECT_TRUE(failed_saying(run_command(workflow(out, "--only gravity")), "model/prisms.csv missing"));
  EXPECT_FALSE(fs::exists(out / "gravity"));
  EXPECT_TRUE(failed_saying(run_command(workflow(out, "--only plot")),
                            "gravity/gravity.csv missing: run the gravity stage first"));
  EXPECT_FALSE(fs::exists(out / "spheres.png"));
}

TEST(GravitySpheresWorkflow, UnknownStageIsAUsageError) {
  const auto run = run_command(workflow(scratch("workflow_bad"), "--from magnetics"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.errors.find("unknown stage 'magnetics'"), std::string::npos) << run.errors;
}

}  // namespace
