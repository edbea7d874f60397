#include "gpu/core/device_buffer.hpp"

#include <limits>

namespace geobem::detail {

void* device_allocate(std::size_t count, std::size_t element_bytes) {
  if (count == 0) return nullptr;
  if (count > std::numeric_limits<std::size_t>::max() / element_bytes)
    throw std::length_error("DeviceBuffer of " + std::to_string(count) + " elements of " +
                            std::to_string(element_bytes) + " bytes: the byte count overflows");
  const std::size_t bytes = count * element_bytes;
  void* data = nullptr;
  const cudaError_t status = cudaMalloc(&data, bytes);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // an allocation failure is not sticky: leave no trace for later checks
    const std::string call = "cudaMalloc of " + std::to_string(bytes) + " bytes";
    throw_device_error("CUDA", cudaGetErrorName(status), static_cast<int>(status), call.c_str(), __FILE__, __LINE__);
  }
  return data;
}

void check_device_range(const char* operation, std::size_t offset, std::size_t count, std::size_t size) {
  if (offset > size || count > size - offset)
    throw std::out_of_range(std::string(operation) + ": elements [" + std::to_string(offset) + ", " +
                            std::to_string(offset) + " + " + std::to_string(count) + ") outside a buffer of " +
                            std::to_string(size));
}

}  // namespace geobem::detail
