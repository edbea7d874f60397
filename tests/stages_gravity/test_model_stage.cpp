// geobem-model as a user runs it: generated and converted models, bad input.
#include <gtest/gtest.h>

#include <vtkUnstructuredGrid.h>

#include "mesh/io/vtk_output.hpp"
#include "mesh/prisms/prism_csv.hpp"
#include "mesh/prisms/vtk_model.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

const std::string model_exe = GEOBEM_MODEL_EXE;

TEST(ModelStage, BlocksWriteMatchingCsvAndVtu) {
  const auto out = scratch("blocks");
  const auto run = run_command(model_exe + " --generate blocks --block 0,10,0,20,-30,0,500 --block 20,30,0,10,-5,0,-200"
                                           " --block 40,41,0,1,-1,0,0 --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("2 prisms (1 of zero density left out)"), std::string::npos) << run.errors;
  const auto csv = geobem::prisms::read_prism_csv((out / "prisms.csv").string()).prisms;
  ASSERT_EQ(csv.size(), 2u);
  EXPECT_EQ(csv[1].density, -200);
  EXPECT_EQ(csv[1].west, 20);
  const auto vtu = geobem::prisms::read_vtk_model((out / "model.vtu").string()).prisms;
  ASSERT_EQ(vtu.size(), 2u);
  EXPECT_DOUBLE_EQ(geobem::prisms::total_volume(vtu), 10 * 20 * 30 + 10 * 10 * 5);
}

TEST(ModelStage, OptionsThatDoNothingHereAreNamed) {
  const auto run = run_command(model_exe + " --quiet --generate blocks --block 0,10,0,20,-30,0,500 --cells 10,10,10 "
                                           "--density-above 2.67 --out " + scratch("ignored").string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("geobem-model: warning: --cells is ignored: it sizes the grid of --generate spheres"),
            std::string::npos)
      << run.errors;
  EXPECT_NE(run.errors.find("geobem-model: warning: --density-above is ignored: it goes with --dem"), std::string::npos)
      << run.errors;
  EXPECT_EQ(run.errors.find("--reference is ignored"), std::string::npos) << run.errors;  // not given: no word
}

TEST(ModelStage, GridModelsAlsoTravelAsTheirGrid) {
  const auto out = scratch("spheres_grid");
  auto run = run_command(model_exe + " --generate spheres --cells 22,22,8 --quiet --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const auto grid = geobem::prisms::read_vtk_model((out / "model.vtr").string());
  ASSERT_TRUE(grid.grid.has_value());
  EXPECT_EQ(grid.grid->cell_count(), 22u * 22u * 8u);
  EXPECT_EQ(grid.grid->easting_edges.back(), 22000.0);
  const auto csv = geobem::prisms::read_prism_csv((out / "prisms.csv").string()).prisms;
  ASSERT_FALSE(csv.empty());
  EXPECT_EQ(grid.prisms.size(), csv.size());
  // A list model written into the same folder leaves no stale grid behind,
  // and its record says what made it.
  run = run_command(model_exe + " --generate blocks --block 0,10,0,20,-30,0,500 --quiet --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_FALSE(fs::exists(out / "model.vtr"));
  const std::string record = read_text(out / "geobem-model.ini");
  EXPECT_NE(record.find("generate = blocks\ncells = 700,700,50\nblock = 0,10,0,20,-30,0,500\n"), std::string::npos) << record;
  // A folder that is not a geobem-model set is not replaced.
  const auto foreign = scratch("foreign");
  fs::create_directories(foreign);
  std::ofstream(foreign / "notes.txt") << "mine\n";
  run = run_command(model_exe + " --generate blocks --block 0,10,0,20,-30,0,500 --quiet --out " + foreign.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.errors.find("holds files that are not a geobem-model output set"), std::string::npos) << run.errors;
  EXPECT_EQ(read_text(foreign / "notes.txt"), "mine\n");
}

TEST(ModelStage, ConvertsUbcFilesGivenInAConfigFile) {
  const auto mesh = write_text("stage.msh", "2 1 1\n0 0 0\n2*10\n5\n3\n");
  const auto model = write_text("stage.den", "100\n0\n");
  const auto config = write_text("convert.ini", "input = " + mesh.string() + "\nubc-model = " + model.string() + "\n");
  const auto out = scratch("converted");
  const auto run = run_command(model_exe + " --config " + config.string() + " --quiet --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_EQ(run.errors, "");  // --quiet
  const auto prisms = geobem::prisms::read_prism_csv((out / "prisms.csv").string()).prisms;
  ASSERT_EQ(prisms.size(), 1u);
  EXPECT_EQ(prisms[0].east, 10);
  EXPECT_EQ(prisms[0].bottom, -3);
  EXPECT_EQ(prisms[0].density, 100);
}

class ModelStageBad : public ::testing::TestWithParam<BadStageRun> {};

TEST_P(ModelStageBad, ExitsNonZeroNamesTheProblemLeavesTheEarlierSet) {
  const auto out = scratch(std::string("bad_model_") + GetParam().name);
  ASSERT_EQ(run_command(model_exe + " --generate blocks --block 0,1,0,1,-1,0,7 --quiet --out " + out.string()).exit_code,
            0);
  const auto before = snapshot(out);
  const auto bad_csv = write_text("bad_model_input.csv", "west,east,south,north,bottom,top,density\n0,1,0,1,-1,0,1\n"
                                                         "0,1,0,1,-1,0,inf\n");
  std::string arguments = GetParam().arguments;
  const auto at = arguments.find("BAD_CSV");
  if (at != std::string::npos) arguments.replace(at, 7, bad_csv.string());
  const auto run = run_command(model_exe + " " + arguments + " --out " + out.string());
  EXPECT_TRUE(ended_as(run, GetParam()));
  EXPECT_EQ(snapshot(out), before);
  EXPECT_TRUE(leftovers(out.parent_path()).empty());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ModelStageBad,
    ::testing::Values(
        BadStageRun{"west_east", "--generate blocks --block 5,1,0,1,-1,0,10", 1, "block 1: west (5) must be less than east (1)"},
        BadStageRun{"block_text", "--generate blocks --block 0,1,0,1,-1,0,rock", 2, "'rock' is not a finite number"},
        BadStageRun{"non_finite", "--input BAD_CSV", 1, "bad_model_input.csv:3: column 'density'"},
        BadStageRun{"missing", "--input /nonexistent/model.csv", 1, "/nonexistent/model.csv: no such file"},
        BadStageRun{"zero_cells", "--generate spheres --cells 0,10,10", 2, "--cells '0,10,10'"},
        BadStageRun{"unknown", "--generate cubes", 2, "--generate 'cubes'"},
        BadStageRun{"both", "--generate spheres --input x.csv", 2, "exactly one of --generate, --input and --dem"}),
    CaseName());

}  // namespace
