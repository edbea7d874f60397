#include "gpu/core/device_buffer.hpp"

namespace geobem::detail {

void check_device_range(const char* operation, std::size_t offset, std::size_t count, std::size_t size) {
  if (offset > size || count > size - offset)
    throw std::out_of_range(std::string(operation) + ": elements [" + std::to_string(offset) + ", " +
                            std::to_string(offset) + " + " + std::to_string(count) + ") outside a buffer of " +
                            std::to_string(size));
}

}  // namespace geobem::detail
