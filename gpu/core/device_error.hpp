#pragma once
#include <stdexcept>
#include <string>

namespace geobem {

/// Thrown by the status check of CUDA library calls (GEOBEM_CHECK,
/// cuda_check.hpp) and the device-resource classes (device_buffer.hpp and the
/// others of gpu/core): the failing call's text, file, line and the library's
/// name for the status.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Formats "LIB error NAME (code) in `CALL` at FILE:LINE" and throws DeviceError.
[[noreturn]] void throw_device_error(const char* library, const char* status_name, int status_code,
                                     const char* call, const char* file, int line);

}  // namespace geobem
