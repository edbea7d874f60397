#pragma once
// CudaEvent: a move-only CUDA event, destroyed when it goes out of scope;
// elapsed_ms() times the work between two recorded events on the device.
// Usable from .cu and .cpp files.
#include <cuda_runtime_api.h>

#include <utility>

#include "gpu/core/cuda_check.hpp"

namespace geobem {

/// An event of the current device. `flags`: cudaEventDefault (timing on) or
/// e.g. cudaEventDisableTiming for an event used only to order streams, which
/// costs less to record. Throws DeviceError when it cannot be created.
class CudaEvent {
 public:
  explicit CudaEvent(unsigned flags = cudaEventDefault) { GEOBEM_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags)); }
  CudaEvent(CudaEvent&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  CudaEvent& operator=(CudaEvent&& other) noexcept {
    if (this != &other) {
      release();
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  ~CudaEvent() { release(); }

  cudaEvent_t get() const noexcept { return event_; }
  /// Queues the event on `stream` (0: the legacy default stream).
  void record(cudaStream_t stream = nullptr) { GEOBEM_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  /// Waits until the work queued before the last record() has finished;
  /// throws DeviceError for a failure of that work.
  void synchronize() const { GEOBEM_CUDA_CHECK(cudaEventSynchronize(event_)); }

 private:
  void release() noexcept {
    if (event_) cudaEventDestroy(event_);
    event_ = nullptr;
  }

  cudaEvent_t event_ = nullptr;
};

/// Milliseconds of device time from `start` to `end` (both recorded with
/// timing on; resolution about 0.5 µs). Waits for `end` first. Throws
/// DeviceError, e.g. when either event was not recorded.
inline float elapsed_ms(const CudaEvent& start, const CudaEvent& end) {
  end.synchronize();
  float ms = 0.0f;
  GEOBEM_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), end.get()));
  return ms;
}

}  // namespace geobem
