// What a user does around the stages: run.sh's options for several stages
// at once (--set) and its refusals, the message when one stage ran with
// other options than the next, and a run copied elsewhere that replays from
// its options records where it now is.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "mesh/io/csv_table.hpp"
#include "tests/support/test_files.hpp"
#include "tests/transform/closed_forms.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

const std::string bin = GEOBEM_BIN_DIR;

std::string halfspace(const fs::path& out, const std::string& arguments) {
  return "GEOBEM_BIN=" + bin + " " + std::string(GEOBEM_SOURCE_DIR) + "/workflows/halfspace-load/run.sh --out " +
         out.string() + " " + arguments;
}

/// `command` run with `folder` as the working folder.
StageRun run_in(const fs::path& folder, const std::string& command) {
  return run_command("cd '" + folder.string() + "' && " + command);
}

TEST(RunSh, SetGivesSeveralStagesTheSameOption) {
  const auto out = scratch("halfspace_set");
  const auto run = run_command(halfspace(out, "--set radii,displacement:disk-radius=50 --set integrate:rel-tol=1e-9"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(read_text(out / "radii" / "geobem-halfspace-radii.ini").find("\ndisk-radius = 50\n"), std::string::npos);
  EXPECT_NE(read_text(out / "integrate" / "integrals.csv.ini").find("\nrel-tol = 1e-09\n"), std::string::npos);
  // The settlement of the 50 m disk (halfspace.ini: p = 1e5 Pa, E = 5e7 Pa,
  // nu = 0.3) against Timoshenko & Goodier's closed form, at 1e-9.
  const double scale = 2.0 * (1.0 - 0.09) * 1e5 * 50.0 / 5e7;
  const auto table = geobem::read_csv_table((out / "displacement" / "displacement.csv").string(), false, {"status"});
  ASSERT_EQ(table.rows.size(), 6400u);
  for (std::size_t i = 0; i < table.rows.size(); i += 37) {
    const double r = table.rows[i][table.column("r")];
    const double exact = scale * halfspace_disk(50.0, r);
    EXPECT_NEAR(table.rows[i][table.column("u_z")], exact, 1e-9 * exact) << "r = " << r;
  }
}

TEST(RunSh, AnOptionForOneStageAloneIsNamedAsTheCauseDownstream) {
  const auto out = scratch("halfspace_one_stage");
  auto run = run_command(halfspace(out, "--only radii -- --disk-radius 50"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  run = run_command(halfspace(out, "--from integrate"));
  EXPECT_EQ(run.exit_code, 1);
  // Not "stale": both ran just now, with different disks. The message names
  // the line of the INI file that gave the displacement step its disk.
  const std::string ini = std::string(GEOBEM_SOURCE_DIR) + "/workflows/halfspace-load/halfspace.ini";
  const std::string text = read_text(ini);
  const auto line = 1 + std::count(text.begin(), text.begin() + text.find("\ndisk-radius = 100\n") + 1, '\n');
  EXPECT_NE(run.errors.find("the integrals are for a disk of radius a = 50 m, but this step's --disk-radius is 100 m "
                            "(from " + ini + ":" + std::to_string(line) + ")"),
            std::string::npos)
      << run.errors;
  EXPECT_NE(run.errors.find("--set radii,displacement:disk-radius=A"), std::string::npos) << run.errors;
  EXPECT_FALSE(fs::exists(out / "displacement"));
}

TEST(RunSh, RefusesWhatItCannotDo) {
  const std::pair<const char*, const char*> cases[] = {
      {"--set volume:disk-radius=50", "--set 'volume:disk-radius=50': unknown stage 'volume'"},
      {"--only radii --set displacement:disk-radius=50",
       "--set 'displacement:disk-radius=50': stage displacement does not run (this call runs: radii)"},
      {"--set disk-radius=50", "--set 'disk-radius=50': expected STAGE[,STAGE...]:KEY=VALUE"},
      {"--set radii:=50", "--set 'radii:=50': expected an option name after 'radii:'"},
      {"--from radii -- --disk-radius 50", "options after -- need --only STAGE (for several stages: --set"},
      {"--only", "--only needs a value"},
      {"--frm radii", "unknown argument '--frm'"},
  };
  for (const auto& [arguments, expected] : cases) {
    const auto out = scratch("halfspace_refused");
    const auto run = run_command(halfspace(out, arguments));
    EXPECT_EQ(run.exit_code, 2) << arguments;
    EXPECT_NE(run.errors.find(expected), std::string::npos) << arguments << "\n" << run.errors;
    EXPECT_FALSE(fs::exists(out / "radii")) << arguments;
  }
  const auto help = run_command(halfspace(scratch("help"), "--help"));
  EXPECT_EQ(help.exit_code, 0);
}

TEST(MovedRun, ReplaysWhereItNowIs) {
  // A model and its gravity run under runs/a, written as a user would (paths
  // relative to the working folder), copied to a folder whose name holds a
  // '#', the original removed: the copy's records replay there alone.
  const auto root = scratch("moved");
  fs::create_directories(root);
  auto run = run_in(root, bin + "/geobem-model --quiet --generate blocks --block 0,100,0,100,-100,0,300 "
                                "--block 200,300,0,100,-60,-10,-250 --out runs/a/model");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  run = run_in(root, bin + "/geobem-gravity --quiet --device cpu --prisms runs/a/model/prisms.csv --grid-west -50 "
                           "--grid-east 350 --grid-south -50 --grid-north 150 --grid-shape 9,5 --grid-upward 10 "
                           "--out runs/a/gravity");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const std::string record = read_text(root / "runs/a/gravity/geobem-gravity.ini");
  EXPECT_NE(record.find("\nprisms = ../model/prisms.csv\n"), std::string::npos) << record;
  EXPECT_NE(record.find("\nout = ../gravity\n"), std::string::npos) << record;
  const auto before = snapshot(root / "runs/a/gravity");
  fs::copy(root / "runs/a", root / "runs/b#2", fs::copy_options::recursive);
  fs::remove_all(root / "runs/a");
  run = run_in(root, bin + "/geobem-gravity --quiet --config 'runs/b#2/gravity/geobem-gravity.ini'");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_FALSE(fs::exists(root / "runs/a"));                 // nothing read or written there
  EXPECT_EQ(snapshot(root / "runs/b#2/gravity"), before);    // the same bytes, in the copy
  // From another working folder the record names the same files.
  run = run_in(root / "runs", bin + "/geobem-gravity --quiet --config 'b#2/gravity/geobem-gravity.ini'");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_EQ(snapshot(root / "runs/b#2/gravity"), before);
}

TEST(MovedRun, BemStagesReplayWithTheirLoadHistoryFile) {
  const auto root = scratch("moved_bem");
  fs::create_directories(root / "runs/a/histories");
  write_text("moved_bem/runs/a/histories/pulse#1.csv", "time,value\n0,0\n1e-4,1\n2e-4,0\n");
  const std::string rod = " --fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=1e6:1,0,0 "
                          "--young-modulus 2.1e11 --poisson-ratio 0 --density 7850";
  auto run = run_in(root, bin + "/geobem-mesh --quiet --box-lengths 3,1,1 --element-size 5 --output runs/a/rod.vtu");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  run = run_in(root, bin + "/geobem-laplace --quiet --device cpu --mesh runs/a/rod.vtu" + rod +
                         " --beta 0.3 --steps 8 --out runs/a/laplace");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  run = run_in(root, bin + "/geobem-time --quiet --laplace runs/a/laplace --probe-group x_max "
                           "--load-history 'csv:runs/a/histories/pulse#1.csv' --out runs/a/time");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const std::string record = read_text(root / "runs/a/time/geobem-time.ini");
  EXPECT_NE(record.find("\nlaplace = ../laplace\n"), std::string::npos) << record;
  EXPECT_NE(record.find("\nload-history = csv:../histories/pulse\\#1.csv\n"), std::string::npos) << record;
  const auto before = snapshot(root / "runs/a/time");
  fs::copy(root / "runs/a", root / "runs/b", fs::copy_options::recursive);
  fs::remove_all(root / "runs/a");
  run = run_in(root, bin + "/geobem-time --quiet --config runs/b/time/geobem-time.ini");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_FALSE(fs::exists(root / "runs/a"));
  auto after = snapshot(root / "runs/b/time");
  // probes.txt names the manifest it read: the copy's.
  EXPECT_NE(after["probes.txt"].find((root / "runs/b/laplace/manifest.ini").string()), std::string::npos);
  after.erase("probes.txt");
  auto expected = before;
  expected.erase("probes.txt");
  EXPECT_EQ(after, expected);
}

}  // namespace
