#pragma once
// The one status check of CUDA library calls. GEOBEM_CHECK(call) throws
// geobem::DeviceError unless `call` returns its library's success status;
// the message names the library, its name for the status, the status code,
// the call's text, file and line ("cuBLAS error CUBLAS_STATUS_NOT_INITIALIZED
// (1) in `cublasCreate(&handle)` at FILE:LINE"). The library is told by the
// status type: StatusTraits<Status> gives its name, its success value and its
// name for a status. Model: cuCollections' CUCO_CUDA_TRY, with a trait per
// library in place of a macro per library.
//
// The runtime's trait is here; each other library's sits with the owner of
// its handles (library_handle.hpp for cuBLAS and cuSOLVER, cufft_plan.hpp,
// nvrtc_program.cpp), which every call into that library needs anyway, so a
// file includes only the libraries it uses. Usable from .cu and .cpp files.
#include <cuda_runtime_api.h>

#include "gpu/core/device_error.hpp"

namespace geobem {

/// A CUDA library's statuses: `library` (its name in messages), `success`,
/// and name(status). Specialised once per status type, from LibraryStatus.
template <class Status>
struct StatusTraits {
  static_assert(sizeof(Status) == 0,
                "no StatusTraits for this status type: include the header of the library's handle "
                "(library_handle.hpp, cufft_plan.hpp)");
};

/// What a StatusTraits specialisation takes from its library: the success
/// value and the function that names a status.
template <class Status, Status success_value, const char* (*name_of)(Status)>
struct LibraryStatus {
  static constexpr Status success = success_value;
  static const char* name(Status status) { return name_of(status); }
};

template <>
struct StatusTraits<cudaError_t> : LibraryStatus<cudaError_t, cudaSuccess, cudaGetErrorName> {
  static constexpr const char* library = "CUDA";
};

/// Throws DeviceError (throw_device_error) unless `status` is its library's
/// success value; `call`, `file` and `line` say where it came from.
template <class Status>
void check_status(Status status, const char* call, const char* file, int line) {
  using Traits = StatusTraits<Status>;
  if (status != Traits::success)
    throw_device_error(Traits::library, Traits::name(status), static_cast<int>(status), call, file, line);
}

}  // namespace geobem

#define GEOBEM_CHECK(call) ::geobem::check_status((call), #call, __FILE__, __LINE__)

/// GEOBEM_CHECK for a call that must return the runtime's cudaError_t (a call
/// of another library does not compile).
#define GEOBEM_CUDA_CHECK(call) ::geobem::check_status<cudaError_t>((call), #call, __FILE__, __LINE__)

/// Checks the last kernel launch (cudaGetLastError).
#define GEOBEM_CUDA_CHECK_LAUNCH() GEOBEM_CHECK(cudaGetLastError())
