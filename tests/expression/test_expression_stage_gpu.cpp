// geobem-integrate on the GPU through the NVRTC kernel cache, as a user runs
// it twice: the first run compiles and writes the entry, the second loads the
// image from it, and a third, after one byte of the entry is changed, is told
// the entry failed its SHA-256 check, compiles again and writes it anew; every
// run's values equal the first's, and the CPU's to rounding. Label gpu: skips
// without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "mesh/io/csv_table.hpp"
#include "tests/support/backend_test.hpp"
#include "tests/support/test_files.hpp"

namespace {

using geobem::test::run_command;
using geobem::test::scratch;
using geobem::test::StageRun;
using geobem::test::write_text;

class ExpressionStageCuda : public geobem::test::CudaTest {};

/// geobem-integrate longman on `device` over rows.csv, kernel cache in `cache`; the run and its values.
std::pair<StageRun, std::vector<double>> longman(const std::string& device, const std::filesystem::path& cache,
                                                 const std::string& name) {
  const auto input = write_text("rows.csv", "a,w\n1,2\n0.5,3\n2,0.25\n");
  const auto output = scratch(name);
  const StageRun run = run_command("GEOBEM_KERNEL_CACHE=" + cache.string() + " " + GEOBEM_INTEGRATE_EXE +
                                   " longman --input " + input.string() +
                                   " --integrand-expression 'exp(-a*x)*(1 + x^2)' --oscillation cos:w --decay-rate a "
                                   "--rel-tol 1e-11 --device " + device + " --output " + output.string());
  std::vector<double> values;
  if (run.exit_code == 0) {
    const auto table = geobem::read_csv_table(output.string(), false, {"status"});
    for (const auto& row : table.rows) values.push_back(row[table.column("value")]);
  }
  return {run, values};
}

}  // namespace

TEST_F(ExpressionStageCuda, KernelFromTheVerifiedCacheMatchesTheCompiledOneAndTheCpu) {
  const auto cache = scratch("kernels");
  const auto [cpu_run, cpu] = longman("cpu", cache, "cpu.csv");
  ASSERT_EQ(cpu_run.exit_code, 0) << cpu_run.errors;
  const auto [compiled_run, compiled] = longman("cuda", cache, "compiled.csv");
  ASSERT_EQ(compiled_run.exit_code, 0) << compiled_run.errors;
  EXPECT_NE(compiled_run.errors.find(" compiled in "), std::string::npos) << compiled_run.errors;
  ASSERT_EQ(compiled.size(), 3u);
  for (std::size_t i = 0; i < cpu.size(); ++i) EXPECT_NEAR(compiled[i], cpu[i], 1e-12 * std::fabs(cpu[i])) << i;

  const auto [cached_run, cached] = longman("cuda", cache, "cached.csv");
  ASSERT_EQ(cached_run.exit_code, 0) << cached_run.errors;
  EXPECT_NE(cached_run.errors.find("read from the cache"), std::string::npos) << cached_run.errors;
  EXPECT_EQ(cached, compiled);

  // One byte of the image changed: detected, compiled again, the entry rewritten.
  std::filesystem::path entry;
  for (const auto& file : std::filesystem::directory_iterator(cache)) entry = file.path();
  ASSERT_EQ(entry.extension(), ".cubin");
  std::string bytes;
  {
    std::ifstream in(entry, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string sound = bytes;
  bytes[bytes.size() - 17] ^= 0x01;
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes;
  const auto [tampered_run, rebuilt] = longman("cuda", cache, "rebuilt.csv");
  ASSERT_EQ(tampered_run.exit_code, 0) << tampered_run.errors;
  EXPECT_NE(tampered_run.errors.find("warning: the kernel cache entry " + entry.string() +
                                     " failed its SHA-256 check"),
            std::string::npos)
      << tampered_run.errors;
  EXPECT_NE(tampered_run.errors.find(" compiled in "), std::string::npos) << tampered_run.errors;
  EXPECT_EQ(rebuilt, compiled);
  std::ifstream in(entry, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()), sound);
}
