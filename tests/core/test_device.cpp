#include <gtest/gtest.h>

#include <omp.h>

#include <set>

#include "gpu/core/device.hpp"

namespace {

TEST(Device, ParsesChoices) {
  EXPECT_EQ(geobem::parse_device_choice("auto"), geobem::DeviceChoice::Auto);
  EXPECT_EQ(geobem::parse_device_choice("cpu"), geobem::DeviceChoice::Cpu);
  EXPECT_EQ(geobem::parse_device_choice("cuda"), geobem::DeviceChoice::Cuda);
  EXPECT_THROW(geobem::parse_device_choice("gpu0"), std::invalid_argument);
}

TEST(Device, AutoFollowsDeviceCount) {
  const int count = geobem::cuda_device_count();
  EXPECT_GE(count, 0);
  const auto device = geobem::resolve_device(geobem::DeviceChoice::Auto);
  EXPECT_EQ(device, count > 0 ? geobem::ComputeDevice::Cuda : geobem::ComputeDevice::Cpu);
  EXPECT_EQ(geobem::resolve_device(geobem::DeviceChoice::Cpu), geobem::ComputeDevice::Cpu);
  if (count == 0) EXPECT_THROW(geobem::resolve_device(geobem::DeviceChoice::Cuda), std::runtime_error);
}

TEST(Device, OpenMpRunsSeveralThreadsWhereCoresAllow) {
  std::set<int> seen;
#pragma omp parallel
  {
#pragma omp critical
    seen.insert(omp_get_thread_num());
  }
  EXPECT_EQ(static_cast<int>(seen.size()), geobem::cpu_thread_count());
  if (omp_get_num_procs() > 1) EXPECT_GT(geobem::cpu_thread_count(), 1);
}

}  // namespace
