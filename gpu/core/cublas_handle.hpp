#pragma once
// CublasHandle: a move-only cuBLAS handle, destroyed when it goes out of
// scope. Usable from .cu and .cpp files.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <utility>

#include "gpu/core/cublas_check.hpp"

namespace geobem {

/// A cuBLAS handle bound to the current device (scalars passed from the
/// host). Throws DeviceError when cublasCreate fails (nothing is created then).
class CublasHandle {
 public:
  CublasHandle() { GEOBEM_CUBLAS_CHECK(cublasCreate(&handle_)); }
  CublasHandle(CublasHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  CublasHandle& operator=(CublasHandle&& other) noexcept {
    if (this != &other) {
      release();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  ~CublasHandle() { release(); }

  cublasHandle_t get() const noexcept { return handle_; }
  /// Runs the handle's routines on `stream` from now on (default: stream 0).
  void set_stream(cudaStream_t stream) { GEOBEM_CUBLAS_CHECK(cublasSetStream(handle_, stream)); }

 private:
  void release() noexcept {
    if (handle_) cublasDestroy(handle_);
    handle_ = nullptr;
  }

  cublasHandle_t handle_ = nullptr;
};

}  // namespace geobem
