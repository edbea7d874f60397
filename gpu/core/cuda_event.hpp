#pragma once
// CudaEvent: a move-only CUDA event, destroyed when it goes out of scope;
// elapsed_ms() times the work between two recorded events on the device.
// Usable from .cu and .cpp files.
#include <cuda_runtime_api.h>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/unique_cuda_handle.hpp"

namespace geobem {

/// An event of the current device. `flags`: cudaEventDefault (timing on) or
/// e.g. cudaEventDisableTiming for an event used only to order streams, which
/// costs less to record. Throws DeviceError when it cannot be created.
class CudaEvent {
 public:
  explicit CudaEvent(unsigned flags = cudaEventDefault) {
    cudaEvent_t event = nullptr;
    GEOBEM_CHECK(cudaEventCreateWithFlags(&event, flags));
    event_.reset(event);
  }

  cudaEvent_t get() const noexcept { return event_.get(); }
  /// Queues the event on `stream` (0: the legacy default stream).
  void record(cudaStream_t stream = nullptr) { GEOBEM_CHECK(cudaEventRecord(event_.get(), stream)); }
  /// Waits until the work queued before the last record() has finished;
  /// throws DeviceError for a failure of that work.
  void synchronize() const { GEOBEM_CHECK(cudaEventSynchronize(event_.get())); }

 private:
  UniqueCudaHandle<cudaEvent_t, cudaEventDestroy> event_;
};

/// Milliseconds of device time from `start` to `end` (both recorded with
/// timing on; resolution about 0.5 µs). Waits for `end` first. Throws
/// DeviceError, e.g. when either event was not recorded.
inline float elapsed_ms(const CudaEvent& start, const CudaEvent& end) {
  end.synchronize();
  float ms = 0.0f;
  GEOBEM_CHECK(cudaEventElapsedTime(&ms, start.get(), end.get()));
  return ms;
}

}  // namespace geobem
