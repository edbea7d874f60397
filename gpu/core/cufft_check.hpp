#pragma once
// GEOBEM_CUFFT_CHECK(call): throws geobem::DeviceError unless the cuFFT call
// returns CUFFT_SUCCESS.
#include <cufft.h>

#include "gpu/core/device_error.hpp"

namespace geobem {
/// cuFFT has no status-to-name function; this is the enum's spelling.
const char* cufft_result_name(cufftResult result);
}  // namespace geobem

#define GEOBEM_CUFFT_CHECK(call)                                                                  \
  do {                                                                                            \
    const cufftResult geobem_status_ = (call);                                                    \
    if (geobem_status_ != CUFFT_SUCCESS)                                                          \
      ::geobem::throw_device_error("cuFFT", ::geobem::cufft_result_name(geobem_status_),          \
                                   static_cast<int>(geobem_status_), #call, __FILE__, __LINE__);  \
  } while (0)
