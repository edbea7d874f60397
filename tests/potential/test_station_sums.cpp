// The OpenMP side of the source × station launcher and the chunk plan of
// its CUDA side: every source is visited once at every station (exact
// counts, counting_kernel.hpp), on several thread counts, for a pair of
// kernels in one pass, and chunks stay within the memory budget.
#include <gtest/gtest.h>
#include <omp.h>

#include <stdexcept>

#include "gpu/core/resource_error.hpp"
#include "gpu/potential/chunk_plan.hpp"
#include "gpu/potential/kernel_pair.hpp"
#include "gpu/potential/station_sums_cpu.hpp"
#include "tests/potential/counting_kernel.hpp"

namespace geobem::potential {
namespace {

using test::counted_sums;
using test::counted_values;
using test::counting_stations;

TEST(StationSumsCpu, EverySourceOnceAtEveryStation) {
  ProgressReporter quiet("", 1, "", true);
  for (const std::int64_t n : {0, 1, 127, 5003})
    for (const int n_stations : {1, 17, 130}) {
      const auto values = counted_values(n);
      const auto sums = station_sums_cpu(test::CountingView{values.data(), 0}, n, counting_stations(n_stations),
                                         test::CountingKernel{}, quiet);
      EXPECT_EQ(sums, counted_sums(values, n_stations)) << n << " sources, " << n_stations << " stations";
    }
}

TEST(StationSumsCpu, SameSumsOnAnyThreadCount) {
  ProgressReporter quiet("", 1, "", true);
  const auto values = counted_values(2001);
  const int threads = omp_get_max_threads();
  for (const int t : {1, 2, 3}) {
    omp_set_num_threads(t);
    const auto sums = station_sums_cpu(test::CountingView{values.data(), 0}, 2001, counting_stations(50),
                                       test::CountingKernel{}, quiet);
    EXPECT_EQ(last_cpu_thread_count(), t);
    EXPECT_EQ(sums, counted_sums(values, 50));
  }
  omp_set_num_threads(threads);
}

TEST(StationSumsCpu, AKernelPairSumsBothKernelsInOnePass) {
  ProgressReporter quiet("", 1, "", true);
  const auto values = counted_values(1001);
  const auto exact = counted_sums(values, 40);
  using Pair = KernelPair<test::CountingKernel, test::CountingKernel>;
  EXPECT_FALSE(Pair{}.wanted(4));
  EXPECT_TRUE(Pair{}.wanted(5));
  EXPECT_FALSE(Pair{}.wanted(9));
  std::vector<double> second;
  const auto first = split_rows(
      station_sums_cpu(test::CountingView{values.data(), 0}, 1001, counting_stations(40), Pair{}, quiet), 5, 40,
      second);
  EXPECT_EQ(first, exact);
  EXPECT_EQ(second, exact);
}

TEST(StationSumsCpu, ATileBoundCoversWholeTilesOfThirtyTwoSources) {
  ProgressReporter quiet("", 1, "", true);
  for (const std::int64_t n : {0, 1, 31, 32, 33, 1001}) {
    const auto values = counted_values(n);
    const auto sums = station_sums_cpu(test::CountingView{values.data(), 0}, n, counting_stations(7),
                                       test::CountingTileKernel{}, quiet);
    EXPECT_EQ(sums, test::counted_tile_sums(values, 7)) << n << " sources";
  }
}

TEST(ChunkPlan, EverythingAtOnceWhenItFits) {
  const ChunkPlan plan = plan_chunks(1000, 56, 500, 104, 1 << 20);
  EXPECT_EQ(plan.sources_per_chunk, 1000u);
  EXPECT_EQ(plan.stations_per_chunk, 500u);
}

TEST(ChunkPlan, ChunksStayWithinTheBudget) {
  const std::size_t per_station = 24 + 10 * 8;  // a gravity station and its 10 sums
  for (const std::size_t budget : {std::size_t(4096), std::size_t(100000), std::size_t(1) << 24}) {
    const ChunkPlan plan = plan_chunks(1000000, 56, 300000, per_station, budget);
    EXPECT_LE(plan.sources_per_chunk * 56 + plan.stations_per_chunk * per_station, budget);
    EXPECT_GE(plan.sources_per_chunk, 1u);
    EXPECT_GE(plan.stations_per_chunk, 1u);
    EXPECT_GE(plan.stations_per_chunk * per_station, budget / 2 - per_station);  // half the budget for stations
  }
  // Stations fit: all of them in one chunk, the sources share the rest.
  const ChunkPlan few = plan_chunks(1000000, 56, 10, per_station, 56 * 1000 + 10 * per_station);
  EXPECT_EQ(few.stations_per_chunk, 10u);
  EXPECT_EQ(few.sources_per_chunk, 1000u);
  EXPECT_THROW(plan_chunks(10, 56, 10, per_station, 56), geobem::ResourceError);
}

TEST(ChunkPlan, ChunksOfSourcesAreWholeTilesWhenAsked) {
  const std::size_t per_station = 24 + 10 * 8;
  for (const std::size_t budget : {std::size_t(4096), std::size_t(100000), std::size_t(1) << 24}) {
    const ChunkPlan plan = plan_chunks(1000000, 56, 300000, per_station, budget, 32);
    EXPECT_EQ(plan.sources_per_chunk % 32, 0u) << budget;
    EXPECT_GE(plan.sources_per_chunk, 32u);
    EXPECT_LE(plan.sources_per_chunk * 56 + plan.stations_per_chunk * per_station, budget);
  }
  EXPECT_EQ(plan_chunks(1000, 56, 10, per_station, 1 << 20, 32).sources_per_chunk, 1000u);  // all at once
  EXPECT_THROW(plan_chunks(1000, 56, 10, per_station, 2 * per_station + 56 * 20, 32), geobem::ResourceError);
}

}  // namespace
}  // namespace geobem::potential
