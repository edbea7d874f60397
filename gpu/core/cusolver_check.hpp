#pragma once
// GEOBEM_CUSOLVER_CHECK(call): throws geobem::DeviceError unless the cuSOLVER
// call returns CUSOLVER_STATUS_SUCCESS.
#include <cusolverDn.h>

#include "gpu/core/device_error.hpp"

namespace geobem {
/// cuSOLVER has no status-to-name function; this is the enum's spelling.
const char* cusolver_status_name(cusolverStatus_t status);
}  // namespace geobem

#define GEOBEM_CUSOLVER_CHECK(call)                                                               \
  do {                                                                                            \
    const cusolverStatus_t geobem_status_ = (call);                                               \
    if (geobem_status_ != CUSOLVER_STATUS_SUCCESS)                                                \
      ::geobem::throw_device_error("cuSOLVER", ::geobem::cusolver_status_name(geobem_status_),    \
                                   static_cast<int>(geobem_status_), #call, __FILE__, __LINE__);  \
  } while (0)
