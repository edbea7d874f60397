// geobem-laplace with --device cuda against --device cpu (label gpu): the
// Laplace-domain solutions within 1e-12 relative (rounding of two summation
// orders and two LU codes), and geobem-time's probes of both within the bound
// the inverse CQ transform allows (tests/bem/test_bem_gpu.cpp derives it:
// ε^{−1/2} · L · η, here 1e5 · 41 · 1e-12 ≈ 4e-6 at ε = 1e-10).
#include <gtest/gtest.h>

#include "gpu/core/device.hpp"
#include "mesh/io/npy_file.hpp"
#include "tests/stages_bem/bem_stage_support.hpp"

namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::test;

namespace {

class CqStagesGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

TEST_F(CqStagesGpu, CudaStagesMatchCpuStages) {
  // 112 triangles, 40 steps, ε = 1e-10.
  const auto mesh = write_rod_mesh("rod_gpu.vtu", rod_h112);
  std::vector<double> probes[2];
  std::vector<std::complex<double>> laplace_values[2];
  const char* devices[2] = {"cpu", "cuda"};
  const int n = rod_model(rod_h112).unknown_count(), frequencies = 21;
  for (int d = 0; d < 2; ++d) {
    const auto lap = scratch(std::string("laplace_") + devices[d]), out = scratch(std::string("time_") + devices[d]);
    auto run = laplace(mesh, lap, std::string("--beta 0.3 --steps 40 --device ") + devices[d]);
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    laplace_values[d].resize(static_cast<std::size_t>(n) * frequencies);
    const auto file = lap / "laplace_case0.npy";
    read_npy_complex(file, n, frequencies, file_crc32(file), {{laplace_values[d].data(), laplace_values[d].size()}});
    run = time_stage(lap, out, "--probe-group x_max --probe 1.5,0,0.5");
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    const CsvTable table = read_csv_table((out / "probes.csv").string());
    for (const char* name : {"probe0_u_x", "probe1_u_x", "probe1_u_z"})
      for (double value : column(table, name)) probes[d].push_back(value);
  }
  double diff = 0, scale = 0;
  for (int i = 0; i < 3 * (n / 3); ++i) {
    diff = std::max(diff, std::abs(laplace_values[1][i] - laplace_values[0][i]));
    scale = std::max(scale, std::abs(laplace_values[0][i]));
  }
  EXPECT_LT(diff / scale, 1e-12);
  ASSERT_FALSE(probes[0].empty());
  EXPECT_LT(relative_difference(probes[1], probes[0]), 4e-6);
}

}  // namespace
