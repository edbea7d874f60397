#pragma once
// CudaLibrary: a move-only CUDA library loaded from an image (a CUBIN from
// NVRTC, nvrtc_program.hpp), unloaded when it goes out of scope; its kernels
// are launched by handle. The runtime API's library calls
// (cudaLibraryLoadData, CUDA 12+) keep the driver library out of the link,
// so a build with CUDA still starts where there is no driver.
#include <cuda_runtime_api.h>

#include <string>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/unique_cuda_handle.hpp"

namespace geobem {

class CudaLibrary {
 public:
  /// Loads `image` (kept by the runtime only during the call). Throws
  /// DeviceError when it cannot be loaded (e.g. built for another architecture).
  explicit CudaLibrary(const std::string& image) {
    cudaLibrary_t library = nullptr;
    GEOBEM_CHECK(cudaLibraryLoadData(&library, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    library_.reset(library);
  }

  /// The kernel named `name` (an extern "C" __global__ function); throws
  /// DeviceError when there is none.
  cudaKernel_t kernel(const std::string& name) const {
    cudaKernel_t handle = nullptr;
    GEOBEM_CHECK(cudaLibraryGetKernel(&handle, library_.get(), name.c_str()));
    return handle;
  }

 private:
  UniqueCudaHandle<cudaLibrary_t, cudaLibraryUnload> library_;
};

/// Launches `kernel` with `arguments` (pointers to each argument, in order)
/// on `stream`; throws DeviceError when the launch fails.
inline void launch_kernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** arguments, std::size_t shared_bytes,
                          cudaStream_t stream) {
  GEOBEM_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, arguments, shared_bytes, stream));
}

}  // namespace geobem
