#pragma once
// CusolverDnHandle: a move-only cuSOLVER dense handle, destroyed when it goes
// out of scope, so that an owner whose constructor throws after creating it
// leaks nothing. Usable from .cu and .cpp files.
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include "gpu/core/cusolver_check.hpp"
#include "gpu/core/unique_cuda_handle.hpp"

namespace geobem {

/// A cuSOLVER dense handle bound to the current device. Throws DeviceError
/// when cusolverDnCreate fails (nothing is created then).
class CusolverDnHandle {
 public:
  CusolverDnHandle() {
    cusolverDnHandle_t handle = nullptr;
    GEOBEM_CUSOLVER_CHECK(cusolverDnCreate(&handle));
    handle_.reset(handle);
  }

  cusolverDnHandle_t get() const noexcept { return handle_.get(); }
  /// Runs the handle's routines on `stream` from now on (default: stream 0).
  void set_stream(cudaStream_t stream) { GEOBEM_CUSOLVER_CHECK(cusolverDnSetStream(handle_.get(), stream)); }

 private:
  UniqueCudaHandle<cusolverDnHandle_t, cusolverDnDestroy> handle_;
};

}  // namespace geobem
