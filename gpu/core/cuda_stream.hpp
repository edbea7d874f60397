#pragma once
// CudaStream: a move-only CUDA stream, destroyed when it goes out of scope.
// Usable from .cu and .cpp files; launch on it with `<<<grid, block, shared,
// stream.get()>>>`.
#include <cuda_runtime_api.h>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/unique_cuda_handle.hpp"

namespace geobem {

/// A non-blocking stream of the current device: work on it does not wait for
/// the legacy default stream (stream 0) nor the reverse, so work that must
/// follow a copy or a clear goes on the same stream. Throws DeviceError when
/// the stream cannot be created. Destroying it returns at once; queued work
/// still completes.
class CudaStream {
 public:
  CudaStream() {
    cudaStream_t stream = nullptr;
    GEOBEM_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    stream_.reset(stream);
  }

  cudaStream_t get() const noexcept { return stream_.get(); }
  /// Waits until all work queued on the stream has finished; throws
  /// DeviceError for a failure of that work.
  void synchronize() const { GEOBEM_CHECK(cudaStreamSynchronize(stream_.get())); }
  /// True when all work queued on the stream has finished (does not wait);
  /// throws DeviceError for a failure of that work.
  bool idle() const {
    const cudaError_t status = cudaStreamQuery(stream_.get());
    if (status == cudaErrorNotReady) return false;
    GEOBEM_CHECK(status);
    return true;
  }

 private:
  UniqueCudaHandle<cudaStream_t, cudaStreamDestroy> stream_;
};

}  // namespace geobem
