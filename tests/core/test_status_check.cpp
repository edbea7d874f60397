// GEOBEM_CHECK on each CUDA library's status type: success passes, any other
// status throws DeviceError naming the library, the library's name for the
// status, its code, the call's text, file and line. The check is host code
// on status values: no GPU needed (NVRTC's is met through a real compile
// that NVRTC refuses, which needs no GPU either).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/cufft_plan.hpp"
#include "gpu/core/library_handle.hpp"
#include "gpu/core/nvrtc_program.hpp"

namespace {

/// Returns `status` as a library call would.
template <class Status>
Status returns(Status status) {
  return status;
}

/// What `check` throws as DeviceError; "no error" when it throws nothing.
std::string message_of(const std::function<void()>& check) {
  try {
    check();
  } catch (const geobem::DeviceError& error) {
    return error.what();
  }
  return "no error";
}

/// "LIB error NAME (CODE) in `CALL` at <this file>:LINE"
std::string expected(const std::string& head, const std::string& call, int line) {
  return head + " in `" + call + "` at " + __FILE__ + ":" + std::to_string(line);
}

TEST(StatusCheck, SuccessPassesForEveryLibrary) {
  EXPECT_EQ(message_of([] { GEOBEM_CHECK(returns(cudaSuccess)); }), "no error");
  EXPECT_EQ(message_of([] { GEOBEM_CHECK(returns(CUBLAS_STATUS_SUCCESS)); }), "no error");
  EXPECT_EQ(message_of([] { GEOBEM_CHECK(returns(CUSOLVER_STATUS_SUCCESS)); }), "no error");
  EXPECT_EQ(message_of([] { GEOBEM_CHECK(returns(CUFFT_SUCCESS)); }), "no error");
  EXPECT_EQ(message_of([] { GEOBEM_CUDA_CHECK(returns(cudaSuccess)); }), "no error");
  EXPECT_EQ(message_of([] { GEOBEM_CUBLAS_CHECK(returns(CUBLAS_STATUS_SUCCESS)); }), "no error");
}

TEST(StatusCheck, CudaRuntimeStatusesAreNamedByTheRuntime) {
  const int line = __LINE__ + 1;
  const auto what = message_of([] { GEOBEM_CHECK(returns(cudaErrorMemoryAllocation)); });
  EXPECT_EQ(what, expected("CUDA error cudaErrorMemoryAllocation (2)", "returns(cudaErrorMemoryAllocation)", line));
  // The library's own spelling of the alias: the same message.
  const int alias_line = __LINE__ + 1;
  const auto alias = message_of([] { GEOBEM_CUDA_CHECK(returns(cudaErrorInvalidValue)); });
  EXPECT_EQ(alias, expected("CUDA error cudaErrorInvalidValue (1)", "returns(cudaErrorInvalidValue)", alias_line));
}

TEST(StatusCheck, CublasStatusesAreNamedByCublas) {
  const int line = __LINE__ + 1;
  const auto what = message_of([] { GEOBEM_CHECK(returns(CUBLAS_STATUS_NOT_INITIALIZED)); });
  EXPECT_EQ(what, expected("cuBLAS error CUBLAS_STATUS_NOT_INITIALIZED (1)", "returns(CUBLAS_STATUS_NOT_INITIALIZED)",
                           line));
  const int alias_line = __LINE__ + 1;
  const auto alias = message_of([] { GEOBEM_CUBLAS_CHECK(returns(CUBLAS_STATUS_EXECUTION_FAILED)); });
  EXPECT_EQ(alias, expected("cuBLAS error CUBLAS_STATUS_EXECUTION_FAILED (13)",
                            "returns(CUBLAS_STATUS_EXECUTION_FAILED)", alias_line));
}

TEST(StatusCheck, CusolverStatusesAreNamedByTheirEnumSpelling) {
  const int line = __LINE__ + 1;
  const auto what = message_of([] { GEOBEM_CHECK(returns(CUSOLVER_STATUS_INVALID_VALUE)); });
  EXPECT_EQ(what, expected("cuSOLVER error CUSOLVER_STATUS_INVALID_VALUE (3)",
                           "returns(CUSOLVER_STATUS_INVALID_VALUE)", line));
  const int other_line = __LINE__ + 1;
  const auto other = message_of([] { GEOBEM_CHECK(returns(static_cast<cusolverStatus_t>(999))); });
  EXPECT_EQ(other, expected("cuSOLVER error CUSOLVER_STATUS_(other) (999)",
                            "returns(static_cast<cusolverStatus_t>(999))", other_line));
}

TEST(StatusCheck, CufftStatusesAreNamedByTheirEnumSpelling) {
  const int line = __LINE__ + 1;
  const auto what = message_of([] { GEOBEM_CHECK(returns(CUFFT_INVALID_SIZE)); });
  EXPECT_EQ(what, expected("cuFFT error CUFFT_INVALID_SIZE (8)", "returns(CUFFT_INVALID_SIZE)", line));
  const int other_line = __LINE__ + 1;
  const auto other = message_of([] { GEOBEM_CHECK(returns(static_cast<cufftResult>(-7))); });
  EXPECT_EQ(other, expected("cuFFT error CUFFT_(other) (-7)", "returns(static_cast<cufftResult>(-7))", other_line));
}

TEST(StatusCheck, NvrtcStatusesAreNamedByNvrtc) {
  // An option NVRTC does not know: its compile returns NVRTC_ERROR_INVALID_OPTION (5).
  const auto what = message_of([] {
    geobem::nvrtc_compile("k.cu", "extern \"C\" __global__ void k() {}", {}, "sm_90", {"--no-such-option"});
  });
  EXPECT_EQ(what.rfind("NVRTC error NVRTC_ERROR_INVALID_OPTION (5) in `", 0), 0u) << what;
  EXPECT_NE(what.find("nvrtc_program.cpp:"), std::string::npos) << what;
}

}  // namespace
