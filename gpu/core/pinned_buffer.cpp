#include "gpu/core/pinned_buffer.hpp"

namespace geobem::detail {

void* PinnedMemory::allocate(std::size_t count, std::size_t element_bytes) {
  return cuda_allocate(count, element_bytes, "PinnedBuffer", "cudaMallocHost", cudaMallocHost);
}

}  // namespace geobem::detail
