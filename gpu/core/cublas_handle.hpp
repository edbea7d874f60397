#pragma once
// CublasHandle: a move-only cuBLAS handle, destroyed when it goes out of
// scope, so that an owner whose constructor throws after creating it leaks
// nothing. Usable from .cu and .cpp files.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "gpu/core/cublas_check.hpp"
#include "gpu/core/unique_cuda_handle.hpp"

namespace geobem {

/// A cuBLAS handle bound to the current device (scalars passed from the
/// host). Throws DeviceError when cublasCreate fails (nothing is created then).
class CublasHandle {
 public:
  CublasHandle() {
    cublasHandle_t handle = nullptr;
    GEOBEM_CUBLAS_CHECK(cublasCreate(&handle));
    handle_.reset(handle);
  }

  cublasHandle_t get() const noexcept { return handle_.get(); }
  /// Runs the handle's routines on `stream` from now on (default: stream 0).
  void set_stream(cudaStream_t stream) { GEOBEM_CUBLAS_CHECK(cublasSetStream(handle_.get(), stream)); }

 private:
  UniqueCudaHandle<cublasHandle_t, cublasDestroy> handle_;
};

}  // namespace geobem
