#include "gpu/core/cuda_allocation.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "gpu/core/cuda_check.hpp"

namespace geobem::detail {

void* cuda_allocate(std::size_t count, std::size_t element_bytes, const char* owner, const char* call,
                    cudaError_t (*allocate)(void**, std::size_t)) {
  if (count == 0) return nullptr;
  if (count > std::numeric_limits<std::size_t>::max() / element_bytes)
    throw std::length_error(std::string(owner) + " of " + std::to_string(count) + " elements of " +
                            std::to_string(element_bytes) + " bytes: the byte count overflows");
  const std::size_t bytes = count * element_bytes;
  void* data = nullptr;
  const cudaError_t status = allocate(&data, bytes);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // an allocation failure is not sticky: leave no trace for later checks
    const std::string what = std::string(call) + " of " + std::to_string(bytes) + " bytes";
    check_status(status, what.c_str(), __FILE__, __LINE__);
  }
  return data;
}

void* DeviceMemory::allocate(std::size_t count, std::size_t element_bytes) {
  return cuda_allocate(count, element_bytes, "DeviceBuffer", "cudaMalloc", cudaMalloc);
}

void* PinnedMemory::allocate(std::size_t count, std::size_t element_bytes) {
  return cuda_allocate(count, element_bytes, "PinnedBuffer", "cudaMallocHost", cudaMallocHost);
}

}  // namespace geobem::detail
