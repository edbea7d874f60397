#pragma once
// The fixtures of tests that run on a compute backend. A test that needs a
// CUDA device derives from CudaTest and skips without one (CTest label gpu),
// so that `ctest` passes on every machine. A test whose body holds on either
// backend is a TEST_P of a BackendTest suite instantiated with
// GEOBEM_INSTANTIATE_BACKEND(Suite): each test executable is compiled for one
// backend (GEOBEM_TEST_BACKEND, Cpu for labels cpu/mpi, Cuda for label gpu;
// see tests/CMakeLists.txt), so one source runs on the CPU in CI and on the
// GPU in `ctest -L gpu`.
#include <gtest/gtest.h>

#include <string>

#include "gpu/core/device.hpp"

namespace geobem::test {

/// Base of a test that needs a CUDA device: skips from SetUp without one.
class CudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

/// Base of a test suite whose body runs on the backend GetParam(); the CUDA
/// instance skips without a device.
class BackendTest : public ::testing::TestWithParam<ComputeDevice> {
 protected:
  void SetUp() override {
    if (GetParam() == ComputeDevice::Cuda && cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
  ComputeDevice device() const { return GetParam(); }
};

/// "cpu" or "cuda", the instance's name in the test's full name.
inline std::string backend_name(const ::testing::TestParamInfo<ComputeDevice>& info) {
  return to_string(info.param);
}

}  // namespace geobem::test

#ifndef GEOBEM_TEST_BACKEND
#error "GEOBEM_TEST_BACKEND (Cpu or Cuda) is set by geobem_add_test in tests/CMakeLists.txt"
#endif

/// Instantiates the BackendTest suite `suite` on this executable's backend.
#define GEOBEM_INSTANTIATE_BACKEND(suite)                                                    \
  INSTANTIATE_TEST_SUITE_P(Backend, suite, ::testing::Values(::geobem::ComputeDevice::GEOBEM_TEST_BACKEND), \
                           ::geobem::test::backend_name)
