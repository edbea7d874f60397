#pragma once
// LibraryHandle<Handle, create, destroy, set_stream>: the one owner of a CUDA
// library's context handle, made by `create` on the current device and given
// to `destroy` when it goes out of scope, so that an owner whose constructor
// throws after making it leaks nothing. Move-only. Its instances, with their
// libraries' statuses for GEOBEM_CHECK: CublasHandle (scalars passed from the
// host) and CusolverDnHandle (cuSOLVER's dense API). Usable from .cu and .cpp
// files.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/unique_cuda_handle.hpp"

namespace geobem {

/// `create(Handle*)`, `destroy(Handle)` and `set_stream(Handle, cudaStream_t)`
/// return the library's status. Throws DeviceError when `create` fails
/// (nothing is made then).
template <class Handle, auto create, auto destroy, auto set_stream_of>
class LibraryHandle {
 public:
  LibraryHandle() {
    Handle handle = nullptr;
    GEOBEM_CHECK(create(&handle));
    handle_.reset(handle);
  }

  Handle get() const noexcept { return handle_.get(); }
  /// Runs the handle's routines on `stream` from now on (default: stream 0).
  void set_stream(cudaStream_t stream) { GEOBEM_CHECK(set_stream_of(handle_.get(), stream)); }

 private:
  UniqueCudaHandle<Handle, destroy> handle_;
};

/// cuBLAS names its statuses itself.
template <>
struct StatusTraits<cublasStatus_t> : LibraryStatus<cublasStatus_t, CUBLAS_STATUS_SUCCESS, cublasGetStatusName> {
  static constexpr const char* library = "cuBLAS";
};
using CublasHandle = LibraryHandle<cublasHandle_t, cublasCreate, cublasDestroy, cublasSetStream>;

/// cuSOLVER has no status-to-name function: the enum's spelling
/// (cuda_status_names.cpp), "CUSOLVER_STATUS_(other)" for a value it lacks.
const char* cusolver_status_name(cusolverStatus_t status);
template <>
struct StatusTraits<cusolverStatus_t>
    : LibraryStatus<cusolverStatus_t, CUSOLVER_STATUS_SUCCESS, cusolver_status_name> {
  static constexpr const char* library = "cuSOLVER";
};
using CusolverDnHandle = LibraryHandle<cusolverDnHandle_t, cusolverDnCreate, cusolverDnDestroy, cusolverDnSetStream>;

}  // namespace geobem

/// GEOBEM_CHECK for a call that must return cublasStatus_t.
#define GEOBEM_CUBLAS_CHECK(call) ::geobem::check_status<cublasStatus_t>((call), #call, __FILE__, __LINE__)
