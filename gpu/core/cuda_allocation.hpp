#pragma once
// CudaAllocation<T, Memory>: what DeviceBuffer and PinnedBuffer share, a
// move-only typed array taken from and given back to one kind of CUDA memory
// (Memory: DeviceMemory for DeviceBuffer, device_buffer.hpp, or PinnedMemory
// for PinnedBuffer, pinned_buffer.hpp), with a size and a capacity that
// resize_discard() grows. Usable from .cu and .cpp files.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace geobem::detail {

/// `allocate` (cudaMalloc, cudaMallocHost) of `count` elements of
/// `element_bytes` each; nullptr for 0. Throws std::length_error naming
/// `owner` when the byte count overflows and DeviceError naming `call` and
/// the requested bytes when the allocation fails (the failure is also cleared
/// from cudaGetLastError, so a later launch check does not report it).
void* cuda_allocate(std::size_t count, std::size_t element_bytes, const char* owner, const char* call,
                    cudaError_t (*allocate)(void**, std::size_t));

/// The two kinds of CUDA memory: allocate(count, bytes each) through
/// cuda_allocate, free(pointer). The status of cudaFree and cudaFreeHost is
/// not checked: a destructor cannot report it, and it only repeats an earlier
/// asynchronous error that a check has thrown.
struct DeviceMemory {  // device global memory: cudaMalloc, cudaFree
  static void* allocate(std::size_t count, std::size_t element_bytes);
  static void free(void* data) noexcept { cudaFree(data); }
};
struct PinnedMemory {  // page-locked host memory: cudaMallocHost, cudaFreeHost
  static void* allocate(std::size_t count, std::size_t element_bytes);
  static void free(void* data) noexcept { cudaFreeHost(data); }
};

/// `size()` elements of T from Memory (Memory::allocate(count, bytes each),
/// Memory::free(pointer)), uninitialised after construction and after a
/// growing resize_discard(). A zero-size array allocates nothing.
template <class T, class Memory>
class CudaAllocation {
  static_assert(std::is_trivially_copyable<T>::value, "CUDA memory is copied to and from as bytes");

 public:
  CudaAllocation() noexcept = default;
  /// `count` uninitialised elements.
  explicit CudaAllocation(std::size_t count)
      : data_(static_cast<T*>(Memory::allocate(count, sizeof(T)))), size_(count), capacity_(count) {}

  CudaAllocation(CudaAllocation&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  CudaAllocation& operator=(CudaAllocation&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  CudaAllocation(const CudaAllocation&) = delete;
  CudaAllocation& operator=(const CudaAllocation&) = delete;
  ~CudaAllocation() { release(); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  /// Elements allocated; resize_discard() up to it allocates nothing.
  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }

  /// Makes the size `count` without keeping the contents: allocates anew only
  /// when `count` exceeds capacity() (so an array reused across calls grows to
  /// the largest and stays there). Freeing the old memory waits for the work
  /// queued on the device; no queued work may still use it. After a failed
  /// allocation the array is empty.
  void resize_discard(std::size_t count) {
    if (count > capacity_) {
      release();
      data_ = static_cast<T*>(Memory::allocate(count, sizeof(T)));
      capacity_ = count;
    }
    size_ = count;
  }

 private:
  void release() noexcept {
    if (data_) Memory::free(data_);
    data_ = nullptr;
    size_ = capacity_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace geobem::detail
