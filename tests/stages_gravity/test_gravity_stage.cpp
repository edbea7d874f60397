// geobem-gravity as a user runs it: every bad-input case
// (message, non-zero exit, nothing written or overwritten) and small runs
// checked against the far field of a point mass.
#include <gtest/gtest.h>

#include <vtkCellType.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>

#include <cmath>
#include <functional>
#include <utility>

#include "mesh/io/csv_table.hpp"
#include "mesh/io/vtk_output.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

const std::string gravity_exe = GEOBEM_GRAVITY_EXE;
const char* const header = "west,east,south,north,bottom,top,density\n";

struct BadGravityRun {
  const char* name;
  const char* prisms_rows;  // rows after the header and one good row (bad row on line 3)
  const char* arguments;    // besides --prisms and --out
  int exit_code;
  const char* expected;     // part of the message; PRISMS stands for the prism file's name
};

class GravityStageBad : public ::testing::TestWithParam<BadGravityRun> {};

TEST_P(GravityStageBad, ExitsNonZeroNamesTheProblemLeavesTheEarlierSet) {
  const BadGravityRun& c = GetParam();
  const auto prisms = write_text(std::string("bad_gravity_") + c.name + ".csv",
                                 std::string(header) + "0,10,0,10,-10,0,100\n" + c.prisms_rows);
  const auto out = scratch(std::string("bad_gravity_out_") + c.name);
  const auto good = write_text("good_gravity.csv", std::string(header) + "0,10,0,10,-10,0,100\n");
  const auto earlier = run_command(gravity_exe + " --quiet --device cpu --fields g_z --prisms " + good.string() +
                                   " --grid-west 0 --grid-east 10 --grid-south 0 --grid-north 10 --grid-shape 2,2"
                                   " --out " + out.string());
  ASSERT_EQ(earlier.exit_code, 0) << earlier.errors;
  const auto before = snapshot(out);
  std::string prisms_argument = prisms.string();
  if (std::string(c.name) == "missing_prisms") prisms_argument = "/nonexistent/prisms.csv";
  const auto run = run_command(gravity_exe + " --prisms " + prisms_argument + " --out " + out.string() +
                               " --device cpu " + c.arguments);
  std::string expected = c.expected;
  if (const auto at = expected.find("PRISMS"); at != std::string::npos) expected.replace(at, 6, prisms.string());
  EXPECT_EQ(run.exit_code, c.exit_code) << run.errors;
  EXPECT_NE(run.errors.find(expected), std::string::npos) << run.errors;
  EXPECT_EQ(snapshot(out), before);
  EXPECT_TRUE(leftovers(out.parent_path()).empty());
}

const char* const grid = "--grid-west 0 --grid-east 10 --grid-south 0 --grid-north 10 --grid-shape 3,3 --grid-upward 5";

INSTANTIATE_TEST_SUITE_P(
    Cases, GravityStageBad,
    ::testing::Values(
        BadGravityRun{"west_east", "5,1,0,10,-10,0,100\n", grid, 1, "PRISMS:3: west (5) must be less than east (1)"},
        BadGravityRun{"south_north", "0,1,10,10,-10,0,100\n", grid, 1, "PRISMS:3: south (10) must be less than north (10)"},
        BadGravityRun{"bottom_top", "0,1,0,1,0,-10,100\n", grid, 1, "PRISMS:3: bottom (0) must be less than top (-10)"},
        BadGravityRun{"non_finite", "0,1,0,1,-1,0,nan\n", grid, 1, "PRISMS:3: column 'density': 'nan' is not a number"},
        BadGravityRun{"malformed", "0,1,0,1,-1\n", grid, 1, "PRISMS:3: expected 7 fields, found 5"},
        BadGravityRun{"missing_prisms", "", grid, 1, "/nonexistent/prisms.csv: no such file"},
        BadGravityRun{"missing_stations", "", "--stations /nonexistent/stations.csv", 1,
                      "/nonexistent/stations.csv: no such file"},
        BadGravityRun{"zero_grid", "",
                      "--grid-west 0 --grid-east 10 --grid-south 0 --grid-north 10 --grid-shape 0,100", 2,
                      "shape 0,100 has no stations"},
        BadGravityRun{"unknown_field", "", "--fields g_z,g_q " "--grid-west 0 --grid-east 10 --grid-south 0 "
                      "--grid-north 10 --grid-shape 3,3", 2, "g_q"},
        BadGravityRun{"bad_precision", "", "--precision quad --grid-west 0 --grid-east 10 --grid-south 0 "
                      "--grid-north 10 --grid-shape 3,3", 2, "quad"},
        BadGravityRun{"no_stations", "", "--grid-west 0", 2, "missing --grid-east"},
        BadGravityRun{"both_stations", "", "--stations s.csv --grid-west 0", 2, "one of --stations, --stations-on-dem and the --grid-*"}),
    CaseName());

