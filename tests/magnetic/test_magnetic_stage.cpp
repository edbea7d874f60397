// geobem-magnetic on VTK voxel models as a user runs it: a rectilinear grid
// (.vtr) and an image (.vti) with cell array `susceptibility`, written here
// as text, against the same cells as a prism CSV with a susceptibility
// column (a separate reader), 1e-14 of each field's largest magnitude. With
// GEOBEM_MPIEXEC (the mpi-labelled build of this file): 2 ranks equal 1 rank
// to 1e-14 and only rank 0 writes. The output set's options record reads
// back through --config; a usage error exits 2 and writes nothing.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/support/station_fields.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

const std::string magnetic_exe = GEOBEM_MAGNETIC_EXE;

// 3 × 2 × 2 cells: easting edges 0, 100, 200, 300; northing 0, 80, 160;
// upward −300, −200, −100 (equal spacings, so the same grid is an image).
const double suscept[12] = {0.01, 0.0, 0.02, 0.005, 0.03, 0.015, 0.0, 0.04, 0.01, 0.02, 0.025, 0.035};

std::string values_text() {
  std::ostringstream text;
  text.precision(17);
  for (double v : suscept) text << v << ' ';
  return text.str();
}

fs::path write_vtr() {
  return write_text("voxels.vtr",
                    "<?xml version=\"1.0\"?>\n<VTKFile type=\"RectilinearGrid\" version=\"0.1\" "
                    "byte_order=\"LittleEndian\">\n<RectilinearGrid WholeExtent=\"0 3 0 2 0 2\">\n"
                    "<Piece Extent=\"0 3 0 2 0 2\">\n<CellData>\n"
                    "<DataArray type=\"Float64\" Name=\"susceptibility\" format=\"ascii\">" + values_text() +
                        "</DataArray>\n</CellData>\n<Coordinates>\n"
                        "<DataArray type=\"Float64\" format=\"ascii\">0 100 200 300</DataArray>\n"
                        "<DataArray type=\"Float64\" format=\"ascii\">0 80 160</DataArray>\n"
                        "<DataArray type=\"Float64\" format=\"ascii\">-300 -200 -100</DataArray>\n"
                        "</Coordinates>\n</Piece>\n</RectilinearGrid>\n</VTKFile>\n");
}

#ifndef GEOBEM_MPIEXEC  // the voxel cases run without MPI only
fs::path write_vti() {
  return write_text("voxels.vti",
                    "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"0.1\" "
                    "byte_order=\"LittleEndian\">\n<ImageData WholeExtent=\"0 3 0 2 0 2\" Origin=\"0 0 -300\" "
                    "Spacing=\"100 80 100\">\n<Piece Extent=\"0 3 0 2 0 2\">\n<CellData>\n"
                    "<DataArray type=\"Float64\" Name=\"susceptibility\" format=\"ascii\">" + values_text() +
                        "</DataArray>\n</CellData>\n</Piece>\n</ImageData>\n</VTKFile>\n");
}

fs::path write_csv() {
  std::ostringstream text;
  text.precision(17);
  text << "west,east,south,north,bottom,top,susceptibility\n";
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i)
        text << 100 * i << ',' << 100 * (i + 1) << ',' << 80 * j << ',' << 80 * (j + 1) << ',' << -300 + 100 * k << ','
             << -200 + 100 * k << ',' << suscept[i + 3 * j + 6 * k] << '\n';
  return write_text("voxels.csv", text.str());
}
#endif

const std::string survey =
    " --grid-west -150 --grid-east 450 --grid-south -120 --grid-north 280 --grid-shape 9,7 --grid-upward 20"
    " --inclination 64 --declination -5 --field-intensity 51000";

StageRun magnetic(const fs::path& model, const fs::path& out, const std::string& launcher = "") {
  return run_command(launcher + magnetic_exe + " --device cpu --prisms " + model.string() + survey + " --out " +
                     out.string());
}

