// The CUDA side of the source × station launcher against the OpenMP side
// and the exact counts (counting_kernel.hpp): every source once at every
// station, rows not wanted left zero, in several launch shapes (with and
// without a register cap), few and many blocks per SM, and a device memory
// limit that splits sources and stations into chunks; a pair of kernels in
// one pass.
#include <gtest/gtest.h>

#include <tuple>

#include "gpu/potential/kernel_pair.hpp"
#include "gpu/potential/kernel_shape.hpp"
#include "gpu/potential/station_sums_cpu.hpp"
#include "gpu/potential/station_sums_cuda.cuh"
#include "tests/potential/counting_kernel.hpp"
#include "tests/support/backend_test.hpp"

namespace geobem::potential {
namespace {

class StationSumsCuda : public test::CudaTest {};

using TestedShapes = std::tuple<Shape<128, 0>, Shape<32, 0>, Shape<64, 112>>;

/// station_sums_cuda of `kernel` over `values` at `stations` in every tested
/// shape, with 1 and 64 blocks per SM, without a memory limit and with about
/// 600 sources and 60 stations per chunk: each equal to the CPU's sums `cpu`.
template <typename Kernel, typename Station>
void expect_every_launch_matches(const std::vector<double>& values, const std::vector<Station>& stations,
                                 const Kernel& kernel, const std::vector<double>& cpu) {
  ProgressReporter quiet("", 1, "", true);
  const auto make_view = [](const double* chunk, std::int64_t first) { return test::CountingView{chunk, first}; };
  for (const KernelShape& shape : shape_values(TestedShapes{}))
    for (const int blocks_per_sm : {1, 64})
      for (const std::size_t limit : {std::size_t(0), std::size_t(600 * 8 + 60 * (8 + 5 * 8))}) {
        std::vector<double> gpu;
        ASSERT_TRUE(in_shape(TestedShapes{}, shape, [&](auto compiled) {
          using S = decltype(compiled);
          gpu = station_sums_cuda<S::block, S::max_registers>(values, stations, make_view, kernel,
                                                              LaunchOptions{blocks_per_sm, limit}, quiet);
        }));
        EXPECT_EQ(gpu, cpu) << values.size() << " sources, " << stations.size() << " stations, shape "
                            << shape.block_size << "/" << shape.max_registers << ", " << blocks_per_sm
                            << " blocks per SM, limit " << limit;
      }
}

TEST_F(StationSumsCuda, EverySourceOnceAtEveryStationInEveryShapeAndChunking) {
  ProgressReporter quiet("", 1, "", true);
  for (const std::int64_t n : {1, 127, 5003})
    for (const int n_stations : {1, 130, 1000}) {
      const auto values = test::counted_values(n);
      const auto stations = test::counting_stations(n_stations);
      const auto exact = test::counted_sums(values, n_stations);
      const auto cpu =
          station_sums_cpu(test::CountingView{values.data(), 0}, n, stations, test::CountingKernel{}, quiet);
      ASSERT_EQ(cpu, exact);
      expect_every_launch_matches(values, stations, test::CountingKernel{}, cpu);
    }
}

TEST_F(StationSumsCuda, AKernelPairSumsBothKernelsInOnePassAsTheCpu) {
  ProgressReporter quiet("", 1, "", true);
  const auto values = test::counted_values(3001);
  const auto stations = test::counting_stations(300);
  const auto make_view = [](const double* chunk, std::int64_t first) { return test::CountingView{chunk, first}; };
  using Pair = KernelPair<test::CountingKernel, test::CountingKernel>;
  const auto cpu = station_sums_cpu(test::CountingView{values.data(), 0}, 3001, stations, Pair{}, quiet);
  const auto gpu = station_sums_cuda<64, 112>(values, stations, make_view, Pair{}, LaunchOptions{}, quiet);
  EXPECT_EQ(gpu, cpu);
  std::vector<double> second;
  EXPECT_EQ(split_rows(gpu, 5, 300, second), test::counted_sums(values, 300));
  EXPECT_EQ(second, test::counted_sums(values, 300));
}

TEST_F(StationSumsCuda, ATileBoundCoversTheSameTilesAsTheCpuInEveryShapeAndChunking) {
  ProgressReporter quiet("", 1, "", true);
  for (const std::int64_t n : {1, 33, 5003})
    for (const int n_stations : {1, 130}) {
      const auto values = test::counted_values(n);
      const auto stations = test::counting_stations(n_stations);
      const auto cpu = station_sums_cpu(test::CountingView{values.data(), 0}, n, stations,
                                        test::CountingTileKernel{}, quiet);
      ASSERT_EQ(cpu, test::counted_tile_sums(values, n_stations));
      expect_every_launch_matches(values, stations, test::CountingTileKernel{}, cpu);
    }
}

TEST_F(StationSumsCuda, NoSourcesOrStationsGiveZeroRows) {
  ProgressReporter quiet("", 1, "", true);
  const auto make_view = [](const double* chunk, std::int64_t first) { return test::CountingView{chunk, first}; };
  const auto none = station_sums_cuda<128, 0>(std::vector<double>{}, test::counting_stations(3), make_view,
                                              test::CountingKernel{}, LaunchOptions{}, quiet);
  EXPECT_EQ(none, std::vector<double>(15, 0.0));
  const auto no_stations = station_sums_cuda<128, 0>(test::counted_values(10), std::vector<test::CountingStation>{},
                                                     make_view, test::CountingKernel{}, LaunchOptions{}, quiet);
  EXPECT_TRUE(no_stations.empty());
}

}  // namespace
}  // namespace geobem::potential
