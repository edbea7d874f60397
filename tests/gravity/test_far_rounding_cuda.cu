// The rounding bounds of far sources on the device (far_prism_rounding_bounds
// with the special-function unit's 1/√x and x/y) against the double path's on
// the host: RoundingKernel summed through the launcher for one prism per
// station (each station meets only its own prism), never below the double
// bounds and within the inflation above them, and within float's rounding of
// the host's single-precision path.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpu/core/progress.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cpu.hpp"
#include "gpu/potential/station_sums_cuda.cuh"
#include "tests/gravity/far_cases.hpp"
#include "tests/support/backend_test.hpp"

namespace geobem::gravity {
namespace {

struct NumberedPrism {
  Prism prism;
  int number;
};
struct NumberedStation {
  Station station;
  int number;
};

/// RoundingKernel's six rows for the pair of a station and the prism of the same number.
struct OwnPrismRounding {
  static constexpr int outputs = 2 * rounding_groups;
  GEOBEM_HD bool wanted(int) const { return true; }
  GEOBEM_HD void add(const NumberedPrism& p, const NumberedStation& s, double acc[outputs]) const {
    if (p.number == s.number) RoundingKernel<double>{}.add(p.prism, s.station, acc);
  }
};

class FarRoundingCuda : public ::geobem::test::CudaTest {};

TEST_F(FarRoundingCuda, DeviceFloatBoundsAreAtLeastTheDoubleBoundsAndWithinTheInflation) {
  std::mt19937_64 rng(20261129);
  const int n = 4000;
  std::vector<NumberedPrism> prisms;
  std::vector<NumberedStation> stations;
  std::vector<double> reference(static_cast<std::size_t>(2 * rounding_groups) * n);
  for (int i = 0; i < n; ++i) {
    const test::Case c = test::far_case(rng, test::log_uniform(rng, 0.001, 6));
    prisms.push_back({c.prism, i});
    stations.push_back({c.station, i});
    double e[3];
    double_prism_rounding_bounds<double>(c.rel, c.size, e);
    for (int g = 0; g < rounding_groups; ++g) {
      double acc[2] = {0, 0};
      add_rounding(e[g], acc);
      reference[(2 * g) * n + i] = acc[0];
      reference[(2 * g + 1) * n + i] = acc[1];
    }
  }
  ProgressReporter quiet("", 1, "", true);
  const auto device = potential::station_sums_cuda<128, 0>(prisms, stations, potential::ListChunks{},
                                                           OwnPrismRounding{}, potential::LaunchOptions{}, quiet);
  const auto host = potential::station_sums_cpu(potential::ListView<NumberedPrism>{prisms.data()},
                                                static_cast<std::int64_t>(n), stations, OwnPrismRounding{}, quiet);
  ASSERT_EQ(device.size(), reference.size());
  for (int row = 0; row < 2 * rounding_groups; ++row)
    for (int i = 0; i < n; ++i) {
      SCOPED_TRACE("row " + std::to_string(row) + ", case " + std::to_string(i));
      const std::size_t k = static_cast<std::size_t>(row) * n + i;
      // Squares (even rows) and fourth powers (odd rows) of the bounds.
      const double power = row % 2 == 0 ? 2 : 4;
      ASSERT_GE(device[k], reference[k]);
      ASSERT_LE(device[k], reference[k] * std::pow(1 + 2e-5, power));
      ASSERT_NEAR(device[k], host[k], 4e-6 * power * host[k]);
    }
}

}  // namespace
}  // namespace geobem::gravity
