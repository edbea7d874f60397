#include "gpu/core/device_error.hpp"

#include <sstream>

namespace geobem {

void throw_device_error(const char* library, const char* status_name, int status_code, const char* call,
                        const char* file, int line) {
  std::ostringstream message;
  message << library << " error " << status_name << " (" << status_code << ") in `" << call << "` at " << file
          << ':' << line;
  throw DeviceError(message.str());
}

}  // namespace geobem
