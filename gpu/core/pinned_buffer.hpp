#pragma once
// PinnedBuffer<T>: a move-only array in page-locked host memory
// (cudaMallocHost), the host side of asynchronous copies: a copy from or to
// pageable memory is staged by the driver and does not overlap with the
// host, a copy from or to page-locked memory runs on the copy engine at the
// link's full rate. Usable from .cu and .cpp files.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "gpu/core/cuda_allocation.hpp"

namespace geobem {

/// `size()` elements of T in page-locked host memory, uninitialised after
/// construction and after a growing resize_discard() (detail::CudaAllocation).
/// Page-locked memory is taken from the system's physical memory: keep such
/// buffers for staging, not for whole data sets. A zero-size buffer allocates
/// nothing.
template <class T>
class PinnedBuffer : public detail::CudaAllocation<T, detail::PinnedMemory> {
 public:
  /// PinnedBuffer(count): `count` uninitialised elements.
  using detail::CudaAllocation<T, detail::PinnedMemory>::CudaAllocation;

  T& operator[](std::size_t i) noexcept { return this->data()[i]; }
  const T& operator[](std::size_t i) const noexcept { return this->data()[i]; }
  T* begin() noexcept { return this->data(); }
  T* end() noexcept { return this->data() + this->size(); }
  const T* begin() const noexcept { return this->data(); }
  const T* end() const noexcept { return this->data() + this->size(); }
};

}  // namespace geobem
