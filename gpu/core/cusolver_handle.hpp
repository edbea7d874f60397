#pragma once
// CusolverDnHandle: a move-only cuSOLVER dense handle, destroyed when it goes
// out of scope, so that an owner whose constructor throws after creating it
// leaks nothing. Usable from .cu and .cpp files.
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <utility>

#include "gpu/core/cusolver_check.hpp"

namespace geobem {

/// A cuSOLVER dense handle bound to the current device. Throws DeviceError
/// when cusolverDnCreate fails (nothing is created then).
class CusolverDnHandle {
 public:
  CusolverDnHandle() { GEOBEM_CUSOLVER_CHECK(cusolverDnCreate(&handle_)); }
  CusolverDnHandle(CusolverDnHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  CusolverDnHandle& operator=(CusolverDnHandle&& other) noexcept {
    if (this != &other) {
      release();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  CusolverDnHandle(const CusolverDnHandle&) = delete;
  CusolverDnHandle& operator=(const CusolverDnHandle&) = delete;
  ~CusolverDnHandle() { release(); }

  cusolverDnHandle_t get() const noexcept { return handle_; }
  /// Runs the handle's routines on `stream` from now on (default: stream 0).
  void set_stream(cudaStream_t stream) { GEOBEM_CUSOLVER_CHECK(cusolverDnSetStream(handle_, stream)); }

 private:
  void release() noexcept {
    if (handle_) cusolverDnDestroy(handle_);
    handle_ = nullptr;
  }

  cusolverDnHandle_t handle_ = nullptr;
};

}  // namespace geobem
