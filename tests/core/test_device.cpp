#include <gtest/gtest.h>

#include <omp.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "gpu/core/device.hpp"
#include "tests/support/test_files.hpp"

namespace {

/// NVIDIA GPU device nodes (/dev/nvidia0, /dev/nvidia1, ...): a process sees
/// at most this many CUDA devices, and none without them.
int gpu_device_nodes() {
  int nodes = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", error))
    if (std::regex_match(entry.path().filename().string(), std::regex("nvidia[0-9]+"))) ++nodes;
  return nodes;
}

TEST(Device, ParsesChoices) {
  EXPECT_EQ(geobem::parse_device_choice("auto"), geobem::DeviceChoice::Auto);
  EXPECT_EQ(geobem::parse_device_choice("cpu"), geobem::DeviceChoice::Cpu);
  EXPECT_EQ(geobem::parse_device_choice("cuda"), geobem::DeviceChoice::Cuda);
  EXPECT_THROW(geobem::parse_device_choice("gpu0"), std::invalid_argument);
}

TEST(Device, CountIsBoundedByTheDeviceNodes) {
  // Without a driver cudaGetDeviceCount leaves its output unset: a count read
  // from it uninitialised would exceed the nodes there are (none in CI).
  const int count = geobem::cuda_device_count();
  EXPECT_LE(count, gpu_device_nodes());
  if (!geobem::cuda_built()) {
    EXPECT_EQ(count, 0);
  }
}

TEST(Device, AutoFollowsDeviceCount) {
  const int count = geobem::cuda_device_count();
  const auto device = geobem::resolve_device(geobem::DeviceChoice::Auto);
  EXPECT_EQ(device, count > 0 ? geobem::ComputeDevice::Cuda : geobem::ComputeDevice::Cpu);
  EXPECT_EQ(geobem::resolve_device(geobem::DeviceChoice::Cpu), geobem::ComputeDevice::Cpu);
}

TEST(Device, CudaWithoutADeviceIsRefusedSayingWhy) {
  if (geobem::cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  const std::string message =
      geobem::test::error_of([] { geobem::resolve_device(geobem::DeviceChoice::Cuda); });
  EXPECT_NE(message.find("--device cuda"), std::string::npos) << message;
  EXPECT_NE(message.find(geobem::cuda_built() ? "no CUDA device" : "built without CUDA"), std::string::npos)
      << message;
}

TEST(Device, OpenMpRunsSeveralThreadsWhereCoresAllow) {
  std::set<int> seen;
#pragma omp parallel
  {
#pragma omp critical
    seen.insert(omp_get_thread_num());
  }
  EXPECT_EQ(static_cast<int>(seen.size()), geobem::cpu_thread_count());
  if (omp_get_num_procs() > 1) {
    EXPECT_GT(geobem::cpu_thread_count(), 1);
  }
}

}  // namespace