TEST(GravityStage, CubeFarAwayActsLikeAPointMass) {
  // A 100 m cube of 1000 kg/m³ centred at (0, 0, -50); stations 10 km away.
  // A cube has no quadrupole moment, so the point-mass field G·M/r² holds to
  // about (a/r)⁴ = 1e-8 relative.
  const auto prisms = write_text("cube.csv", std::string(header) + "-50,50,-50,50,-100,0,1000\n");
  const auto stations = write_text("far.csv", "easting,northing,upward\n0,0,9950\n10000,0,-50\n");
  const auto out = scratch("cube_out");
  const auto run = run_command(gravity_exe + " --quiet --device cpu --fields g_z,potential,g_e --prisms " +
                               prisms.string() + " --stations " + stations.string() + " --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const geobem::CsvTable table = geobem::read_csv_table((out / "gravity.csv").string());
  EXPECT_EQ(table.columns, (std::vector<std::string>{"easting", "northing", "upward", "potential", "g_e", "g_z"}));
  ASSERT_EQ(table.rows.size(), 2u);
  const double gm = 6.67430e-11 * 1000 * 1e6, r = 1e4;
  EXPECT_NEAR(table.rows[0][3] / (gm / r), 1.0, 1e-6);              // potential, J/kg
  EXPECT_NEAR(table.rows[0][5] / (gm / (r * r) * 1e5), 1.0, 1e-6);   // station above: pull down, g_z > 0
  EXPECT_NEAR(table.rows[1][4] / (-gm / (r * r) * 1e5), 1.0, 1e-6);  // station east: g_e points west
  EXPECT_NEAR(table.rows[1][5], 0.0, 1e-9);

  const auto data = geobem::read_vtk_xml(out / "gravity.vtu");
  auto* vtu = vtkUnstructuredGrid::SafeDownCast(data);
  ASSERT_NE(vtu, nullptr);
  ASSERT_EQ(vtu->GetNumberOfCells(), 2);
  EXPECT_EQ(vtu->GetCellType(0), VTK_VERTEX);
  EXPECT_EQ(vtu->GetPointData()->GetArray("g_z")->GetComponent(0, 0), table.rows[0][5]);
  EXPECT_FALSE(fs::exists(out / "gravity.vts"));
}

TEST(GravityStage, SinglePrecisionThatNoStationCanUseNeedsForce) {
  // A 10 m cube and stations 1e5 sides away: single precision's estimated
  // error exceeds 1e-3 everywhere. Refused (exit 2, nothing written) unless
  // --force; forced, the warning counts the stations and names the estimate.
  const auto prisms = write_text("small_cube.csv", std::string(header) + "0,10,0,10,-10,0,1000\n");
  const auto stations = write_text("very_far.csv", "easting,northing,upward\n5e5,3e5,1e5\n-4e5,2e5,3e5\n");
  const auto out = scratch("single_out");
  const std::string common = gravity_exe + " --quiet --device cpu --fields g_z --precision single --prisms " +
                             prisms.string() + " --stations " + stations.string() + " --out " + out.string();
  const auto refused = run_command(common);
  EXPECT_EQ(refused.exit_code, 2) << refused.errors;
  EXPECT_NE(refused.errors.find("single precision cannot give a relative accuracy of 0.001 at any station"),
            std::string::npos)
      << refused.errors;
  EXPECT_FALSE(fs::exists(out / "gravity.csv"));
  const auto forced = run_command(common + " --force");
  ASSERT_EQ(forced.exit_code, 0) << forced.errors;
  EXPECT_NE(forced.errors.find("warning: 2 station(s) miss the relative accuracy of 0.001 that single precision"),
            std::string::npos)
      << forced.errors;
  EXPECT_TRUE(fs::exists(out / "gravity.csv"));
}

TEST(GravityStage, StationsOnTheModelGetTheLimitFromOutside) {
  // Prism 0,1,0,1,0,1 at 1000 kg/m³: on its top face g_zz is 365.601710 E
  // (the limit from above; the mean of the two sides would be −53.757 E), on
  // an edge NaN with a warning.
  const auto prisms = write_text("unit_cube.csv", std::string(header) + "0,1,0,1,0,1,1000\n");
  const auto stations = write_text("on_cube.csv", "easting,northing,upward\n0.5,0.5,1\n1,0.5,1\n");
  const auto out = scratch("on_cube_out");
  const auto run = run_command(gravity_exe + " --quiet --device cpu --fields g_zz --prisms " + prisms.string() +
                               " --stations " + stations.string() + " --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("warning: g_zz is undefined (NaN) at 1 station(s) on an edge or vertex of the model"),
            std::string::npos)
      << run.errors;
  const geobem::CsvTable table = geobem::read_csv_table((out / "gravity.csv").string(), true);
  EXPECT_NEAR(table.rows[0][3], 365.601710, 5e-7);
  EXPECT_TRUE(std::isnan(table.rows[1][3]));
}

TEST(GravityStage, ZeroDensityModelGivesZeroFields) {
  const auto prisms = write_text("empty.csv", std::string(header) + "0,1,0,1,-1,0,0\n");
  const auto out = scratch("empty_out");
  const auto run = run_command(gravity_exe + " --device cpu --prisms " + prisms.string() + " --out " + out.string() +
                               " --grid-west 0 --grid-east 1 --grid-south 0 --grid-north 1 --grid-shape 2,2");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("0 prisms"), std::string::npos) << run.errors;
  EXPECT_NE(run.errors.find("1 of zero density left out"), std::string::npos) << run.errors;
  const geobem::CsvTable table = geobem::read_csv_table((out / "gravity.csv").string());
  ASSERT_EQ(table.columns.size(), 13u);
  for (const auto& row : table.rows)
    for (std::size_t j = 3; j < row.size(); ++j) EXPECT_EQ(row[j], 0.0);
}

}  // namespace

