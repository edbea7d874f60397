// geobem-laplace with --device cuda against --device cpu (label gpu): the
// Laplace-domain displacements within η = 1e-11 relative (rounding of two
// summation orders and two LU codes), and geobem-time's probes of both within
// the bound the inverse CQ transform allows for that η (tests/bem/test_bem_gpu.cpp
// derives it: ε^{−1/2} · L · η = 1e5 · 41 · 1e-11 ≈ 4e-5 at ε = 1e-10). Then
// geobem-time's receivers (the representation formula's point kernel, one
// source for both) with --device cuda against --device cpu on the same
// Laplace-domain solution: only summation orders differ (η ≈ 1e-13), so
// within 1e5 · 41 · 1e-13 ≈ 4e-7 after the transform.
#include <gtest/gtest.h>

#include "gpu/core/device.hpp"
#include "mesh/io/npy_file.hpp"
#include "tests/stages_bem/bem_stage_support.hpp"
#include "tests/support/backend_test.hpp"

namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::test;

namespace {

class CqStagesGpu : public CudaTest {};

TEST_F(CqStagesGpu, CudaStagesMatchCpuStages) {
  // 112 triangles, 40 steps, ε = 1e-10.
  const auto mesh = write_rod_mesh("rod_gpu.vtu", rod_h112);
  std::vector<double> probes[2];
  std::vector<std::complex<double>> laplace_values[2];
  const char* devices[2] = {"cpu", "cuda"};
  const bem::BemModel model = rod_model(rod_h112);
  const int n = model.unknown_count(), displacements = 3 * static_cast<int>(model.free_nodes.size()),
            frequencies = 21;
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
  for (std::size_t k = 0; k < laplace_values[0].size(); ++k)
    if (static_cast<int>(k % n) < displacements) {
      diff = std::max(diff, std::abs(laplace_values[1][k] - laplace_values[0][k]));
      scale = std::max(scale, std::abs(laplace_values[0][k]));
    }
  EXPECT_LT(diff / scale, 1e-11);
  ASSERT_FALSE(probes[0].empty());
  EXPECT_LT(largest_relative_difference(probes[1], probes[0]), 4e-5);

  // Receivers inside the rod, one 0.1 m under the face z = 1: 0.14 of its
  // elements' longest edge (0.71 m), where the foot-split rule applies (below
  // 0.25) and geobem-time still takes receivers (from 0.05).
  std::vector<double> receivers[2];
  for (int d = 0; d < 2; ++d) {
    const auto out = scratch(std::string("time_receivers_") + devices[d]);
    const auto run = time_stage(scratch("laplace_cpu"), out,
                                std::string("--receiver-line 0.25,0.5,0.5:2.75,0.5,0.5:6 --receiver-grid "
                                            "1.5,0.5,0.9:1.5,0.5,0.9:1,1,1 --device ") +
                                    devices[d]);
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    const CsvTable table = read_csv_table((out / "receivers.csv").string());
    for (std::size_t c = 1; c < table.columns.size(); ++c)
      for (const auto& row : table.rows) receivers[d].push_back(row[c]);
  }
  ASSERT_EQ(receivers[0].size(), 7u * 3u * 41u);
  EXPECT_LT(largest_relative_difference(receivers[1], receivers[0]), 4e-7);
}

}  // namespace
