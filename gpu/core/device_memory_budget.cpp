#include "gpu/core/device_memory_budget.hpp"

#include <cuda_runtime_api.h>

#include "gpu/core/cuda_check.hpp"

namespace geobem {

std::size_t device_memory_budget(std::size_t limit_bytes) {
  std::size_t free_bytes = 0, total_bytes = 0;
  GEOBEM_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return memory_budget(free_bytes, limit_bytes);
}

}  // namespace geobem
