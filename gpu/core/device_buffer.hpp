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
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/core/cuda_allocation.hpp"
#include "gpu/core/cuda_check.hpp"

namespace geobem {

namespace detail {

/// Throws std::out_of_range naming `operation` unless [offset, offset + count)
/// lies within [0, size).
void check_device_range(const char* operation, std::size_t offset, std::size_t count, std::size_t size);

}  // namespace detail

/// A move-only array of `size()` elements of T in device memory.
/// Contents are uninitialised after construction and after a growing
/// resize_discard() (detail::CudaAllocation). Every CUDA status is checked
/// (geobem::DeviceError); copies outside [0, size()) throw std::out_of_range
/// before any CUDA call. A zero-size buffer allocates nothing and needs no
/// device.
template <class T>
class DeviceBuffer : public detail::CudaAllocation<T, detail::DeviceMemory> {
 public:
  /// DeviceBuffer(count): `count` uninitialised elements.
  using detail::CudaAllocation<T, detail::DeviceMemory>::CudaAllocation;
  DeviceBuffer() noexcept = default;
  /// A device copy of `host` (synchronous).
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host.data(), host.size()); }

  /// Copies host[0, count) to elements [offset, offset + count); returns when done.
  void upload(const T* host, std::size_t count, std::size_t offset = 0) {
    detail::check_device_range("DeviceBuffer::upload", offset, count, this->size());
    if (count) GEOBEM_CHECK(cudaMemcpy(this->data() + offset, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// Copies elements [offset, offset + count) to host[0, count); returns when done.
  void download(T* host, std::size_t count, std::size_t offset = 0) const {
    detail::check_device_range("DeviceBuffer::download", offset, count, this->size());
    if (count) GEOBEM_CHECK(cudaMemcpy(host, this->data() + offset, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  /// All elements, copied to a new host vector.
  std::vector<T> to_host() const {
    std::vector<T> host(this->size());
    download(host.data(), this->size());
    return host;
  }

  /// upload() queued on `stream`: returns at once. `host` must stay valid and
  /// unchanged until the stream has passed the copy; only page-locked host
  /// memory (PinnedBuffer) makes the copy truly asynchronous.
  void upload_async(const T* host, std::size_t count, cudaStream_t stream, std::size_t offset = 0) {
    detail::check_device_range("DeviceBuffer::upload_async", offset, count, this->size());
    if (count)
      GEOBEM_CHECK(cudaMemcpyAsync(this->data() + offset, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  /// download() queued on `stream`: `host` holds the values once the stream
  /// has passed the copy (synchronise the stream or an event recorded after it).
  void download_async(T* host, std::size_t count, cudaStream_t stream, std::size_t offset = 0) const {
    detail::check_device_range("DeviceBuffer::download_async", offset, count, this->size());
    if (count)
      GEOBEM_CHECK(cudaMemcpyAsync(host, this->data() + offset, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }

  /// Sets every byte of elements [0, size()) to zero, ordered on `stream`
  /// (the default: the legacy default stream).
  void fill_zero(cudaStream_t stream = nullptr) {
    if (!this->empty()) GEOBEM_CHECK(cudaMemsetAsync(this->data(), 0, this->bytes(), stream));
  }
};

}  // namespace geobem
