#include <gtest/gtest.h>

#include <cstddef>
#include <limits>

#include "gpu/core/device_memory_budget.hpp"

namespace {

using geobem::memory_budget;

TEST(MemoryBudget, IsFourFifthsOfTheFreeMemory) {
  EXPECT_EQ(memory_budget(0), 0u);
  EXPECT_EQ(memory_budget(4), 3u);  // floor(3.2)
  EXPECT_EQ(memory_budget(5), 4u);
  EXPECT_EQ(memory_budget(1000), 800u);
  EXPECT_EQ(memory_budget(std::size_t{80} << 30), std::size_t{64} << 30);  // an H100's 80 GiB
  const std::size_t large = (std::size_t{1} << 52) + 3;  // near 2^53: exact floor in integers
  EXPECT_EQ(memory_budget(large), large * 4 / 5);
}

TEST(MemoryBudget, AUserLimitOnlyLowersIt) {
  EXPECT_EQ(memory_budget(1000, 100), 100u);
  EXPECT_EQ(memory_budget(1000, 800), 800u);
  EXPECT_EQ(memory_budget(1000, 900), 800u);
  EXPECT_EQ(memory_budget(1000, std::numeric_limits<std::size_t>::max()), 800u);
  EXPECT_EQ(memory_budget(1000, 0), 800u);  // 0: no limit
}

}  // namespace
