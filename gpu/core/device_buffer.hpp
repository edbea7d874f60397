#pragma once
// DeviceBuffer<T>: the one owner of device memory in geobem. A move-only,
// typed array in the current CUDA device's global memory, freed when it goes
// out of scope (also when an exception leaves the scope), with synchronous and
// stream-ordered copies to and from host arrays. Kernels get its data()
// pointer or a view struct of such pointers (bem's ModelView); the buffer
// itself never enters device code. Usable from .cu and .cpp files.
// Model: AMReX's Gpu::DeviceVector (typed, RAII, size-aware), without its
// element-wise construction: elements are trivially copyable and are copied
// as bytes.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu/core/cuda_check.hpp"

namespace geobem {

namespace detail {

/// cudaMalloc of `count` elements of `element_bytes` each; nullptr for 0.
/// Throws std::length_error when the byte count overflows and DeviceError
/// naming the requested bytes when the allocation fails (the failure is also
/// cleared from cudaGetLastError, so a later launch check does not report it).
void* device_allocate(std::size_t count, std::size_t element_bytes);

/// Throws std::out_of_range naming `operation` unless [offset, offset + count)
/// lies within [0, size).
void check_device_range(const char* operation, std::size_t offset, std::size_t count, std::size_t size);

}  // namespace detail

/// A move-only array of `size()` elements of T in device memory.
/// Contents are uninitialised after construction and after a growing
/// resize_discard(). Every CUDA status is checked (geobem::DeviceError);
/// copies outside [0, size()) throw std::out_of_range before any CUDA call.
/// A zero-size buffer allocates nothing and needs no device.
template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable<T>::value, "DeviceBuffer copies its elements as bytes");

 public:
  DeviceBuffer() noexcept = default;
  /// `count` uninitialised elements.
  explicit DeviceBuffer(std::size_t count)
      : data_(static_cast<T*>(detail::device_allocate(count, sizeof(T)))), size_(count), capacity_(count) {}
  /// A device copy of `host` (synchronous).
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host.data(), host.size()); }

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  /// cudaFree's status is not checked: a destructor cannot report it, and it
  /// only repeats an earlier asynchronous error that a check has thrown.
  ~DeviceBuffer() { release(); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  /// Elements allocated; resize_discard() up to it allocates nothing.
  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }

  /// Makes the size `count` without keeping the contents: allocates anew only
  /// when `count` exceeds capacity() (so a buffer reused across calls grows to
  /// the largest and stays there). A reallocation frees the old memory, which
  /// waits for all work queued on the device; no queued work may still use it.
  /// After a failed allocation the buffer is empty.
  void resize_discard(std::size_t count) {
    if (count > capacity_) {
      release();
      data_ = static_cast<T*>(detail::device_allocate(count, sizeof(T)));
      capacity_ = count;
    }
    size_ = count;
  }

  /// Copies host[0, count) to elements [offset, offset + count); returns when done.
  void upload(const T* host, std::size_t count, std::size_t offset = 0) {
    detail::check_device_range("DeviceBuffer::upload", offset, count, size_);
    if (count) GEOBEM_CUDA_CHECK(cudaMemcpy(data_ + offset, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// Copies elements [offset, offset + count) to host[0, count); returns when done.
  void download(T* host, std::size_t count, std::size_t offset = 0) const {
    detail::check_device_range("DeviceBuffer::download", offset, count, size_);
    if (count) GEOBEM_CUDA_CHECK(cudaMemcpy(host, data_ + offset, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  /// All elements, copied to a new host vector.
  std::vector<T> to_host() const {
    std::vector<T> host(size_);
    download(host.data(), size_);
    return host;
  }

  /// upload() queued on `stream`: returns at once. `host` must stay valid and
  /// unchanged until the stream has passed the copy; only page-locked host
  /// memory (PinnedBuffer) makes the copy truly asynchronous.
  void upload_async(const T* host, std::size_t count, cudaStream_t stream, std::size_t offset = 0) {
    detail::check_device_range("DeviceBuffer::upload_async", offset, count, size_);
    if (count)
      GEOBEM_CUDA_CHECK(cudaMemcpyAsync(data_ + offset, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  /// download() queued on `stream`: `host` holds the values once the stream
  /// has passed the copy (synchronise the stream or an event recorded after it).
  void download_async(T* host, std::size_t count, cudaStream_t stream, std::size_t offset = 0) const {
    detail::check_device_range("DeviceBuffer::download_async", offset, count, size_);
    if (count)
      GEOBEM_CUDA_CHECK(cudaMemcpyAsync(host, data_ + offset, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }

  /// Sets every byte of elements [0, size()) to zero, ordered on `stream`
  /// (the default: the legacy default stream).
  void fill_zero(cudaStream_t stream = nullptr) {
    if (size_) GEOBEM_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes(), stream));
  }

 private:
  void release() noexcept {
    if (data_) cudaFree(data_);
    data_ = nullptr;
    size_ = capacity_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace geobem
