// geobem-assemble and geobem-solve with --device cuda against --device cpu
// (label gpu): the same probes and time steps within 1e-10 relative.
#include <gtest/gtest.h>

#include "gpu/core/device.hpp"
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
  // 112 triangles, 40 steps. ε = 1e-6: with 1e-10 the inverse transform's
  // R^{−N} = ε^{−1/2} lifts rounding differences of the two paths to ~1e-9.
  const auto mesh = write_rod_mesh("rod_gpu.vtu", 0.7072);
  std::vector<double> probes[2], last[2];
  const char* devices[2] = {"cpu", "cuda"};
  for (int d = 0; d < 2; ++d) {
    const auto systems = scratch(std::string("systems_") + devices[d]), out = scratch(std::string("out_") + devices[d]);
    const std::string device = std::string(" --device ") + devices[d];
    auto run = assemble(mesh, systems, "--beta 0.3 --steps 40 --epsilon 1e-6" + device);
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    run = solve(systems, out, "--probe-group x_max --probe 1.5,0,0.5" + device);
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    const CsvTable table = read_csv_table((out / "probes.csv").string());
    for (const char* name : {"probe0_u_x", "probe0_u_y", "probe1_u_x", "probe1_u_z"})
      for (double value : column(table, name)) probes[d].push_back(value);
    last[d] = step_displacement(out / "solution" / "step_00040.vtu");
  }
  ASSERT_FALSE(probes[0].empty());
  EXPECT_LT(relative_difference(probes[1], probes[0]), 1e-10);
  EXPECT_LT(relative_difference(last[1], last[0]), 1e-10);
}

}  // namespace
