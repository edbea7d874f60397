#pragma once
// GEOBEM_CUBLAS_CHECK(call): throws geobem::DeviceError unless the cuBLAS
// call returns CUBLAS_STATUS_SUCCESS (cuBLAS names its statuses itself).
#include <cublas_v2.h>

#include "gpu/core/device_error.hpp"

#define GEOBEM_CUBLAS_CHECK(call)                                                                          \
  do {                                                                                                     \
    const cublasStatus_t geobem_status_ = (call);                                                          \
    if (geobem_status_ != CUBLAS_STATUS_SUCCESS)                                                           \
      ::geobem::throw_device_error("cuBLAS", cublasGetStatusName(geobem_status_),                          \
                                   static_cast<int>(geobem_status_), #call, __FILE__, __LINE__);           \
  } while (0)