namespace {

// Files saved by Windows editors (Notepad, Excel's "CSV UTF-8"): a UTF-8
// byte-order mark first and CR LF line ends, in the prism CSV, the station
// CSV and the --config INI of both stages. The runs equal those of the same
// files without them, byte for byte.
std::string windows_text(const std::string& text) {
  std::string crlf = "\xEF\xBB\xBF";
  for (const char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return crlf;
}

TEST(GravityStage, WindowsTextInputsReadAsTheirPlainForms) {
  const std::string prisms = std::string(header) + "0,10,0,10,-10,0,100\n200,215,0,30,-40,-10,-250\n";
  const std::string stations = "easting,northing,upward\n# a comment line\n5,5,1\n100,-30,20\n";
  const auto outputs = [&](const std::string& tag, const std::function<std::string(const std::string&)>& form) {
    const auto prism_file = write_text("text_prisms_" + tag + ".csv", form(prisms));
    const auto station_file = write_text("text_stations_" + tag + ".csv", form(stations));
    const auto model_ini = write_text("text_model_" + tag + ".ini", form("# the model\ninput = " +
                                                                          prism_file.string() + "\n"));
    const auto gravity_ini = write_text("text_gravity_" + tag + ".ini",
                                        form("fields = g_z,g_zz\ndevice = cpu\nstations = " + station_file.string() +
                                             "\n"));
    const auto model_out = scratch("text_model_out_" + tag), gravity_out = scratch("text_gravity_out_" + tag);
    auto run = run_command(std::string(GEOBEM_MODEL_EXE) + " --quiet --config " + model_ini.string() + " --out " +
                           model_out.string());
    EXPECT_EQ(run.exit_code, 0) << run.errors;
    run = run_command(gravity_exe + " --quiet --config " + gravity_ini.string() + " --prisms " +
                      (model_out / "prisms.csv").string() + " --out " + gravity_out.string());
    EXPECT_EQ(run.exit_code, 0) << run.errors;
    return std::make_pair(read_text(model_out / "prisms.csv"), read_text(gravity_out / "gravity.csv"));
  };
  const auto plain = outputs("plain", [](const std::string& text) { return text; });
  const auto windows = outputs("windows", windows_text);
  EXPECT_EQ(windows, plain);
  const geobem::CsvTable table = geobem::read_csv_table((scratch("text_gravity_out_windows") / "gravity.csv").string());
  EXPECT_EQ(table.columns, (std::vector<std::string>{"easting", "northing", "upward", "g_z", "g_zz"}));
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_GT(table.rows[0][3], 0.0);  // above the positive prism: pulled down
}

TEST(GravityStage, DensitiesThatLookLikeGramsPerCubicCentimetreDrawAWarning) {
  // SimPEG users write 2.67 (g/cm^3); contrasts of tens of kg/m^3 are ordinary.
  const auto grams = write_text("grams.csv", std::string(header) + "0,10,0,10,-10,0,2.67\n20,30,0,10,-10,0,-0.3\n");
  const auto contrasts =
      write_text("contrasts.csv", std::string(header) + "0,10,0,10,-10,0,50\n20,30,0,10,-10,0,-12\n");
  auto run = run_command(gravity_exe + " --quiet --device cpu --fields g_z --prisms " + grams.string() + " " + grid +
                         " --out " + scratch("grams_out").string());
  EXPECT_EQ(run.exit_code, 0) << run.errors;  // a warning, not a refusal: kg/m^3 contrasts this small exist
  EXPECT_NE(run.errors.find("geobem-gravity: warning: the densities of " + grams.string() +
                            " are at most 2.67 kg/m^3 in magnitude: densities are kg/m^3, so if these are g/cm^3 the "
                            "fields are 1000 times too small (2.67 g/cm^3 = 2670 kg/m^3)"),
            std::string::npos)
      << run.errors;
  run = run_command(gravity_exe + " --quiet --device cpu --fields g_z --prisms " + contrasts.string() + " " + grid +
                    " --out " + scratch("contrasts_out").string());
  EXPECT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_EQ(run.errors, "");
  // The model stage warns as it writes such a model.
  run = run_command(std::string(GEOBEM_MODEL_EXE) + " --quiet --generate blocks --block 0,10,0,10,-10,0,0.4 --out " +
                    scratch("grams_model").string());
  EXPECT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("geobem-model: warning: the densities of "), std::string::npos) << run.errors;
  EXPECT_NE(run.errors.find("are at most 0.4 kg/m^3"), std::string::npos) << run.errors;
}

}  // namespace
