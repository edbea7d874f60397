#pragma once
// CudaLibrary: a move-only CUDA library loaded from an image (a CUBIN from
// NVRTC, nvrtc_program.hpp), unloaded when it goes out of scope; its kernels
// are launched by handle. The runtime API's library calls
// (cudaLibraryLoadData, CUDA 12+) keep the driver library out of the link,
// so a build with CUDA still starts where there is no driver.
#include <cuda_runtime_api.h>

#include <string>
#include <utility>

#include "gpu/core/cuda_check.hpp"

namespace geobem {

class CudaLibrary {
 public:
  /// Loads `image` (kept by the runtime only during the call). Throws
  /// DeviceError when it cannot be loaded (e.g. built for another architecture).
  explicit CudaLibrary(const std::string& image) {
    GEOBEM_CUDA_CHECK(cudaLibraryLoadData(&library_, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  }
  CudaLibrary(CudaLibrary&& other) noexcept : library_(std::exchange(other.library_, nullptr)) {}
  CudaLibrary& operator=(CudaLibrary&& other) noexcept {
    if (this != &other) {
      release();
      library_ = std::exchange(other.library_, nullptr);
    }
    return *this;
  }
  CudaLibrary(const CudaLibrary&) = delete;
  CudaLibrary& operator=(const CudaLibrary&) = delete;
  ~CudaLibrary() { release(); }

  /// The kernel named `name` (an extern "C" __global__ function); throws
  /// DeviceError when there is none.
  cudaKernel_t kernel(const std::string& name) const {
    cudaKernel_t handle = nullptr;
    GEOBEM_CUDA_CHECK(cudaLibraryGetKernel(&handle, library_, name.c_str()));
    return handle;
  }

 private:
  void release() noexcept {
    if (library_) cudaLibraryUnload(library_);
    library_ = nullptr;
  }

  cudaLibrary_t library_ = nullptr;
};

/// Launches `kernel` with `arguments` (pointers to each argument, in order)
/// on `stream`; throws DeviceError when the launch fails.
inline void launch_kernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** arguments, std::size_t shared_bytes,
                          cudaStream_t stream) {
  GEOBEM_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, arguments, shared_bytes, stream));
}

}  // namespace geobem
