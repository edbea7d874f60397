#pragma once
// PinnedBuffer<T>: a move-only array in page-locked host memory
// (cudaMallocHost), the host side of asynchronous copies: a copy from or to
// pageable memory is staged by the driver and does not overlap with the
// host, a copy from or to page-locked memory runs on the copy engine at the
// link's full rate. Usable from .cu and .cpp files.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace geobem {

namespace detail {

/// cudaMallocHost of `count` elements of `element_bytes` each; nullptr for 0.
/// Throws std::length_error when the byte count overflows and DeviceError
/// naming the requested bytes when the allocation fails.
void* pinned_allocate(std::size_t count, std::size_t element_bytes);

}  // namespace detail

/// `size()` elements of T in page-locked host memory, uninitialised after
/// construction and after a growing resize_discard(). Page-locked memory is
/// taken from the system's physical memory: keep such buffers for staging,
/// not for whole data sets. A zero-size buffer allocates nothing.
template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable<T>::value, "PinnedBuffer is copied to the device as bytes");

 public:
  PinnedBuffer() noexcept = default;
  explicit PinnedBuffer(std::size_t count)
      : data_(static_cast<T*>(detail::pinned_allocate(count, sizeof(T)))), size_(count), capacity_(count) {}

  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  /// cudaFreeHost's status is not checked (a destructor cannot report it).
  ~PinnedBuffer() { release(); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return capacity_; }
  bool empty() const noexcept { return size_ == 0; }

  /// Makes the size `count` without keeping the contents; allocates anew only
  /// when `count` exceeds capacity(). No queued copy may still use the old
  /// memory. After a failed allocation the buffer is empty.
  void resize_discard(std::size_t count) {
    if (count > capacity_) {
      release();
      data_ = static_cast<T*>(detail::pinned_allocate(count, sizeof(T)));
      capacity_ = count;
    }
    size_ = count;
  }

 private:
  void release() noexcept {
    if (data_) cudaFreeHost(data_);
    data_ = nullptr;
    size_ = capacity_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace geobem
