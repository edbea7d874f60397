// The CSV outputs of the stages start with their header line and read as
// written: numpy.genfromtxt(names=True) finds every header name as a column
// and one record per data row.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

const std::string bin = std::string(GEOBEM_BIN_DIR) + "/";

std::vector<std::string> header_of(const fs::path& csv) {
  std::istringstream text(read_text(csv));
  std::string line, name;
  std::getline(text, line);
  std::vector<std::string> names;
  std::istringstream fields(line);
  while (std::getline(fields, name, ',')) names.push_back(name);
  return names;
}

std::size_t data_rows(const fs::path& csv) {
  std::istringstream text(read_text(csv));
  std::string line;
  std::size_t rows = 0;
  while (std::getline(text, line)) rows += !line.empty();
  return rows - 1;
}

/// The CSVs of a small run of every stage that writes one.
std::vector<fs::path> stage_csvs() {
  const auto out = scratch("csv_outputs");
  fs::remove_all(out);
  const std::string grid = " --grid-west -50 --grid-east 50 --grid-south -50 --grid-north 50 --grid-shape 5,4";
  const std::string load = " --disk-radius 10 --pressure 1e5 --young-modulus 5e7 --poisson-ratio 0.3" + grid;
  const std::vector<std::string> commands = {
      "geobem-model --generate blocks --block 0,10,0,20,-30,0,500 --out " + (out / "model").string(),
      "geobem-gravity --device cpu --prisms " + (out / "model" / "prisms.csv").string() + grid + " --out " +
          (out / "gravity").string(),
      "geobem-halfspace radii" + load + " --out " + (out / "radii").string(),
      "geobem-integrate longman --device cpu --family halfspace-disk --input " + (out / "radii" / "radii.csv").string() +
          " --output " + (out / "integrals.csv").string(),
      "geobem-halfspace displacement" + load + " --integrals " + (out / "integrals.csv").string() + " --out " +
          (out / "displacement").string(),
      "geobem-integrate adaptive --device cpu --integrand sinc --lower 0 --upper 1 --output " +
          (out / "adaptive.csv").string(),
      "geobem-integrate cubature --device cpu --integrand f3 --dim 3 --rel-tol 1e-4 --min-regions 64 --output " +
          (out / "cubature.csv").string(),
      "geobem-mesh --box-lengths 3,1,1 --element-size 5 --output " + (out / "rod.vtu").string(),
      "geobem-laplace --device cpu --mesh " + (out / "rod.vtu").string() +
          " --fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=1e6:1,0,0 --young-modulus 2.1e11 " +
          "--poisson-ratio 0 --density 7850 --beta 0.3 --steps 4 --out " +
          (out / "laplace").string(),
      "geobem-time --laplace " + (out / "laplace").string() + " --probe 3,0.5,0.5 --probe-group x_max " +
          "--closed-form rod --out " + (out / "time").string()};
  for (const auto& command : commands) {
    const auto run = run_command(bin + command + " --quiet");
    EXPECT_EQ(run.exit_code, 0) << command << "\n" << run.errors;
  }
  return {out / "model" / "prisms.csv", out / "gravity" / "gravity.csv", out / "radii" / "radii.csv",
          out / "integrals.csv", out / "displacement" / "displacement.csv", out / "adaptive.csv", out / "cubature.csv",
          out / "time" / "probes.csv"};
}

TEST(StageCsv, NumpyGenfromtxtWithNamesReadsEveryColumn) {
  const std::string python = GEOBEM_PYTHON;
  if (python.empty() || run_command(python + " -c 'import numpy'").exit_code != 0)
    GTEST_SKIP() << "python3-numpy is not installed (scripts/setup.sh installs it)";
  for (const auto& csv : stage_csvs()) {
    SCOPED_TRACE(csv.string());
    ASSERT_NE(read_text(csv).substr(0, 1), "#") << "the first line must be the header";
    // Prints the names numpy found and the row count; every field must parse
    // (dtype=None keeps words, such as a status, as words).
    const auto script = write_text("read_csv.py",
                                   "import sys, numpy\n"
                                   "a = numpy.atleast_1d(numpy.genfromtxt(sys.argv[1], delimiter=',', names=True, "
                                   "dtype=None, encoding='utf-8', invalid_raise=True))\n"
                                   "open(sys.argv[2], 'w').write(','.join(a.dtype.names) + '\\n' + str(len(a)) + '\\n')\n");
    const auto listing = scratch("numpy_names.txt");
    const auto run = run_command(python + " " + script.string() + " " + csv.string() + " " + listing.string());
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    std::string expected;
    for (const auto& name : header_of(csv)) expected += (expected.empty() ? "" : ",") + name;
    EXPECT_EQ(read_text(listing), expected + "\n" + std::to_string(data_rows(csv)) + "\n");
  }
}

}  // namespace