#ifndef GEOBEM_MPIEXEC

TEST(MagneticStage, VoxelModelsEqualTheirPrismCsv) {
  const auto from_csv = scratch("mag_csv"), from_vtr = scratch("mag_vtr"), from_vti = scratch("mag_vti");
  const auto csv = magnetic(write_csv(), from_csv);
  ASSERT_EQ(csv.exit_code, 0) << csv.errors;
  const auto vtr = magnetic(write_vtr(), from_vtr);
  ASSERT_EQ(vtr.exit_code, 0) << vtr.errors;
  EXPECT_NE(vtr.errors.find("10 magnetized prisms"), std::string::npos) << vtr.errors;  // the two zeros dropped
  const auto vti = magnetic(write_vti(), from_vti);
  ASSERT_EQ(vti.exit_code, 0) << vti.errors;
  EXPECT_LE(largest_field_difference(from_vtr / "magnetic.csv", from_csv / "magnetic.csv"), 1e-14);
  EXPECT_LE(largest_field_difference(from_vti / "magnetic.csv", from_csv / "magnetic.csv"), 1e-14);
}

TEST(MagneticStage, VoxelModelWithoutSusceptibilityIsRefused) {
  const auto model = write_text("density_only.vtr",
                                "<?xml version=\"1.0\"?>\n<VTKFile type=\"RectilinearGrid\" version=\"0.1\" "
                                "byte_order=\"LittleEndian\">\n<RectilinearGrid WholeExtent=\"0 1 0 1 0 1\">\n"
                                "<Piece Extent=\"0 1 0 1 0 1\">\n<CellData>\n"
                                "<DataArray type=\"Float64\" Name=\"density\" format=\"ascii\">2670</DataArray>\n"
                                "</CellData>\n<Coordinates>\n<DataArray type=\"Float64\" format=\"ascii\">0 1</DataArray>\n"
                                "<DataArray type=\"Float64\" format=\"ascii\">0 1</DataArray>\n"
                                "<DataArray type=\"Float64\" format=\"ascii\">-1 0</DataArray>\n</Coordinates>\n"
                                "</Piece>\n</RectilinearGrid>\n</VTKFile>\n");
  const auto out = scratch("mag_refused");
  const auto run = magnetic(model, out);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.errors.find("no one-component cell array 'susceptibility' (cell arrays: density)"), std::string::npos)
      << run.errors;
  EXPECT_FALSE(fs::exists(out / "magnetic.csv"));
}

TEST(MagneticStage, TheMainFieldIsRequiredWhereItIsUsed) {
  const std::string grid = " --grid-west -150 --grid-east 450 --grid-south -120 --grid-north 280 --grid-shape 3,3";
  const auto model = write_csv();  // susceptibilities: induced by the main field
  auto run = run_command(magnetic_exe + " --device cpu --fields b_u --prisms " + model.string() + grid +
                         " --inclination 64 --out " + scratch("no_intensity").string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.errors.find("the susceptibilities of " + model.string() + " are magnetized by the main field at the "
                            "site: give --field-intensity, --declination (nT, degrees; e.g. from the IGRF)"),
            std::string::npos)
      << run.errors;
  EXPECT_FALSE(fs::exists(scratch("no_intensity") / "magnetic.csv"));
  // A magnetization of its own needs no field, but the TFA is along it.
  const auto magnetized = write_text("magnetized.csv",
                                     "west,east,south,north,bottom,top,magnetization_e,"
                                     "magnetization_n,magnetization_u\n0,100,0,80,-300,-200,1,0,-2\n");
  run = run_command(magnetic_exe + " --device cpu --prisms " + magnetized.string() + grid + " --out " +
                    scratch("tfa").string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.errors.find("the total-field anomaly (tfa) is along the main field at the site: give --inclination and "
                            "--declination"),
            std::string::npos)
      << run.errors;
  run = run_command(magnetic_exe + " --device cpu --quiet --fields b_e,b_n,b_u --prisms " + magnetized.string() + grid +
                    " --field-intensity 50000 --out " + scratch("no_field").string());
  EXPECT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("warning: --field-intensity is ignored: no prism is magnetized by induction"),
            std::string::npos)
      << run.errors;
}

