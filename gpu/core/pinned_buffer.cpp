#include "gpu/core/pinned_buffer.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "gpu/core/cuda_check.hpp"

namespace geobem::detail {

void* pinned_allocate(std::size_t count, std::size_t element_bytes) {
  if (count == 0) return nullptr;
  if (count > std::numeric_limits<std::size_t>::max() / element_bytes)
    throw std::length_error("PinnedBuffer of " + std::to_string(count) + " elements of " +
                            std::to_string(element_bytes) + " bytes: the byte count overflows");
  const std::size_t bytes = count * element_bytes;
  void* data = nullptr;
  const cudaError_t status = cudaMallocHost(&data, bytes);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // an allocation failure is not sticky: leave no trace for later checks
    const std::string call = "cudaMallocHost of " + std::to_string(bytes) + " bytes";
    throw_device_error("CUDA", cudaGetErrorName(status), static_cast<int>(status), call.c_str(), __FILE__, __LINE__);
  }
  return data;
}

}  // namespace geobem::detail
