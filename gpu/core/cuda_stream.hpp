#pragma once
// CudaStream: a move-only CUDA stream, destroyed when it goes out of scope.
// Usable from .cu and .cpp files; launch on it with `<<<grid, block, shared,
// stream.get()>>>`.
#include <cuda_runtime_api.h>

#include <utility>

#include "gpu/core/cuda_check.hpp"

namespace geobem {

/// A non-blocking stream of the current device: work on it does not wait for
/// the legacy default stream (stream 0) nor the reverse, so work that must
/// follow a copy or a clear goes on the same stream. Throws DeviceError when
/// the stream cannot be created.
class CudaStream {
 public:
  CudaStream() { GEOBEM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  CudaStream(CudaStream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  CudaStream& operator=(CudaStream&& other) noexcept {
    if (this != &other) {
      release();
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  /// cudaStreamDestroy returns at once; queued work still completes.
  ~CudaStream() { release(); }

  cudaStream_t get() const noexcept { return stream_; }
  /// Waits until all work queued on the stream has finished; throws
  /// DeviceError for a failure of that work.
  void synchronize() const { GEOBEM_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  /// True when all work queued on the stream has finished (does not wait);
  /// throws DeviceError for a failure of that work.
  bool idle() const {
    const cudaError_t status = cudaStreamQuery(stream_);
    if (status == cudaErrorNotReady) return false;
    GEOBEM_CUDA_CHECK(status);
    return true;
  }

 private:
  void release() noexcept {
    if (stream_) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }

  cudaStream_t stream_ = nullptr;
};

}  // namespace geobem