TEST(MagneticStage, IgnoredOptionsAndUnlikelySusceptibilitiesAreNamed) {
  const auto model = write_csv();
  auto run = run_command(magnetic_exe + " --device cpu --quiet --prisms " + model.string() + survey +
                         " --susceptibility 0.05 --susceptibility-below 0.01 --out " + scratch("ignored").string());
  EXPECT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("geobem-magnetic: warning: --susceptibility is ignored: " + model.string() +
                            " has its own susceptibility column"),
            std::string::npos)
      << run.errors;
  EXPECT_NE(run.errors.find("warning: --susceptibility-below is ignored: it magnetizes the cells of a prism layer"),
            std::string::npos)
      << run.errors;
  EXPECT_EQ(run.errors.find("SI: above"), std::string::npos) << run.errors;  // 0.04 SI at most: plausible
  // Susceptibilities written in 1e-3 SI (35 for 0.035 SI).
  const auto milli = write_text("milli_si.csv", "west,east,south,north,bottom,top,susceptibility\n"
                                                "0,100,0,80,-300,-200,35\n100,200,0,80,-300,-200,0.5\n");
  run = run_command(magnetic_exe + " --device cpu --quiet --prisms " + milli.string() + survey + " --out " +
                    scratch("milli").string());
  EXPECT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("warning: susceptibilities up to 35 SI: above 1 SI"), std::string::npos) << run.errors;
}

TEST(MagneticStage, OptionsRecordReadsBackAndUsageErrorsWriteNothing) {
  const auto first = scratch("mag_record"), again = scratch("mag_record_again"), refused = scratch("mag_usage");
  const auto model = write_csv();
  const auto run = magnetic(model, first);
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const std::string record = read_text(first / "geobem-magnetic.ini");
  EXPECT_NE(record.find("inclination = 64"), std::string::npos) << record;
  // The record alone, as --config, gives the same set (byte for byte).
  const auto rerun = run_command(magnetic_exe + " --config " + (first / "geobem-magnetic.ini").string() + " --out " +
                                 again.string());
  ASSERT_EQ(rerun.exit_code, 0) << rerun.errors;
  EXPECT_EQ(read_text(again / "magnetic.csv"), read_text(first / "magnetic.csv"));
  const auto bad_field = run_command(magnetic_exe + " --device cpu --prisms " + model.string() + survey +
                                     " --fields b_x --out " + refused.string());
  EXPECT_EQ(bad_field.exit_code, 2);
  EXPECT_NE(bad_field.errors.find("b_x"), std::string::npos) << bad_field.errors;
  EXPECT_FALSE(fs::exists(refused / "magnetic.csv"));
}

#else

TEST(MagneticStageMpi, TwoRanksEqualOneAndOnlyRankZeroWrites) {
  const auto one = scratch("mag_mpi_one"), two = scratch("mag_mpi_two");
  const auto model = write_vtr();
  const auto single = magnetic(model, one);
  ASSERT_EQ(single.exit_code, 0) << single.errors;
  const auto ranks = magnetic(model, two, std::string(GEOBEM_MPIEXEC) + " --oversubscribe --allow-run-as-root -np 2 ");
  ASSERT_EQ(ranks.exit_code, 0) << ranks.errors;
  EXPECT_NE(ranks.errors.find("2 rank(s)"), std::string::npos) << ranks.errors;
  EXPECT_LE(largest_field_difference(two / "magnetic.csv", one / "magnetic.csv"), 1e-14);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(two)) ++files;
  EXPECT_EQ(files, 4u);  // magnetic.csv, magnetic.vts, geobem-magnetic.ini and the file list, written once
}

#endif

}  // namespace
