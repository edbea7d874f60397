// geobem-gravity on a grid model (UBC-GIF mesh + model): the automatic choice
// of the grid path, equal to --path general to 1e-12 of each field's largest
// magnitude; a capped device memory changes nothing on the CPU. With
// GEOBEM_MPIEXEC (the mpi-labelled build of this file), 2 ranks equal 1 rank
// and only rank 0's files exist.
#include <gtest/gtest.h>

#include "tests/support/station_fields.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

const std::string gravity_exe = GEOBEM_GRAVITY_EXE;

/// A 12 × 10 × 6 UBC grid of 40 m × 50 m × 25 m cells (top at 0 m), every
/// third cell empty, the others of densities −300..+500 kg/m³; the stations
/// are on node lines at `upward` m (10 m: above it).
std::string ubc_arguments(const std::string& name, const std::string& upward = "10") {
  const auto mesh = write_text(name + ".msh", "12 10 6\n0 0 0\n12*40\n10*50\n6*25\n");
  std::string values;
  for (int c = 0; c < 12 * 10 * 6; ++c) values += std::to_string(c % 3 == 0 ? 0 : (c * 37) % 801 - 300) + "\n";
  const auto model = write_text(name + ".den", values);
  return " --prisms " + mesh.string() + " --ubc-model " + model.string() +
         " --grid-west -80 --grid-east 560 --grid-south -100 --grid-north 600 --grid-shape 17,15 --grid-upward " + upward;
}

StageRun gravity(const std::string& arguments, const fs::path& out) {
  return run_command(gravity_exe + " --device cpu" + arguments + " --out " + out.string());
}

#ifndef GEOBEM_MPIEXEC

TEST(GravityPaths, GridModelTakesTheGridPathAndMatchesGeneral) {
  const std::string model = ubc_arguments("paths");
  const auto on_grid = gravity(model, scratch("paths_auto"));
  ASSERT_EQ(on_grid.exit_code, 0) << on_grid.errors;
  EXPECT_NE(on_grid.errors.find("grid path"), std::string::npos) << on_grid.errors;
  const auto general = gravity(model + " --path general --device-memory-limit 1", scratch("paths_general"));
  ASSERT_EQ(general.exit_code, 0) << general.errors;
  EXPECT_NE(general.errors.find("general path"), std::string::npos) << general.errors;
  EXPECT_LE(largest_field_difference(scratch("paths_auto") / "gravity.csv", scratch("paths_general") / "gravity.csv"),
            1e-12);
}

TEST(GravityPaths, StationsInsideTheGridTakeTheGeneralPath) {
  const auto run = gravity(ubc_arguments("inside", "-30"), scratch("inside_out"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("general path"), std::string::npos) << run.errors;
}

TEST(GravityPaths, BadPathOptionsAreUsageErrors) {
  const auto prisms = write_text("list.csv", "west,east,south,north,bottom,top,density\n0,10,0,10,-10,0,100\n");
  const std::string grid = " --grid-west 0 --grid-east 10 --grid-south 0 --grid-north 10 --grid-shape 3,3";
  const struct {
    std::string arguments, expected;
  } cases[] = {{" --prisms " + prisms.string() + " --path grid" + grid, "is a prism list, not a grid"},
               {" --prisms " + prisms.string() + " --path gird" + grid, "unknown path 'gird'"},
               {" --prisms " + prisms.string() + " --device-memory-limit -5" + grid, "--device-memory-limit"}};
  for (const auto& c : cases) {
    const auto out = scratch("bad_path_out");
    const auto run = gravity(c.arguments, out);
    EXPECT_EQ(run.exit_code, 2) << c.arguments;
    EXPECT_NE(run.errors.find(c.expected), std::string::npos) << run.errors;
    EXPECT_FALSE(fs::exists(out / "gravity.csv"));
  }
}

#else

TEST(GravityPathsMpi, TwoRanksEqualOneAndOnlyRankZeroWrites) {
  const std::string model = ubc_arguments("mpi");
  for (const std::string path : {"grid", "general"}) {
    const auto one = scratch("mpi_one_" + path), two = scratch("mpi_two_" + path);
    const auto single = gravity(model + " --path " + path, one);
    ASSERT_EQ(single.exit_code, 0) << single.errors;
    const auto ranks = run_command(std::string(GEOBEM_MPIEXEC) + " --oversubscribe --allow-run-as-root -np 2 " +
                                   gravity_exe + " --device cpu" + model + " --path " + path + " --out " +
                                   two.string());
    ASSERT_EQ(ranks.exit_code, 0) << ranks.errors;
    EXPECT_NE(ranks.errors.find("2 rank(s)"), std::string::npos) << ranks.errors;
    EXPECT_LE(largest_field_difference(two / "gravity.csv", one / "gravity.csv"), 1e-12) << path;
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(two)) ++files;
    EXPECT_EQ(files, 4u);  // gravity.csv, gravity.vts, geobem-gravity.ini and the file list, written once
  }
}

#endif

}  // namespace
