// The tunnel-blast workflow's coarse case (coarse_tunnel.hpp) with
// --device cuda against --device cpu (label gpu): an unbounded solid, a
// pressure load and 250 receivers, where test_cq_stages_gpu.cpp runs the
// rod's body. The laplace stages' solutions differ by the rounding of two LU
// codes (η ≈ 1e-11 relative, as on the rod), which the inverse CQ transform
// amplifies at most ε^{−1/2} · L times (tests/bem/test_bem_gpu.cpp derives
// it): 1e5 · 38 · 1e-11 ≈ 4e-5 at ε = 1e-10 and 37 steps, for the wall
// probes and the receivers alike.
#include <gtest/gtest.h>

#include "tests/stages_bem/bem_stage_support.hpp"
#include "tests/stages_bem/coarse_tunnel.hpp"
#include "tests/support/backend_test.hpp"

namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::test;

namespace {

class TunnelWorkflowGpu : public CudaTest {};

/// Every column of a CSV table but the first (time), one after the other.
std::vector<double> series_of(const fs::path& csv) {
  const CsvTable table = read_csv_table(csv.string());
  std::vector<double> values;
  for (std::size_t c = 1; c < table.columns.size(); ++c)
    for (const auto& row : table.rows) values.push_back(row[c]);
  return values;
}

TEST_F(TunnelWorkflowGpu, CudaStagesMatchCpuStages) {
  std::vector<double> probes[2], receivers[2];
  const char* devices[2] = {"cpu", "cuda"};
  for (int d = 0; d < 2; ++d) {
    const fs::path out = scratch(std::string("tunnel_") + devices[d]);
    run_coarse_tunnel(out, devices[d]);
    if (HasFatalFailure()) return;
    probes[d] = series_of(out / "time" / "probes.csv");
    receivers[d] = series_of(out / "time" / "receivers.csv");
  }
  ASSERT_EQ(probes[0].size(), 4u * 3u * 38u);
  ASSERT_EQ(receivers[0].size(), 250u * 3u * 38u);
  EXPECT_LT(largest_relative_difference(probes[1], probes[0]), 4e-5);
  EXPECT_LT(largest_relative_difference(receivers[1], receivers[0]), 4e-5);
}

}  // namespace
