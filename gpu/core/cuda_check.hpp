#pragma once
// GEOBEM_CUDA_CHECK(call): throws geobem::DeviceError unless the CUDA runtime
// call returns cudaSuccess. GEOBEM_CUDA_CHECK_LAUNCH(): checks the last
// kernel launch (cudaGetLastError) the same way.
#include <cuda_runtime_api.h>

#include "gpu/core/device_error.hpp"

#define GEOBEM_CUDA_CHECK(call)                                                                \
  do {                                                                                         \
    const cudaError_t geobem_status_ = (call);                                                 \
    if (geobem_status_ != cudaSuccess)                                                         \
      ::geobem::throw_device_error("CUDA", cudaGetErrorName(geobem_status_),                   \
                                   static_cast<int>(geobem_status_), #call, __FILE__, __LINE__); \
  } while (0)

#define GEOBEM_CUDA_CHECK_LAUNCH() GEOBEM_CUDA_CHECK(cudaGetLastError())
